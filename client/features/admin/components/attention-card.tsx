import { CircleCheck, Link2, RotateCcw, Send, TriangleAlert } from 'lucide-react';
import { Link } from 'react-router-dom';
import type { AttentionItem } from '../../../../common/payments-desk';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { cn } from '../../../lib/utils';
import { useSentRefund } from '../hooks/use-sent-refund';
import { attentionKindClass, attentionKindLabel, canAttach, canRefund, refundByHand } from '../lib/attention-view';
import { Copyable, Fact, Facts, Pog, TxReference, When } from './desk-bits';
import { PAYER_UNKNOWN_TEXT, paidWithText, shownPayer } from '../lib/paid-with-text';

export type DeskAction = 'resolve' | 'attach' | 'refund';

/** One transfer that needs a person: what arrived, from whom, when, what the server made of it, and the actions. */
export function AttentionCard({ item, onAction }: { item: AttentionItem; onAction: (action: DeskAction, item: AttentionItem) => void }) {
  const sent = useSentRefund(item.transferId);
  const open = item.resolved === null;
  const paid = paidWithText(item.paidWith);
  const payer = shownPayer(item.paidWith, item.sender);
  return (
    <Card
      className="grid gap-3 p-4 sm:p-5"
      data-testid="attention-item"
      data-transfer-id={item.transferId}
      data-kind={item.kind}
      data-tx-hash={item.txHash}
    >
      <header className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1">
        <div className="flex flex-wrap items-center gap-2">
          <span
            className={cn('inline-flex items-center rounded-full border px-2.5 py-0.5 text-xs font-bold', attentionKindClass(item.kind))}
            data-testid="attention-kind"
          >
            {attentionKindLabel(item.kind)}
          </span>
          <Pog amount={item.amount} className="text-xl font-extrabold" testId="attention-amount" />
        </div>
        <When at={item.at} className="text-sm text-muted-foreground" />
      </header>

      <Facts>
        {item.due !== null && (
          <Fact label="Still due" testId="attention-due">
            <Pog amount={item.due} className="text-red-800" />
          </Fact>
        )}
        {item.excess !== null && (
          <Fact label="Excess" testId="attention-excess">
            <Pog amount={item.excess} />
          </Fact>
        )}
        <Fact label="Sender">
          <Copyable value={item.sender} what="sender address" testId="attention-sender" />
        </Fact>
        {paid && (
          <Fact label="Paid" testId="attention-paid-with">
            <span>{paid}</span>
          </Fact>
        )}
        {payer && (
          <Fact label="Payer">
            <Copyable value={payer} what="payer address" testId="attention-payer" />
          </Fact>
        )}
        <Fact label="Transaction">
          <TxReference txHash={item.txHash} explorerUrl={item.explorerUrl} />
        </Fact>
        {item.confirmations !== undefined && (
          <Fact label="Confirmations" testId="attention-confirmations">
            <span className="tabular-nums">{item.confirmations}</span>
          </Fact>
        )}
        {item.orderId !== null && (
          <Fact label="Order">
            <Link
              to={`/admin/orders?order=${encodeURIComponent(item.orderId)}`}
              className="inline-flex min-h-11 items-center font-mono text-sm font-semibold text-brand underline-offset-4 hover:underline"
              data-testid="attention-order-link"
            >
              <span title={item.orderId}>{item.orderId.slice(0, 8)}</span>
            </Link>
          </Fact>
        )}
        {item.refunds.length > 0 && (
          <Fact label="Still refundable" testId="attention-refundable">
            <Pog amount={item.refundable} />
          </Fact>
        )}
      </Facts>

      {refundByHand(item) && (
        <p className="text-sm text-yellow-950" data-testid="attention-payer-unknown">
          {PAYER_UNKNOWN_TEXT}
        </p>
      )}

      {item.note && (
        <p className="text-sm text-muted-foreground" data-testid="attention-note">
          {item.note}
        </p>
      )}

      {item.refunds.length > 0 && (
        <ul className="grid gap-1 text-sm" data-testid="attention-refunds">
          {item.refunds.map((refund) => (
            <li key={refund.id} className="flex flex-wrap items-center gap-x-2" data-testid="attention-refund">
              <RotateCcw aria-hidden className="size-4 text-muted-foreground" />
              <span>
                Refunded <Pog amount={refund.amount} className="font-semibold" />
              </span>
              <When at={refund.at} className="text-muted-foreground" />
              <TxReference txHash={refund.txHash} explorerUrl={refund.explorerUrl} />
            </li>
          ))}
        </ul>
      )}

      {item.resolved && (
        <p className="flex items-start gap-2 rounded-xl bg-green-50 p-3 text-sm text-green-950" data-testid="attention-resolved">
          <CircleCheck aria-hidden className="mt-0.5 size-4 shrink-0" />
          <span>
            Resolved <When at={item.resolved.at} />: {item.resolved.note}
          </span>
        </p>
      )}

      {sent && (
        <div
          role="status"
          className="flex flex-wrap items-center justify-between gap-2 rounded-xl border border-yellow-300 bg-yellow-50 p-3 text-sm text-yellow-950"
          data-testid="attention-sent-refund"
        >
          <span className="flex items-start gap-2">
            <TriangleAlert aria-hidden className="mt-0.5 size-4 shrink-0" />
            <span>
              A refund of {sent.amount} POG was sent (<span className="font-mono">{sent.txHash.slice(0, 10)}…</span>) but is not recorded
              yet.
            </span>
          </span>
          <Button size="sm" variant="outline" onClick={() => onAction('refund', item)} data-testid="attention-check-again">
            Check again
          </Button>
        </div>
      )}

      {open && (
        <div className="flex flex-wrap gap-2 border-t border-border pt-3">
          {canRefund(item) && !sent && (
            <Button size="sm" onClick={() => onAction('refund', item)} data-testid="attention-refund-button">
              <Send aria-hidden />
              Refund
            </Button>
          )}
          {canAttach(item) && (
            <Button size="sm" variant="outline" onClick={() => onAction('attach', item)} data-testid="attention-attach-button">
              <Link2 aria-hidden />
              Attach
            </Button>
          )}
          <Button size="sm" variant="outline" onClick={() => onAction('resolve', item)} data-testid="attention-resolve-button">
            <CircleCheck aria-hidden />
            Resolve
          </Button>
        </div>
      )}
    </Card>
  );
}
