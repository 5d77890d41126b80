import { LoaderCircle, RefreshCw, RotateCcw, Undo2 } from 'lucide-react';
import { useState } from 'react';
import { toast } from '../../../components/ui/use-toast';
import type { AdminOrderDetail, AttentionItem } from '../../../../common/payments-desk';
import { Button } from '../../../components/ui/button';
import { OrderStatusBadge } from '../../../components/ui/order-status-badge';
import { Sheet, SheetContent, SheetDescription, SheetTitle } from '../../../components/ui/sheet';
import { explorerUrl, publicExplorerUrl } from '../../../lib/explorer-url';
import { useConfig } from '../../../lib/public-config';
import { adminErrorText } from '../api/admin-errors';
import { isAdminSessionLost } from '../api/admin-session';
import { useAdminOrder, useRetryHandoff } from '../api/admin-orders';
import { getTransferItem } from '../api/get-attention';
import { canRetryHandoff, draftStateText, isPositiveAmount, orderFlagsText } from '../lib/admin-order-text';
import { Copyable, Fact, Facts, Pog, TxReference, When } from './desk-bits';
import { RefundDialog } from './refund-dialog';
import { paidWithText, shownPayer } from '../lib/paid-with-text';

/** How a transfer that does not count towards the order is labelled. */
const TRANSFER_USE_TEXT: Record<Exclude<AdminOrderDetail['transfers'][number]['use'], 'paid'>, string> = {
  'extra-payment': 'Paid after the order',
  refunded: 'Refunded, not counted',
  reorged: 'Removed by a reorg',
};

/** One order for the admin: what was bought, the transfers that paid it, refunds, the hand-off and the timeline. */
export function OrderDetailSheet({ orderId, onClose }: { orderId: string | null; onClose: () => void }) {
  const order = useAdminOrder(orderId);
  return (
    <Sheet open={orderId !== null} onOpenChange={(open) => !open && onClose()}>
      <SheetContent className="overflow-y-auto overscroll-contain" data-testid="order-detail" data-order-id={orderId ?? undefined}>
        <div className="grid gap-1 p-5 pr-16">
          <SheetTitle>Order</SheetTitle>
          <SheetDescription className="font-mono break-all">{orderId}</SheetDescription>
        </div>
        <div className="grid gap-5 px-5 pb-[max(1.25rem,env(safe-area-inset-bottom))]">
          {order.isPending && (
            <p role="status" className="flex items-center gap-2 text-muted-foreground">
              <LoaderCircle aria-hidden className="size-5 motion-safe:animate-spin" /> Loading...
            </p>
          )}
          {order.isError && (
            <div role="alert" className="grid justify-items-start gap-2">
              <p className="font-semibold">Could not load the order</p>
              <p className="text-sm break-words text-muted-foreground">{adminErrorText(order.error, order.error.message)}</p>
              <Button variant="outline" onClick={() => void order.refetch()}>
                Try again
              </Button>
            </div>
          )}
          {order.data && <OrderDetail order={order.data} />}
        </div>
      </SheetContent>
    </Sheet>
  );
}

