import { CircleCheck, LoaderCircle, Wallet } from 'lucide-react';
import { useMemo, useState } from 'react';
import type { AttentionItem } from '../../../../common/payments-desk';
import { shortenAddress } from '../../../../common/shorten-address';
import { Button } from '../../../components/ui/button';
import { CopyButton } from '../../../components/ui/copy-button';
import { Input } from '../../../components/ui/input';
import { formatPogAmount } from '../../../lib/format-pog-price';
import { useConfig } from '../../../lib/public-config';
import { sameAddress } from '../../../lib/same-address';
import { cn } from '../../../lib/utils';
import { useWallet } from '../../wallet';
import { checkRefundAmount, refundPresets, type RefundPreset } from '../lib/refund-amount';
import type { RefundPlan } from '../lib/run-refund';
import { PAYER_UNKNOWN_TEXT } from '../lib/paid-with-text';

/**
 * The refund's first phase: the amount (full, the excess only, or a partial amount typed in), the
 * wallet that paid (where it goes), and the store wallet, which must be the connected one before anything is sent.
 */
export function RefundForm({ item, message, onSend }: { item: AttentionItem; message: string | null; onSend: (plan: RefundPlan) => void }) {
  const { data: config } = useConfig();
  const wallet = useWallet();
  const { refundTo } = item;
  const presets = useMemo(() => refundPresets(item), [item]);
  const [preset, setPreset] = useState<RefundPreset>(presets[0]!.preset);
  const [typed, setTyped] = useState('');
  const chosen = presets.find((p) => p.preset === preset) ?? presets[0]!;
  const text = chosen.amount ?? typed;
  const check = checkRefundAmount(text, BigInt(item.refundableWei));
  const showCheck = chosen.amount !== null || typed.trim() !== '';

  const storeWallet = config?.storeWallet ?? null;
  const connected = wallet.status === 'connected' && wallet.address !== null && wallet.provider !== null;
  const isStore = connected && storeWallet !== null && sameAddress(wallet.address, storeWallet);

  return (
    <form
      className="grid gap-4"
      onSubmit={(e) => {
        e.preventDefault();
        if (!check.ok || !isStore || !wallet.address || refundTo === null) return;
        onSend({ transferId: item.transferId, from: wallet.address, to: refundTo, amount: check.amount, wei: check.wei });
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
        <span className="font-semibold">To (the wallet that paid)</span>
        {refundTo === null ? (
          <span className="text-yellow-950" data-testid="refund-payer-unknown">
            {PAYER_UNKNOWN_TEXT}
          </span>
        ) : (
          <span className="flex items-center gap-1">
            <span className="min-w-0 font-mono break-all" data-testid="refund-to">
              {refundTo}
            </span>
            <CopyButton value={refundTo} label="Copy address" copiedLabel="Address copied" />
          </span>
        )}
      </div>

      <WalletBlock
        storeWallet={storeWallet}
        connected={connected}
        connecting={wallet.status === 'connecting'}
        address={wallet.address}
        isStore={isStore}
        onConnect={() => wallet.setChooserOpen(true)}
      />

      {message && (
        <p role="alert" className="rounded-xl bg-red-50 p-3 text-sm text-red-900" data-testid="refund-error">
          {message}
        </p>
      )}

      <Button type="submit" size="lg" disabled={!check.ok || !isStore || refundTo === null} data-testid="refund-send">
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
