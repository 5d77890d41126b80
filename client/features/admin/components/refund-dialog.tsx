import { useQueryClient } from '@tanstack/react-query';
import { CircleCheck, LoaderCircle, TriangleAlert, Wallet } from 'lucide-react';
import { useMemo, useRef, useState, type ReactNode } from 'react';
import type { AttentionItem } from '../../../../common/payments-desk';
import { Button } from '../../../components/ui/button';
import { CopyButton } from '../../../components/ui/copy-button';
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '../../../components/ui/dialog';
import { Input } from '../../../components/ui/input';
import { toast } from '../../../components/ui/use-toast';
import { formatPogAmount } from '../../../lib/format-pog-price';
import { useConfig } from '../../../lib/public-config';
import { sameAddress } from '../../../lib/same-address';
import { shortenAddress } from '../../../../common/shorten-address';
import { cn } from '../../../lib/utils';
import { loadWeb3 } from '../../../web3/load-web3';
import { toWalletConfig, useWallet } from '../../wallet';
import { refreshAfterDeskWrite } from '../api/admin-cache';
import { handleAdminSessionLoss } from '../api/admin-session';
import { prepareRefund, recordRefund } from '../api/record-refund';
import { sentRefunds, useSentRefund } from '../hooks/use-sent-refund';
import { checkRefundAmount, refundPresets, type RefundPreset } from '../lib/refund-amount';
import { recordSentRefund, REFUND_STEP_LABELS, runRefund, type RefundDeps, type RefundOutcome, type RefundStep } from '../lib/run-refund';
import type { SentRefund } from '../lib/sent-refunds';
import { TxReference } from './desk-bits';

type Phase = { kind: 'form'; message: string | null } | { kind: 'running'; step: RefundStep } | RefundOutcome;

/** The words of the result, on screen and in the toast. */
export function refundVerifiedText(amount: string, to: string): string {
  return `Refund verified: ${amount} POG to ${to}`;
}

/**
 * 'Refund': the amount (full, the excess only, or a partial amount typed in), then the store
 * wallet connected with the shop's own wallet code sends `transfer(refundTo, amount)` of the POG
 * token on Base, and the server verifies it on chain before it records it. One transfer per
 * click; once sent, its hash stays on screen (and in the browser) until the server records it.
 */
export function RefundDialog({ item, onClose }: { item: AttentionItem; onClose: () => void }) {
  const [phase, setPhase] = useState<Phase>({ kind: 'form', message: null });
  const running = phase.kind === 'running';
  return (
    <Dialog open onOpenChange={(open) => !open && !running && onClose()}>
      <DialogContent
        layout="form"
        width="lg"
        onInteractOutside={(e) => running && e.preventDefault()}
        onEscapeKeyDown={(e) => running && e.preventDefault()}
        data-testid="refund-dialog"
      >
        <div className="grid gap-1 pr-10">
          <DialogTitle>Refund</DialogTitle>
          <DialogDescription>
            From the store wallet to the sender. Up to {formatPogAmount(item.refundable)} POG can be refunded.
          </DialogDescription>
        </div>
        <RefundFlow item={item} phase={phase} setPhase={setPhase} onClose={onClose} />
      </DialogContent>
    </Dialog>
  );
}

