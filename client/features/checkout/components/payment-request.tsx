import { CircleCheck, Clock, ExternalLink, LoaderCircle, RotateCcw, TriangleAlert, Wallet } from 'lucide-react';
import { QRCodeSVG } from 'qrcode.react';
import { useEffect, useEffectEvent, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import type { Checkout } from '../../../../common/api';
import { Button, buttonVariants } from '../../../components/ui/button';
import { CopyButton } from '../../../components/ui/copy-button';
import { formatPogPrice } from '../../../lib/format-pog-price';
import { useConfig } from '../../../lib/public-config';
import { shortenAddress } from '../../../../common/shorten-address';
import { cn } from '../../../lib/utils';
import { useCheckoutStatus } from '../api/get-checkout';
import { formatCountdown } from '../lib/pay-elsewhere';
import { REDIRECT_DELAY_MS } from '../lib/run-payment';
import { UsdReferenceFigure as UsdReference } from '../../../components/ui/usd-reference-figure';

interface PaymentRequestProps {
  checkout: Checkout;
  onPaid: () => void;
  onStartAgain: () => void;
  /** Leaving for the order (closes the dialog). */
  onDone: () => void;
}

/** The current time, ticking every second (for the countdown). */
function useNow(): number {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

/** One checkout, live: what to send while it is open, then what happened. */
export function PaymentRequest({ checkout: created, onPaid, onStartAgain, onDone }: PaymentRequestProps) {
  const { data } = useCheckoutStatus(created);
  const checkout = data ?? created;
  const navigate = useNavigate();
  const orderId = checkout.status === 'paid' ? checkout.orderId : null;
  const viewOrder = (id: string) => {
    onDone();
    navigate(orderPath(id));
  };

  // Paid and the order exists (once per order): refresh the cart, then on to the order after 1.5 s.
  const onOrderReady = useEffectEvent((id: string) => {
    onPaid();
    return setTimeout(() => viewOrder(id), REDIRECT_DELAY_MS);
  });
  useEffect(() => {
    if (!orderId) return;
    const timer = onOrderReady(orderId);
    return () => clearTimeout(timer);
  }, [orderId]);

  return (
    <div className="grid gap-4" data-testid="payment-request" data-status={checkout.status}>
      <PaymentStatus checkout={checkout} onStartAgain={onStartAgain} onViewOrder={orderId ? () => viewOrder(orderId) : null} />
      {(checkout.status === 'open' || checkout.status === 'underpaid') && <PaymentInstructions checkout={checkout} />}
    </div>
  );
}

const orderPath = (orderId: string) => `/order-confirmation?id=${encodeURIComponent(orderId)}`;

function PaymentStatus({
  checkout,
  onStartAgain,
  onViewOrder,
}: {
  checkout: Checkout;
  onStartAgain: () => void;
  onViewOrder: (() => void) | null;
}) {
  const { data: config } = useConfig();
  switch (checkout.status) {
    case 'open':
      return (
        <p
          role="status"
          data-testid="payment-status"
          className="flex items-center gap-2 rounded-full bg-brand-soft px-4 py-2.5 text-sm font-semibold text-brand"
        >
          <LoaderCircle aria-hidden className="size-5 shrink-0 motion-safe:animate-spin" />
          Waiting for payment…
        </p>
      );
    case 'paid':
      return (
        <div
          role="status"
          data-testid="payment-status"
          className="grid justify-items-center gap-3 rounded-2xl bg-emerald-50 p-5 text-center"
        >
          <CircleCheck aria-hidden className="size-10 text-emerald-600" />
          <p className="text-lg font-bold">Payment received</p>
          {onViewOrder ? (
            <Button size="lg" className="w-full" onClick={onViewOrder}>
              View your order
            </Button>
          ) : (
            <p className="flex items-center gap-2 text-sm text-muted-foreground">
              <LoaderCircle aria-hidden className="size-4 motion-safe:animate-spin" />
              Creating your order…
            </p>
          )}
        </div>
      );
    case 'expired':
      return (
        <div role="status" data-testid="payment-status" className="grid gap-3 rounded-2xl border border-border bg-surface p-5">
          <p className="flex items-center gap-2 font-bold">
            <Clock aria-hidden className="size-5 shrink-0 text-muted-foreground" />
            This payment request has expired
          </p>
          <p className="text-sm text-muted-foreground">
            No payment arrived in time, so its prices are no longer held. Please don&apos;t send this amount now: start again for a new
            payment request.
          </p>
          <Button onClick={onStartAgain} data-testid="start-again">
            <RotateCcw aria-hidden />
            Start again
          </Button>
        </div>
      );
    case 'underpaid':
      return (
        <div role="status" data-testid="payment-status" className="grid gap-2 rounded-2xl border border-amber-300 bg-amber-50 p-4">
          <p className="flex items-center gap-2 font-bold">
            <TriangleAlert aria-hidden className="size-5 shrink-0 text-amber-700" />
            Part of your payment arrived
          </p>
          <p className="text-sm">
            We received{' '}
            <span className="font-semibold tabular-nums" data-testid="payment-received">
              {formatPogPrice(checkout.amountReceived)}
            </span>{' '}
            of {formatPogPrice(checkout.displayTotal)}. Send the{' '}
            <span className="font-semibold tabular-nums" data-testid="payment-due">
              {formatPogPrice(checkout.amountDue)}
            </span>{' '}
            still due and your order is made.
          </p>
          {config?.communityUrl && (
            <a
              href={config.communityUrl}
              target="_blank"
              rel="noopener noreferrer"
              className="inline-flex min-h-11 items-center gap-1.5 justify-self-start text-sm font-semibold text-brand underline-offset-4 hover:underline"
            >
              Questions? Contact support
              <ExternalLink aria-hidden className="size-4" />
            </a>
          )}
        </div>
      );
  }
}

/** The time left, ticking on its own so the rest of the instructions (the QR code) is not redrawn every second. */
function Countdown({ expiresAt }: { expiresAt: string }) {
  const msLeft = Date.parse(expiresAt) - useNow();
  return <>{msLeft > 0 ? formatCountdown(msLeft) : 'Expired'}</>;
}

function PaymentInstructions({ checkout }: { checkout: Checkout }) {
  return (
    <>
      <section aria-labelledby="amount-label" className="grid gap-1 rounded-2xl border border-border bg-surface p-4">
        <h3 id="amount-label" className="text-xs font-semibold tracking-wide text-muted-foreground uppercase">
          Send exactly
        </h3>
        <div className="flex items-start gap-2">
          <p className="min-w-0 flex-1 font-mono text-base leading-snug font-bold sm:text-lg" data-testid="pay-elsewhere-amount">
            <span className="break-all select-all">{checkout.amount}</span>
            <span className="whitespace-nowrap"> POG</span>
          </p>
          <CopyButton value={checkout.amount} label="Copy amount" copiedLabel="Amount copied" className="-my-1.5 -mr-2" />
        </div>
        <p className="text-sm text-muted-foreground">
          That is{' '}
          {checkout.status === 'underpaid' ? (
            <>
              the <span data-testid="pay-elsewhere-total">{formatPogPrice(checkout.amountDue)}</span> still due
            </>
          ) : (
            <span data-testid="pay-elsewhere-total">{formatPogPrice(checkout.displayTotal)}</span>
          )}{' '}
          <UsdReference pogs={checkout.status === 'underpaid' ? checkout.amountDue : checkout.displayTotal} className="text-xs" />. Send
          every digit: the last ones tell the shop the payment is yours.
        </p>
      </section>

      <dl className="grid gap-2 text-sm">
        <div className="flex items-center justify-between gap-3">
          <dt className="text-muted-foreground">To (store wallet)</dt>
          <dd className="flex items-center gap-1">
            <span className="font-mono font-semibold" title={checkout.storeWallet} data-testid="pay-elsewhere-store-wallet">
              {shortenAddress(checkout.storeWallet)}
            </span>
            <CopyButton
              value={checkout.storeWallet}
              label="Copy store wallet address"
              copiedLabel="Address copied"
              className="-my-2 -mr-2"
            />
          </dd>
        </div>
        <div className="flex items-center justify-between gap-3">
          <dt className="text-muted-foreground">Network</dt>
          <dd className="font-semibold">Base</dd>
        </div>
        {/* A partly paid request stays payable for the rest: no countdown to worry about. */}
        {checkout.status === 'open' && (
          <div className="flex items-center justify-between gap-3">
            <dt className="text-muted-foreground">Time left</dt>
            <dd className="flex items-center gap-1.5 font-semibold tabular-nums" data-testid="pay-elsewhere-countdown">
              <Clock aria-hidden className="size-4 text-muted-foreground" />
              <Countdown expiresAt={checkout.expiresAt} />
            </dd>
          </div>
        )}
      </dl>

      {/* Wider screens: scan with a phone. Phones: hand the request to the wallet app. */}
      <figure className="hidden justify-items-center gap-2 sm:grid">
        <div className="rounded-2xl border border-border bg-white p-3">
          <QRCodeSVG value={checkout.paymentUri} size={192} level="M" title="Payment request QR code" data-testid="pay-elsewhere-qr" />
        </div>
        <figcaption className="text-center text-sm text-muted-foreground">Scan with your wallet app to fill in the payment.</figcaption>
      </figure>
      <div className="grid gap-2 sm:flex sm:justify-center">
        <a
          href={checkout.paymentUri}
          data-testid="pay-elsewhere-open-wallet"
          className={cn(buttonVariants({ size: 'lg' }), 'w-full sm:hidden')}
        >
          <Wallet aria-hidden />
          Open in wallet app
        </a>
        <CopyButton
          value={checkout.paymentUri}
          label="Copy payment link"
          copiedLabel="Link copied"
          showLabel
          variant="outline"
          className="w-full sm:w-auto"
        />
      </div>
    </>
  );
}
