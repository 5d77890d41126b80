import { useState, type FormEvent } from 'react';
import { RESOLVE_NOTE_MAX, type AttentionItem } from '../../../../common/payments-desk';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '../../../components/ui/dialog';
import { toast } from '../../../components/ui/use-toast';
import { formatPogAmount } from '../../../lib/format-pog-price';
import { adminErrorText } from '../api/admin-errors';
import { isAdminSessionLost } from '../api/admin-session';
import { useResolveAttention } from '../api/resolve-attention';
import { attentionKindLabel } from '../lib/attention-view';

/** 'Resolve' with a note saying how (required, at most 500 characters); the item moves to the history. */
export function ResolveDialog({ item, onClose }: { item: AttentionItem; onClose: () => void }) {
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent edge="top" layout="form" data-testid="resolve-dialog">
        <ResolveForm item={item} onDone={onClose} />
      </DialogContent>
    </Dialog>
  );
}

function ResolveForm({ item, onDone }: { item: AttentionItem; onDone: () => void }) {
  const [note, setNote] = useState('');
  const resolve = useResolveAttention();
  const trimmed = note.trim();
  const error =
    resolve.error && !isAdminSessionLost(resolve.error) ? adminErrorText(resolve.error, 'Could not resolve it. Try again.') : null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!trimmed || resolve.isPending) return;
    resolve.mutate(
      { transferId: item.transferId, note: trimmed },
      {
        onSuccess: () => {
          toast({ title: 'Marked resolved', description: 'It moved to the history.' });
          onDone();
        },
      },
    );
  };

  return (
    <form className="grid gap-4" onSubmit={submit}>
      <div className="grid gap-1 pr-10">
        <DialogTitle>Resolve</DialogTitle>
        <DialogDescription>
          {attentionKindLabel(item.kind)} transfer of {formatPogAmount(item.amount)} POG. Say how it was settled.
        </DialogDescription>
      </div>
      <label className="grid gap-1.5 text-sm font-semibold" htmlFor="resolve-note">
        Note
        <textarea
          id="resolve-note"
          value={note}
          maxLength={RESOLVE_NOTE_MAX}
          rows={3}
          required
          placeholder="e.g. Refunded off-shop"
          onChange={(e) => setNote(e.target.value)}
          className="min-h-24 w-full rounded-xl border border-input bg-background px-3 py-2 text-base font-normal focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-ring"
          data-testid="resolve-note"
        />
      </label>
      <p className="-mt-2 text-right text-xs text-muted-foreground tabular-nums" aria-live="polite">
        {note.length}/{RESOLVE_NOTE_MAX} characters
      </p>
      {error && (
        <p role="alert" className="rounded-xl bg-red-50 p-3 text-sm text-red-900" data-testid="resolve-error">
          {error}
        </p>
      )}
      <div className="flex flex-wrap justify-end gap-2">
        <Button variant="ghost" onClick={onDone} disabled={resolve.isPending}>
          Cancel
        </Button>
        <Button type="submit" disabled={!trimmed || resolve.isPending} data-testid="resolve-submit">
          {resolve.isPending ? 'Saving...' : 'Mark resolved'}
        </Button>
      </div>
    </form>
  );
}
