import { CircleCheck, LoaderCircle } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import type { AttachCandidate, AttentionItem } from '../../../../common/payments-desk';
import { Button } from '../../../components/ui/button';
import { Sheet, SheetContent, SheetDescription, SheetTitle } from '../../../components/ui/sheet';
import { cn } from '../../../lib/utils';
import { adminErrorText } from '../api/admin-errors';
import { isAdminSessionLost } from '../api/admin-session';
import { useAttachTransfer, useCandidates } from '../api/attach-transfer';
import { attachResultText, candidateEvidence, candidateItemsText, candidateReasonLabel } from '../lib/candidate-text';
import { Copyable, Pog, When } from './desk-bits';

/**
 * 'Attach': the checkouts the transfer may belong to, best first by evidence a stranger cannot
 * fake (a proven sender, the browser that reported the transaction first, the closest amount,
 * then the newest), one per source, each with its evidence spelled out. Choose one and confirm;
 * the server settles it like a payment and says what came of it (an order, or still underpaid).
 */
export function AttachSheet({ item, onClose }: { item: AttentionItem; onClose: () => void }) {
  const candidates = useCandidates(item.transferId, true);
  const attach = useAttachTransfer();
  const [chosen, setChosen] = useState<string | null>(null);
  const result = attach.data ? attachResultText(attach.data) : null;
  const error = attach.error && !isAdminSessionLost(attach.error) ? adminErrorText(attach.error, 'Could not attach it. Try again.') : null;

  return (
    <Sheet open onOpenChange={(open) => !open && onClose()}>
      <SheetContent className="overflow-y-auto overscroll-contain" data-testid="attach-sheet">
        <div className="grid gap-1 p-5 pr-16">
          <SheetTitle>Attach to a checkout</SheetTitle>
          <SheetDescription>
            <Pog amount={item.amount} className="font-semibold text-foreground" /> from{' '}
            <span className="font-mono" title={item.sender}>
              {item.sender.slice(0, 6)}…{item.sender.slice(-4)}
            </span>
            . Choose the checkout it belongs to.
          </SheetDescription>
        </div>
        <div className="grid gap-3 px-5 pb-[max(1.25rem,env(safe-area-inset-bottom))]">
          {result && attach.data ? (
            <div role="status" className="grid gap-3 rounded-2xl bg-green-50 p-4 text-green-950" data-testid="attach-result">
              <p className="flex items-center gap-2 text-lg font-bold">
                <CircleCheck aria-hidden className="size-5" />
                {result.title}
              </p>
              <p className="text-sm break-words">{result.detail}</p>
              <div className="flex flex-wrap gap-2">
                {attach.data.orderId && (
                  <Link
                    to={`/admin/orders?order=${encodeURIComponent(attach.data.orderId)}`}
                    className="inline-flex h-11 items-center rounded-full px-4 font-semibold text-brand hover:bg-muted"
                  >
                    Open the order
                  </Link>
                )}
                <Button variant="outline" onClick={onClose}>
                  Done
                </Button>
              </div>
            </div>
          ) : (
            <>
              {candidates.isPending && (
                <p role="status" className="flex items-center gap-2 text-muted-foreground">
                  <LoaderCircle aria-hidden className="size-5 motion-safe:animate-spin" /> Looking for checkouts...
                </p>
              )}
              {candidates.isError && (
                <div role="alert" className="grid gap-2">
                  <p className="font-semibold">Could not load the checkouts</p>
                  <p className="text-sm text-muted-foreground">{adminErrorText(candidates.error, candidates.error.message)}</p>
                  <Button variant="outline" className="justify-self-start" onClick={() => void candidates.refetch()}>
                    Try again
                  </Button>
                </div>
              )}
              {candidates.data?.length === 0 && (
                <p className="text-muted-foreground" data-testid="attach-none">
                  No checkout looks like it. Resolve it with a note, or refund it.
                </p>
              )}
              {candidates.data && candidates.data.length > 0 && (
                <fieldset className="grid gap-2" disabled={attach.isPending}>
                  <legend className="sr-only">Checkouts</legend>
                  {candidates.data.map((candidate) => (
                    <CandidateOption
                      key={candidate.checkoutId}
                      candidate={candidate}
                      chosen={chosen === candidate.checkoutId}
                      onChoose={() => setChosen(candidate.checkoutId)}
                    />
                  ))}
                </fieldset>
              )}
              {error && (
                <p role="alert" className="rounded-xl bg-red-50 p-3 text-sm text-red-900" data-testid="attach-error">
                  {error}
                </p>
              )}
              {candidates.data && candidates.data.length > 0 && (
                <div className="sticky bottom-0 flex flex-wrap justify-end gap-2 bg-background py-2">
                  <Button variant="ghost" onClick={onClose} disabled={attach.isPending}>
                    Cancel
                  </Button>
                  <Button
                    disabled={chosen === null || attach.isPending}
                    onClick={() => chosen && attach.mutate({ transferId: item.transferId, checkoutId: chosen })}
                    data-testid="attach-confirm"
                  >
                    {attach.isPending ? 'Attaching...' : 'Attach to this checkout'}
                  </Button>
                </div>
              )}
            </>
          )}
        </div>
      </SheetContent>
    </Sheet>
  );
}