function RefundFlow({
  item,
  phase,
  setPhase,
  onClose,
}: {
  item: AttentionItem;
  phase: Phase;
  setPhase: (phase: Phase) => void;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const { data: config, isError: configFailed } = useConfig();
  const wallet = useWallet();
  const stored = useSentRefund(item.transferId);
  const busy = useRef(false);
  const walletConfig = useMemo(() => toWalletConfig(config, configFailed), [config, configFailed]);

  const deps = (): RefundDeps => ({
    connectToken: async () => {
      if (!walletConfig || !config?.tokenAddress || !wallet.provider) throw new Error('The shop’s token is not configured.');
      const web3 = await loadWeb3();
      await web3.ensureBaseNetwork(wallet.provider, { rpcUrl: walletConfig.chainRpcUrl, explorerUrl: walletConfig.explorerUrl });
      return web3.createTokenPayment(wallet.provider, config.tokenAddress);
    },
    keepSent: (sent) => sentRefunds().keep(sent),
    forgetSent: (transferId) => sentRefunds().forget(transferId),
    prepare: (transferId, amount) => prepareRefund(transferId, amount),
    record: (transferId, request) =>
      recordRefund(transferId, request, { onWaiting: () => setPhase({ kind: 'running', step: 'waiting-confirmations' }) }),
    step: (step) => setPhase({ kind: 'running', step }),
    now: () => new Date(),
  });

  /** Runs one step of the flow at a time, whatever is clicked how often. */
  const run = (work: () => Promise<RefundOutcome>) => {
    if (busy.current) return;
    busy.current = true;
    void work()
      .then((outcome) => {
        setPhase(outcome.kind === 'not-sent' ? { kind: 'form', message: outcome.message } : outcome);
        if (outcome.kind === 'recorded') {
          toast({ title: 'Refund verified', description: `${outcome.sent.amount} POG to ${shortenAddress(outcome.sent.to)}` });
        }
        if (outcome.kind !== 'not-sent') void refreshAfterDeskWrite(queryClient);
      })
      .catch((error: unknown) => {
        handleAdminSessionLoss(queryClient, error);
        setPhase({ kind: 'form', message: error instanceof Error ? error.message : 'Something went wrong. Try again.' });
      })
      .finally(() => {
        busy.current = false;
      });
  };

  const checkAgain = (sent: SentRefund) => run(() => recordSentRefund(sent, deps()));

  if (phase.kind === 'recorded') {
    return (
      <div role="status" className="grid gap-3 rounded-2xl bg-green-50 p-4 text-green-950" data-testid="refund-result">
        <p className="flex items-start gap-2 font-bold break-all">
          <CircleCheck aria-hidden className="mt-0.5 size-5 shrink-0" />
          {refundVerifiedText(phase.sent.amount, phase.sent.to)}
        </p>
        <TxReference
          txHash={phase.sent.txHash}
          explorerUrl={phase.item.refunds.find((r) => r.txHash === phase.sent.txHash)?.explorerUrl ?? null}
        />
        {phase.item.resolved && <p className="text-sm">The item is resolved: {phase.item.resolved.note}</p>}
        <Button className="justify-self-end" onClick={onClose} data-testid="refund-done">
          Done
        </Button>
      </div>
    );
  }

  if (phase.kind === 'running') {
    return (
      <div role="status" className="grid gap-3" data-testid="refund-progress" data-step={phase.step}>
        <p className="flex items-center gap-2 font-semibold">
          <LoaderCircle aria-hidden className="size-5 motion-safe:animate-spin" />
          {REFUND_STEP_LABELS[phase.step]}
        </p>
        {stored && <SentFacts sent={stored} />}
      </div>
    );
  }

  const unrecorded = phase.kind === 'sent-not-recorded' ? phase : stored ? { sent: stored, message: null } : null;
  if (unrecorded) {
    return (
      <div className="grid gap-3" data-testid="refund-unrecorded">
        <p className="flex items-start gap-2 rounded-xl border border-yellow-300 bg-yellow-50 p-3 text-sm text-yellow-950">
          <TriangleAlert aria-hidden className="mt-0.5 size-4 shrink-0" />
          The refund was sent from the store wallet but is not recorded yet. Check again once it is on chain; do not send it twice.
        </p>
        <SentFacts sent={unrecorded.sent} />
        {unrecorded.message && (
          <p role="alert" className="rounded-xl bg-red-50 p-3 text-sm text-red-900" data-testid="refund-error">
            {unrecorded.message}
          </p>
        )}
        <div className="flex flex-wrap justify-end gap-2">
          <ForgetButton transferId={item.transferId} onForgotten={() => setPhase({ kind: 'form', message: null })} />
          <Button onClick={() => checkAgain(unrecorded.sent)} data-testid="refund-check-again">
            Check again
          </Button>
        </div>
      </div>
    );
  }

  const storeWallet = config?.storeWallet ?? null;
  const connected = wallet.status === 'connected' && wallet.address !== null && wallet.provider !== null;
  const isStore = connected && storeWallet !== null && sameAddress(wallet.address, storeWallet);
  return (
    <RefundForm
      item={item}
      message={phase.message}
      walletBlock={
        <WalletBlock
          storeWallet={storeWallet}
          connected={connected}
          connecting={wallet.status === 'connecting'}
          address={wallet.address}
          isStore={isStore}
          onConnect={() => wallet.setChooserOpen(true)}
        />
      }
      canSend={isStore}
      onSend={(amount, wei) => {
        if (!isStore || !wallet.address) return;
        run(() => runRefund({ transferId: item.transferId, from: wallet.address!, to: item.refundTo, amount, wei }, deps()));
      }}
    />
  );
}

function RefundForm({
  item,
  message,
  walletBlock,
  canSend,
  onSend,
}: {
  item: AttentionItem;
  message: string | null;
  walletBlock: ReactNode;
  canSend: boolean;
  onSend: (amount: string, wei: bigint) => void;
}) {
  const presets = useMemo(() => refundPresets(item), [item]);
  const [preset, setPreset] = useState<RefundPreset>(presets[0]!.preset);
  const [typed, setTyped] = useState('');
  const chosen = presets.find((p) => p.preset === preset) ?? presets[0]!;
  const text = chosen.amount ?? typed;
  const check = checkRefundAmount(text, BigInt(item.refundableWei));
  const showCheck = chosen.amount !== null || typed.trim() !== '';

  return (
    <form
      className="grid gap-4"
      onSubmit={(e) => {
        e.preventDefault();
        if (check.ok && canSend) onSend(check.amount, check.wei);
      }}
    >
      <fieldset className="grid gap-2">
        <legend className="mb-1 text-sm font-semibold">Amount</legend>
        <div className="grid grid-cols-1 gap-2 sm:grid-cols-3">
          {presets.map((p) => (
            <label
              key={p.preset}
              className={cn(
                'flex min-h-11 cursor-pointer flex-col justify-center rounded-xl border px-3 py-2 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-ring',
                preset === p.preset ? 'border-brand bg-brand-soft' : 'border-border hover:bg-muted',
              )}
              data-testid={`refund-preset-${p.preset}`}
            >
              <input
                type="radio"
                name="refund-preset"
                className="sr-only"
                checked={preset === p.preset}
                onChange={() => setPreset(p.preset)}
              />
              <span className="font-semibold">{p.label}</span>
              {p.amount !== null && <span className="text-sm text-muted-foreground tabular-nums">{formatPogAmount(p.amount)} POG</span>}
            </label>
          ))}
        </div>
        {preset === 'partial' && (
          <label className="grid gap-1.5 text-sm font-semibold" htmlFor="refund-amount">
            POG to refund
            <Input
              id="refund-amount"
              inputMode="decimal"
              autoComplete="off"
              placeholder="e.g. 5.00"
              value={typed}
              onChange={(e) => setTyped(e.target.value)}
              aria-invalid={showCheck && !check.ok}
              aria-describedby="refund-amount-check"
              data-testid="refund-amount"
            />
          </label>
        )}
        {showCheck && (
          <p
            id="refund-amount-check"
            className={cn('text-sm', check.ok ? 'text-muted-foreground' : 'text-red-800')}
            aria-live="polite"
            data-testid="refund-amount-check"
          >
            {check.ok ? `${check.amount} POG exactly` : check.message}
          </p>
        )}
      </fieldset>

      <div className="grid gap-1 text-sm">
        <span className="font-semibold">To (the sender)</span>
        <span className="flex items-center gap-1">
          <span className="min-w-0 font-mono break-all" data-testid="refund-to">
            {item.refundTo}
          </span>
          <CopyButton value={item.refundTo} label="Copy address" copiedLabel="Address copied" />
        </span>
      </div>

      {walletBlock}

      {message && (
        <p role="alert" className="rounded-xl bg-red-50 p-3 text-sm text-red-900" data-testid="refund-error">
          {message}
        </p>
      )}

      <Button type="submit" size="lg" disabled={!check.ok || !canSend} data-testid="refund-send">
        {check.ok ? `Send ${check.amount} POG` : 'Send refund'}
      </Button>
    </form>
  );
}

function WalletBlock({
  storeWallet,
  connected,
  connecting,
  address,
  isStore,
  onConnect,
}: {
  storeWallet: string | null;
  connected: boolean;
  connecting: boolean;
  address: string | null;
  isStore: boolean;
  onConnect: () => void;
}) {
  if (storeWallet === null) {
    return (
      <p role="alert" className="rounded-xl bg-red-50 p-3 text-sm text-red-900">
        No store wallet is configured, so nothing can be refunded from here.
      </p>
    );
  }
  if (!connected) {
    return (
      <div className="grid gap-2 rounded-xl border border-border p-3 text-sm" data-testid="refund-wallet">
        <p>
          Connect the store wallet (<span className="font-mono">{shortenAddress(storeWallet)}</span>) to send the refund.
        </p>
        <Button variant="outline" onClick={onConnect} disabled={connecting} data-testid="refund-connect">
          {connecting ? <LoaderCircle aria-hidden className="motion-safe:animate-spin" /> : <Wallet aria-hidden />}
          {connecting ? 'Connecting...' : 'Connect the store wallet'}
        </Button>
      </div>
    );
  }
  if (!isStore) {
    return (
      <p role="alert" className="rounded-xl border border-yellow-300 bg-yellow-50 p-3 text-sm text-yellow-950" data-testid="refund-wallet">
        The connected wallet <span className="font-mono">{shortenAddress(address)}</span> is not the store wallet (
        <span className="font-mono">{shortenAddress(storeWallet)}</span>). Switch to it in your wallet.
      </p>
    );
  }
  return (
    <p className="flex items-center gap-2 rounded-xl bg-green-50 p-3 text-sm text-green-950" data-testid="refund-wallet" data-store="">
      <CircleCheck aria-hidden className="size-4 shrink-0" />
      Store wallet connected: <span className="font-mono">{shortenAddress(address)}</span>
    </p>
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
