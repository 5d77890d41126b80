import { KeyRound } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { Button } from '../../../components/ui/button';
import { CopyButton } from '../../../components/ui/copy-button';
import { DialogDescription, DialogTitle } from '../../../components/ui/dialog';

/**
 * An endpoint's signing secret, shown this once (after adding the endpoint or rotating its secret):
 * the whole value, selectable, with Copy, and the line that it will not be shown again.
 */
export function WebhookSecret({
  title,
  secret,
  url,
  note,
  onDone,
}: {
  title: string;
  secret: string;
  url: string;
  note?: string;
  onDone: () => void;
}) {
  const valueRef = useRef<HTMLElement>(null);
  // Focus lands on the secret, which a screen reader then reads; the text is selectable as it is.
  useEffect(() => valueRef.current?.focus(), []);
  return (
    <div className="grid gap-4" data-testid="webhook-secret-panel">
      <div className="grid gap-1 pr-10">
        <DialogTitle>{title}</DialogTitle>
        <DialogDescription className="break-all">{url}</DialogDescription>
      </div>
      <div className="grid gap-2">
        <p className="flex items-center gap-2 text-sm font-semibold" id="webhook-secret-label">
          <KeyRound aria-hidden className="size-5" /> Signing secret
        </p>
        <div className="flex items-center gap-1 rounded-xl border border-border bg-muted p-2">
          <code
            ref={valueRef}
            tabIndex={-1}
            aria-labelledby="webhook-secret-label"
            className="min-w-0 flex-1 font-mono text-sm break-all select-all focus-visible:outline-2 focus-visible:outline-ring"
            data-testid="webhook-secret"
          >
            {secret}
          </code>
          <CopyButton
            value={secret}
            label="Copy secret"
            copiedLabel="Secret copied"
            showLabel
            variant="outline"
            data-testid="webhook-secret-copy"
          />
        </div>
        <p role="note" className="rounded-xl bg-amber-50 p-3 text-sm font-semibold text-amber-950">
          Copy it now: you will not see it again. Your system checks each event&apos;s signature with it.
        </p>
        {note && <p className="text-sm text-muted-foreground">{note}</p>}
      </div>
      <div className="flex justify-end">
        <Button onClick={onDone} data-testid="webhook-secret-done">
          Done
        </Button>
      </div>
    </div>
  );
}
