import { CircleCheck, LoaderCircle, Search, X } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import type { AttachCandidate, AttentionItem } from '../../../../common/payments-desk';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { Sheet, SheetContent, SheetDescription, SheetTitle } from '../../../components/ui/sheet';
import { cn } from '../../../lib/utils';
import { adminErrorText } from '../api/admin-errors';
import { isAdminSessionLost } from '../api/admin-session';
import { useAttachTransfer, useCandidates } from '../api/attach-transfer';
import { attachResultText, candidateEvidence, candidateItemsText, candidateReasonLabel } from '../lib/candidate-text';
import { Copyable, LoadMore, Pog, When } from './desk-bits';

/**
 * 'Attach': the checkouts the transfer may belong to, best first by evidence a stranger cannot
 * fake (a proven sender, the browser that reported the transaction first, opened before the
 * transfer, each source's best before its others, the closest amount, the closest in time), each
 * with its evidence spelled out; 20 at a time ('Load more' reaches every one), and searched by a
 * wallet, an amount or a checkout id. Choose one and confirm; the server settles it like a payment
 * and says what came of it (an order, or still underpaid).
 */
export function AttachSheet({ item, onClose }: { item: AttentionItem; onClose: () => void }) {
  const [q, setQ] = useState('');
  const candidates = useCandidates(item.transferId, q, true);
  const list = candidates.data?.pages.flatMap((p) => p.candidates);
  const matching = candidates.data?.pages[0]?.matching ?? 0;
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
          {!attach.data && <CandidateSearch q={q} onSearch={setQ} />}
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
              {candidates.isError && !candidates.isFetchNextPageError && (
                <div role="alert" className="grid gap-2">
                  <p className="font-semibold">Could not load the checkouts</p>
                  <p className="text-sm text-muted-foreground">{adminErrorText(candidates.error, candidates.error.message)}</p>
                  <Button variant="outline" className="justify-self-start" onClick={() => void candidates.refetch()}>
                    Try again
                  </Button>
                </div>
              )}
              {list?.length === 0 && (
                <p className="text-muted-foreground" data-testid="attach-none">
                  {q.trim()
                    ? `No checkout of the week before this transfer matches “${q.trim()}”.`
                    : 'No checkout looks like it. Search by a wallet, an amount or a checkout id, resolve it with a note, or refund it.'}
                </p>
              )}
              {list && list.length > 0 && (
                <p className="text-sm text-muted-foreground" data-testid="attach-count" aria-live="polite">
                  {list.length < matching
                    ? `The best ${list.length} of ${matching} ${q.trim() ? 'matching ' : ''}checkouts`
                    : `${matching} ${q.trim() ? 'matching ' : ''}${matching === 1 ? 'checkout' : 'checkouts'}`}
                </p>
              )}
              {list && list.length > 0 && (
                <fieldset className="grid gap-2" disabled={attach.isPending}>
                  <legend className="sr-only">Checkouts</legend>
                  {list.map((candidate) => (
                    <CandidateOption
                      key={candidate.checkoutId}
                      candidate={candidate}
                      chosen={chosen === candidate.checkoutId}
                      onChoose={() => setChosen(candidate.checkoutId)}
                    />
                  ))}
                </fieldset>
              )}
              <LoadMore pages={candidates} failText="Could not load more checkouts. Try again." testId="attach-load-more" />
              {error && (
                <p role="alert" className="rounded-xl bg-red-50 p-3 text-sm text-red-900" data-testid="attach-error">
                  {error}
                </p>
              )}
              {list && list.length > 0 && (
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

/** The search: a wallet address, an amount of POG or the start of a checkout id, asked on submit. */
function CandidateSearch({ q, onSearch }: { q: string; onSearch: (q: string) => void }) {
  const id = useId();
  const [draft, setDraft] = useState(q);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onSearch(draft.trim());
  };
  return (
    <form role="search" className="mt-2 grid gap-1.5" onSubmit={submit} data-testid="attach-search">
      <label htmlFor={id} className="text-sm font-semibold">
        Search the checkouts
      </label>
      <div className="flex gap-2">
        <Input
          id={id}
          type="search"
          autoComplete="off"
          spellCheck={false}
          placeholder="Wallet 0x…, amount 76.5 or checkout id"
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
          className="min-w-0 flex-1"
        />
        <Button type="submit" variant="outline" aria-label="Search">
          <Search aria-hidden className="size-5" />
        </Button>
        {q && (
          <Button
            type="button"
            variant="ghost"
            aria-label="Clear the search"
            onClick={() => {
              setDraft('');
              onSearch('');
            }}
          >
            <X aria-hidden className="size-5" />
          </Button>
        )}
      </div>
    </form>
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
