import { LoaderCircle, TriangleAlert } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { CopyButton } from '../../../components/ui/copy-button';
import { sentRefunds } from '../hooks/use-sent-refund';
import { REFUND_STEP_LABELS, type RefundStep } from '../lib/run-refund';
import type { SentRefund } from '../lib/sent-refunds';

/** While the refund runs: the step it is at (the wallet, the chain, the server), and the transfer once sent. */
export function RefundInFlight({ step, sent }: { step: RefundStep; sent: SentRefund | null }) {
  return (
    <div role="status" className="grid gap-3" data-testid="refund-progress" data-step={step}>
      <p className="flex items-center gap-2 font-semibold">
        <LoaderCircle aria-hidden className="size-5 motion-safe:animate-spin" />
        {REFUND_STEP_LABELS[step]}
      </p>
      {sent && <SentFacts sent={sent} />}
    </div>
  );
}

/** Sent from the store wallet but not recorded: "Check again", never a second transfer. */
export function RefundUnrecorded({
  sent,
  message,
  onCheckAgain,
  onForgotten,
}: {
  sent: SentRefund;
  message: string | null;
  onCheckAgain: () => void;
  onForgotten: () => void;
}) {
  return (
    <div className="grid gap-3" data-testid="refund-unrecorded">
      <p className="flex items-start gap-2 rounded-xl border border-yellow-300 bg-yellow-50 p-3 text-sm text-yellow-950">
        <TriangleAlert aria-hidden className="mt-0.5 size-4 shrink-0" />
        The refund was sent from the store wallet but is not recorded yet. Check again once it is on chain; do not send it twice.
      </p>
      <SentFacts sent={sent} />
      {message && (
        <p role="alert" className="rounded-xl bg-red-50 p-3 text-sm text-red-900" data-testid="refund-error">
          {message}
        </p>
      )}
      <div className="flex flex-wrap justify-end gap-2">
        <ForgetButton transferId={sent.transferId} onForgotten={onForgotten} />
        <Button onClick={onCheckAgain} data-testid="refund-check-again">
          Check again
        </Button>
      </div>
    </div>
  );
}

function SentFacts({ sent }: { sent: SentRefund }) {
  return (
    <dl className="grid gap-1 text-sm" data-testid="refund-sent" data-tx-hash={sent.txHash}>
      <div className="flex flex-wrap justify-between gap-x-3">
        <dt className="text-muted-foreground">Sent</dt>
        <dd className="font-semibold tabular-nums">{sent.amount} POG</dd>
      </div>
      <div className="flex flex-wrap justify-between gap-x-3">
        <dt className="text-muted-foreground">To</dt>
        <dd className="font-mono break-all">{sent.to}</dd>
      </div>
      <div className="flex flex-wrap items-center justify-between gap-x-3">
        <dt className="text-muted-foreground">Transaction</dt>
        <dd className="flex min-w-0 items-center gap-1">
          <span className="font-mono break-all">{sent.txHash}</span>
          <CopyButton value={sent.txHash} label="Copy transaction hash" copiedLabel="Transaction hash copied" />
        </dd>
      </div>
    </dl>
  );
}

/** Drops a kept refund hash, after a second tap: only for a transfer that failed or was recorded some other way. */
function ForgetButton({ transferId, onForgotten }: { transferId: string; onForgotten: () => void }) {
  const [asked, setAsked] = useState(false);
  if (!asked) {
    return (
      <Button variant="ghost" onClick={() => setAsked(true)} data-testid="refund-forget">
        Forget it
      </Button>
    );
  }
  return (
    <span className="flex basis-full flex-wrap items-center justify-end gap-2">
      <span className="text-sm text-muted-foreground">Only if it failed on chain or is recorded another way.</span>
      <Button
        variant="destructive"
        onClick={() => {
          sentRefunds().forget(transferId);
          onForgotten();
        }}
        data-testid="refund-forget-confirm"
      >
        Forget the transaction
      </Button>
    </span>
  );
}