function OrderDetail({ order }: { order: AdminOrderDetail }) {
  const retry = useRetryHandoff();
  // Refunding one of the order's transfers: its desk item is read first (what is still refundable, to whom).
  const [refunding, setRefunding] = useState<AttentionItem | null>(null);
  const [opening, setOpening] = useState<string | null>(null);
  const [openError, setOpenError] = useState<string | null>(null);
  const openRefund = async (transferId: string) => {
    setOpening(transferId);
    setOpenError(null);
    try {
      setRefunding(await getTransferItem(transferId));
    } catch (error) {
      if (!isAdminSessionLost(error)) setOpenError(adminErrorText(error, 'Could not open the refund. Try again.'));
    } finally {
      setOpening(null);
    }
  };
  const { data: config } = useConfig();
  const explorer = { explorerUrl: config ? publicExplorerUrl(config) : null };
  const flags = orderFlagsText(order.flags);
  const retryError = retry.error && !isAdminSessionLost(retry.error) ? adminErrorText(retry.error, 'The retry failed. Try again.') : null;
  return (
    <>
      <div className="flex flex-wrap items-center gap-2">
        <OrderStatusBadge status={order.status} />
        {flags.map((flag) => (
          <span key={flag} className="rounded-full border border-yellow-300 bg-yellow-100 px-2.5 py-0.5 text-xs font-bold text-yellow-900">
            {flag}
          </span>
        ))}
      </div>
      <Facts>
        <Fact label="Total">
          <Pog amount={order.total} />
        </Fact>
        <Fact label="Paid">
          <Pog amount={order.amountPaid} />
        </Fact>
        {order.usdAtPayment && order.reference && (
          <Fact label="In dollars at payment">
            <span data-testid="admin-order-usd" title={`1 POGS = $${order.reference.usdPerPogs} (${order.reference.source})`}>
              ≈ ${order.usdAtPayment} at block {order.reference.block}
            </span>
          </Fact>
        )}
        {isPositiveAmount(order.refunded) && (
          <Fact label="Refunded">
            <Pog amount={order.refunded} />
          </Fact>
        )}
        <Fact label="Payer">
          <Copyable value={order.payer} what="payer address" />
        </Fact>
        <Fact label="Paid at">
          <When at={order.paidAt} />
        </Fact>
        <Fact label="Transaction">
          <TxReference txHash={order.txHash} explorerUrl={order.explorerUrl} />
        </Fact>
        <Fact label="Shopify">{draftStateText(order)}</Fact>
        {order.shopifyDraftOrderId && <Fact label="Draft order">{order.shopifyDraftOrderId.split('/').pop()}</Fact>}
      </Facts>

      {order.handoff && (order.handoff.lastError || !order.handoff.done) && (
        <section className="grid gap-2 rounded-2xl border border-border p-3" aria-label="Shopify hand-off" data-testid="order-handoff">
          <h3 className="font-bold">Shopify hand-off</h3>
          <p className="text-sm">
            {order.handoff.done ? 'Done' : 'Not done yet'} · {order.handoff.attempts}{' '}
            {order.handoff.attempts === 1 ? 'attempt' : 'attempts'}
            {order.handoff.nextAttemptAt && !order.handoff.done && (
              <>
                {' '}
                · next try <time dateTime={order.handoff.nextAttemptAt}>{new Date(order.handoff.nextAttemptAt).toLocaleTimeString()}</time>
              </>
            )}
          </p>
          {order.handoff.lastError && (
            <p className="rounded-lg bg-red-50 p-2 text-sm break-words text-red-900">{order.handoff.lastError}</p>
          )}
          {canRetryHandoff(order) && (
            <Button
              className="justify-self-start"
              onClick={() =>
                retry.mutate(order.id, {
                  onSuccess: (next) =>
                    toast({
                      title: next.handoff?.lastError && !next.handoff.done ? 'Still failing' : 'Hand-off retried',
                      description: next.handoff?.lastError && !next.handoff.done ? next.handoff.lastError : draftStateText(next),
                    }),
                })
              }
              disabled={retry.isPending}
              data-testid="order-retry-handoff"
            >
              <RefreshCw aria-hidden className={retry.isPending ? 'motion-safe:animate-spin' : undefined} />
              {retry.isPending ? 'Retrying...' : 'Retry now'}
            </Button>
          )}
          {retryError && (
            <p role="alert" className="text-sm text-red-800">
              {retryError}
            </p>
          )}
        </section>
      )}

      <section className="grid gap-1" aria-labelledby="order-items-heading">
        <h3 id="order-items-heading" className="font-bold">
          Items
        </h3>
        <ul className="divide-y divide-border">
          {order.items.map((item, i) => (
            <li key={i} className="flex items-baseline justify-between gap-3 py-2">
              <span className="min-w-0 break-words">{item.title}</span>
              <span className="shrink-0 text-sm text-muted-foreground tabular-nums">
                <Pog amount={item.price} /> × {item.quantity}
              </span>
            </li>
          ))}
        </ul>
      </section>

      <section className="grid gap-1" aria-labelledby="order-transfers-heading">
        <h3 id="order-transfers-heading" className="font-bold">
          Transfers
        </h3>
        <ul className="grid gap-2">
          {order.transfers.map((t) => (
            <li key={t.transferId} className="grid gap-0.5 rounded-xl border border-border p-2 text-sm">
              <span className="flex flex-wrap items-center justify-between gap-2">
                <span className="flex items-center gap-2">
                  <Pog
                    amount={t.amount}
                    className={t.use === 'paid' ? 'font-semibold' : 'font-semibold text-muted-foreground line-through'}
                  />
                  {t.use !== 'paid' && (
                    <span
                      className="rounded-full border border-border bg-muted px-2 py-0.5 text-xs font-bold"
                      data-testid="order-transfer-use"
                    >
                      {TRANSFER_USE_TEXT[t.use]}
                    </span>
                  )}
                </span>
                <When at={t.at} className="text-muted-foreground" />
              </span>
              <span className="flex flex-wrap items-center justify-between gap-2">
                <Copyable value={t.sender} what="sender address" />
                <TxReference txHash={t.txHash} explorerUrl={explorerUrl(explorer, 'tx', t.txHash)} />
              </span>
              {paidWithText(t.paidWith) && (
                <span className="flex flex-wrap items-center gap-2" data-testid="order-transfer-paid-with">
                  <span>{paidWithText(t.paidWith)}</span>
                  {shownPayer(t.paidWith, t.sender) && <Copyable value={shownPayer(t.paidWith, t.sender)!} what="payer address" />}
                </span>
              )}
              {(t.use === 'paid' || t.use === 'extra-payment') && (
                <Button
                  variant="outline"
                  className="justify-self-start"
                  disabled={opening !== null}
                  onClick={() => void openRefund(t.transferId)}
                  data-testid="order-transfer-refund"
                >
                  {opening === t.transferId ? <LoaderCircle aria-hidden className="motion-safe:animate-spin" /> : <Undo2 aria-hidden />}
                  Refund
                </Button>
              )}
            </li>
          ))}
        </ul>
        {openError && (
          <p role="alert" className="text-sm text-red-800">
            {openError}
          </p>
        )}
      </section>
      {refunding && <RefundDialog item={refunding} onClose={() => setRefunding(null)} />}

      {order.refunds.length > 0 && (
        <section className="grid gap-1" aria-labelledby="order-refunds-heading" data-testid="order-refunds">
          <h3 id="order-refunds-heading" className="font-bold">
            Refunds
          </h3>
          <ul className="grid gap-1 text-sm">
            {order.refunds.map((refund) => (
              <li key={refund.id} className="flex flex-wrap items-center gap-x-2">
                <RotateCcw aria-hidden className="size-4 text-muted-foreground" />
                Refunded <Pog amount={refund.amount} className="font-semibold" />
                <When at={refund.at} className="text-muted-foreground" />
                <TxReference txHash={refund.txHash} explorerUrl={refund.explorerUrl} />
              </li>
            ))}
          </ul>
        </section>
      )}

      <section className="grid gap-1" aria-labelledby="order-timeline-heading">
        <h3 id="order-timeline-heading" className="font-bold">
          Timeline
        </h3>
        <ol className="grid gap-2 border-l-2 border-border pl-4" data-testid="order-timeline">
          {order.timeline.map((event, i) => (
            <li key={i} className="grid text-sm" data-kind={event.kind}>
              <span className="[overflow-wrap:anywhere]">{event.text}</span>
              <When at={event.at} className="text-xs text-muted-foreground" />
            </li>
          ))}
        </ol>
      </section>
    </>
  );
}
