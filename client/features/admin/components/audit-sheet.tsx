import { LoaderCircle } from 'lucide-react';
import { Button } from '../../../components/ui/button';
import { Sheet, SheetContent, SheetDescription, SheetTitle } from '../../../components/ui/sheet';
import { relativeTime } from '../../../lib/relative-time';
import { useAudit } from '../api/get-audit';
import { auditActionLabel, auditChangeText } from '../lib/audit-text';

/** The audit trail: every admin change and login, newest first, read while the sheet is open. */
export function AuditSheet({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const audit = useAudit(open);
  return (
    <Sheet open={open} onOpenChange={onOpenChange}>
      <SheetContent className="overflow-y-auto overscroll-contain" data-testid="audit-sheet">
        <div className="grid gap-1 p-5 pr-16">
          <SheetTitle>Audit trail</SheetTitle>
          <SheetDescription>Every admin change and login, newest first.</SheetDescription>
        </div>
        <div className="px-5 pb-[max(1.25rem,env(safe-area-inset-bottom))]">
          {audit.isPending && (
            <p role="status" className="flex items-center gap-2 text-muted-foreground">
              <LoaderCircle aria-hidden className="size-5 motion-safe:animate-spin" /> Loading...
            </p>
          )}
          {audit.isError && (
            <div role="alert" className="grid gap-2">
              <p className="font-semibold">Failed to load the audit trail</p>
              <p className="text-sm text-muted-foreground">{audit.error.message}</p>
              <Button variant="outline" className="justify-self-start" onClick={() => void audit.refetch()}>
                Try Again
              </Button>
            </div>
          )}
          {audit.data?.length === 0 && <p className="text-muted-foreground">Nothing recorded yet.</p>}
          {audit.data && audit.data.length > 0 && (
            <ol className="grid gap-2">
              {audit.data.map((entry) => (
                <li
                  key={entry.id}
                  className="grid gap-1 rounded-xl border border-border p-3 text-sm"
                  data-testid="audit-entry"
                  data-action={entry.action}
                >
                  <div className="flex flex-wrap items-baseline justify-between gap-x-3">
                    <span className="font-semibold">{auditActionLabel(entry.action)}</span>
                    <time className="text-xs text-muted-foreground" dateTime={entry.at} title={new Date(entry.at).toLocaleString()}>
                      {relativeTime(entry.at)}
                    </time>
                  </div>
                  {entry.target && <span className="break-words text-muted-foreground">{entry.target}</span>}
                  {entry.changes.length > 0 && (
                    <ul className="grid gap-0.5 font-mono text-xs break-all">
                      {entry.changes.map((change, i) => (
                        <li key={i}>{auditChangeText(change)}</li>
                      ))}
                    </ul>
                  )}
                  <span className="text-xs text-muted-foreground">Session: {entry.session ?? '—'}</span>
                </li>
              ))}
            </ol>
          )}
        </div>
      </SheetContent>
    </Sheet>
  );
}
