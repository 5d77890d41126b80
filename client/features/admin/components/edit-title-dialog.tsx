import { useState, type FormEvent } from 'react';
import { CUSTOM_TITLE_MAX } from '../../../../common/admin';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '../../../components/ui/dialog';
import { Input } from '../../../components/ui/input';
import { useClearCustomTitle } from '../api/clear-custom-title';
import { useSetCustomTitle, type TitledProduct } from '../api/set-custom-title';

interface EditTitleDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The one Shopify product whose title changes (a group card's). */
  product: TitledProduct;
  customTitle: string | null;
}

/**
 * 'Edit Product Title': a custom title of 1..200 characters after trimming, with the
 * 'n/200 characters' counter; clearing it gives shoppers Shopify's title back.
 */
export function EditTitleDialog({ open, onOpenChange, product, customTitle }: EditTitleDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      {/* At the top on phones rather than the usual bottom sheet: the on-screen keyboard opens over
          the bottom of the screen, and the title field must stay above it. */}
      <DialogContent edge="top" layout="form" data-testid="edit-title-dialog">
        {/* Remounted on each opening, so it starts from the title as it is now. */}
        {open && <TitleForm product={product} customTitle={customTitle} onDone={() => onOpenChange(false)} />}
      </DialogContent>
    </Dialog>
  );
}

function TitleForm({ product, customTitle, onDone }: { product: TitledProduct; customTitle: string | null; onDone: () => void }) {
  const { originalTitle } = product;
  const [value, setValue] = useState(customTitle ?? originalTitle);
  const save = useSetCustomTitle();
  const clear = useClearCustomTitle();
  const busy = save.isPending || clear.isPending;
  const trimmed = value.trim();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!trimmed || busy) return;
    save.mutate({ product, customTitle: trimmed }, { onSuccess: onDone });
  };

  return (
    <form className="grid gap-4" onSubmit={submit}>
      <div className="grid gap-1 pr-10">
        <DialogTitle>Edit Product Title</DialogTitle>
        <DialogDescription>
          Shoppers see this title instead of Shopify’s “<span className="font-semibold">{originalTitle}</span>”.
        </DialogDescription>
      </div>
      <label className="grid gap-1.5 text-sm font-semibold" htmlFor="custom-title">
        Custom title
        <Input
          id="custom-title"
          value={value}
          maxLength={CUSTOM_TITLE_MAX}
          onChange={(e) => setValue(e.target.value)}
          autoComplete="off"
          enterKeyHint="done"
          data-testid="custom-title-input"
        />
      </label>
      <p className="-mt-2 text-right text-xs text-muted-foreground tabular-nums" data-testid="custom-title-counter" aria-live="polite">
        {value.length}/{CUSTOM_TITLE_MAX} characters
      </p>
      <div className="flex flex-wrap justify-end gap-2">
        {customTitle !== null && (
          <Button
            variant="outline"
            className="mr-auto"
            disabled={busy}
            onClick={() => clear.mutate(product, { onSuccess: onDone })}
            data-testid="clear-custom-title"
          >
            Clear Custom Title
          </Button>
        )}
        <Button variant="ghost" onClick={onDone} disabled={busy}>
          Cancel
        </Button>
        <Button type="submit" disabled={!trimmed || busy} data-testid="save-custom-title">
          {save.isPending ? 'Saving...' : 'Save Title'}
        </Button>
      </div>
    </form>
  );
}