function CandidateOption({ candidate, chosen, onChoose }: { candidate: AttachCandidate; chosen: boolean; onChoose: () => void }) {
  const id = `candidate-${candidate.checkoutId}`;
  // The label holds the radio and the checkout's facts (its accessible name); the opening time and
  // the proven wallet's copy button sit below it, since a button inside a label is invalid HTML
  // and would be read out as part of the radio's name.
  return (
    <div
      className={cn(
        'grid rounded-2xl border has-[input:focus-visible]:outline-2 has-[input:focus-visible]:outline-ring',
        chosen ? 'border-brand bg-brand-soft' : 'border-border hover:bg-muted',
      )}
      data-testid="attach-candidate"
      data-checkout-id={candidate.checkoutId}
    >
      <label htmlFor={id} className="flex cursor-pointer items-start gap-3 px-3 pt-3">
        <input id={id} type="radio" name="candidate" checked={chosen} onChange={onChoose} className="mt-1 size-5 accent-brand" />
        <span className="grid min-w-0 flex-1 gap-1">
          <span className="flex flex-wrap gap-1.5">
            {candidate.reasons.map((reason) => (
              <span key={reason} className="rounded-full bg-background px-2 py-0.5 text-xs font-bold ring-1 ring-border">
                {candidateReasonLabel(reason)}
              </span>
            ))}
            <span className="rounded-full px-2 py-0.5 text-xs text-muted-foreground ring-1 ring-border">{candidate.status}</span>
          </span>
          <span className="flex flex-wrap justify-between gap-x-3 text-sm">
            <span>
              Total <Pog amount={candidate.total} className="font-semibold" />
            </span>
            <span>
              Due <Pog amount={candidate.due} className="font-semibold" />
            </span>
          </span>
          {candidate.items.length > 0 && <span className="text-sm break-words">{candidateItemsText(candidate.items)}</span>}
          <span className="grid gap-0.5 text-xs text-muted-foreground" data-testid="candidate-evidence">
            {candidateEvidence(candidate).map((line) => (
              <span key={line}>{line}</span>
            ))}
          </span>
        </span>
      </label>
      <p className="flex flex-wrap items-center justify-between gap-x-3 pt-1 pr-3 pb-3 pl-11 text-xs text-muted-foreground">
        <span>
          Opened <When at={candidate.createdAt} />
        </span>
        {candidate.provenWallet && (
          <span className="inline-flex items-center gap-1">
            Proven wallet <Copyable value={candidate.provenWallet} what="wallet address" />
          </span>
        )}
      </p>
    </div>
  );
}
