import { CircleCheck, LoaderCircle, RefreshCw, TriangleAlert } from 'lucide-react';
import { useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { AttentionItem } from '../../../../common/payments-desk';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Switch } from '../../../components/ui/switch';
import { adminErrorText } from '../api/admin-errors';
import { useAttention } from '../api/get-attention';
import { ATTENTION_FILTERS, attentionViewParams, readAttentionView, type AttentionView } from '../lib/attention-view';
import { AttachSheet } from './attach-sheet';
import { AttentionCard, type DeskAction } from './attention-card';
import { LoadMore } from './desk-bits';
import { RefundDialog } from './refund-dialog';
import { ResolveDialog } from './resolve-dialog';

/**
 * 'Needs attention': the transfers that need a person, newest first, by kind (the chips, each with
 * its count in the tab) or all, and the history of resolved ones; 50 at a time ('Load more'). The
 * view lives in the address (?kind=&history=1).
 */
export function AttentionList() {
  const [params, setParams] = useSearchParams();
  const view = readAttentionView(params);
  const attention = useAttention(view);
  const [action, setAction] = useState<{ action: DeskAction; item: AttentionItem } | null>(null);
  const show = (next: AttentionView) => setParams(attentionViewParams(next, params), { replace: true });
  const pages = attention.data?.pages;
  // An item that moved to a later page while the earlier ones were read again shows once.
  const seen = new Set<string>();
  const items = pages?.flatMap((page) => page.items).filter((item) => !seen.has(item.transferId) && Boolean(seen.add(item.transferId)));
  const counts = pages?.[0]?.counts;

  return (
    <section className="grid gap-4" aria-labelledby="attention-heading" data-testid="attention">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="attention-heading" className="text-2xl font-black tracking-tight">
          {view.history ? 'Resolved' : 'Needs attention'}
        </h2>
        <label className="flex items-center gap-1 text-sm font-semibold" htmlFor="attention-history">
          History
          <Switch
            id="attention-history"
            checked={view.history}
            onCheckedChange={(history) => show({ ...view, history })}
            data-testid="attention-history"
          />
        </label>
      </div>
      <div role="group" aria-label="Kind" className="flex flex-wrap gap-2">
        {ATTENTION_FILTERS.map(({ kind, label }) => (
          <Button
            key={label}
            size="sm"
            variant={view.kind === kind ? 'default' : 'outline'}
            aria-pressed={view.kind === kind}
            onClick={() => show({ ...view, kind })}
            data-testid={`attention-filter-${kind ?? 'all'}`}
          >
            {label}
            {counts && (
              <span className="tabular-nums opacity-80" data-testid="attention-filter-count">
                {kind ? counts[kind] : Object.values(counts).reduce((sum, n) => sum + n, 0)}
              </span>
            )}
          </Button>
        ))}
      </div>

      {items === undefined && attention.isError && (
        <Card role="alert" className="grid justify-items-start gap-2 p-5" data-testid="attention-error">
          <p className="flex items-center gap-2 font-semibold">
            <TriangleAlert aria-hidden className="size-5 text-destructive" /> Could not load the queue
          </p>
          <p className="text-sm break-words text-muted-foreground">{adminErrorText(attention.error, attention.error.message)}</p>
          <Button variant="outline" onClick={() => void attention.refetch()} disabled={attention.isFetching}>
            <RefreshCw aria-hidden className={attention.isFetching ? 'motion-safe:animate-spin' : undefined} />
            Try again
          </Button>
        </Card>
      )}
      {items === undefined && !attention.isError && (
        <p role="status" className="flex items-center justify-center gap-2 py-12 text-muted-foreground" data-testid="attention-loading">
          <LoaderCircle aria-hidden className="size-6 motion-safe:animate-spin" /> Loading...
        </p>
      )}
      {items?.length === 0 && (
        <Card className="grid justify-items-center gap-2 p-8 text-center" data-testid="attention-empty">
          <span className="flex size-14 items-center justify-center rounded-full bg-green-100 text-green-800">
            <CircleCheck aria-hidden className="size-7" />
          </span>
          <p className="text-lg font-bold">{view.history ? 'Nothing resolved yet' : 'Nothing needs attention'}</p>
        </Card>
      )}
      {items && items.length > 0 && (
        <ol className="grid gap-3" data-testid="attention-items">
          {items.map((item) => (
            <li key={item.transferId}>
              <AttentionCard item={item} onAction={(next, target) => setAction({ action: next, item: target })} />
            </li>
          ))}
        </ol>
      )}
      <LoadMore pages={attention} failText="Could not load more of the queue. Try again." testId="attention-load-more" />

      {action?.action === 'resolve' && <ResolveDialog item={action.item} onClose={() => setAction(null)} />}
      {action?.action === 'attach' && <AttachSheet item={action.item} onClose={() => setAction(null)} />}
      {action?.action === 'refund' && <RefundDialog item={action.item} onClose={() => setAction(null)} />}
    </section>
  );
}
