import { ArrowLeft, Clock, Fuel, LoaderCircle, RefreshCw, TriangleAlert } from 'lucide-react';
import { useEffect, useState, useSyncExternalStore } from 'react';
import type { PayWith, SwapQuote } from '../../../../common/swap-pay';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '../../../components/ui/dialog';
import { Skeleton } from '../../../components/ui/skeleton';
import { formatPogPrice } from '../../../lib/format-pog-price';
import { formatCountdown } from '../lib/pay-elsewhere';
import { quoteFigures } from '../lib/swap-figures';
import type { SwapAnswer, SwapPrompt, SwapStep } from '../lib/swap-prompt';

export interface SwapDialogProps {
  prompt: SwapPrompt;
}

/**
 * "Pay with ETH or USDC" (a bottom sheet on phones), opened when the wallet's POGS are short and
 * the shop takes another coin: the coin, then the quote with its bound, then the wallet. Loaded on
 * first use; the payment (run-swap.ts) drives it through the prompt.
 */
export function SwapDialog({ prompt }: SwapDialogProps) {
  const step = useSyncExternalStore(prompt.subscribe, prompt.getSnapshot);
  const answer = prompt.answer;
  // Kept while the dialog closes, so its last step does not blink away.
  const [shown, setShown] = useState<SwapStep | null>(step);
  if (step && step !== shown) setShown(step);
  const view = step ?? shown;
  return (
    <Dialog
      open={step !== null}
      onOpenChange={(open) => {
        // Once the wallet is asked, only the wallet can end it.
        if (!open && step?.step !== 'sending') answer({ type: 'close' });
      }}
    >
      <DialogContent data-testid="swap-dialog" data-step={view?.step} width="md">
        <header className="px-5 pt-5 pr-14">
          <DialogTitle>{titleOf(view)}</DialogTitle>
          <DialogDescription className="mt-1">
            Paying {formatPogPrice(prompt.total)}: your wallet swaps your coin on Uniswap for exactly that many POGS, sent straight to the
            store.
          </DialogDescription>
        </header>
        <div className="grid gap-4 px-5 pt-4">{view && <StepBody step={view} answer={answer} />}</div>
      </DialogContent>
    </Dialog>
  );
}

function titleOf(step: SwapStep | null): string {
  if (!step || step.step === 'choose') return 'Not enough POGS';
  return `Pay with ${step.step === 'quoting' ? step.payWith : step.quote.payWith}`;
}

function StepBody({ step, answer }: { step: SwapStep; answer: (answer: SwapAnswer) => void }) {
  switch (step.step) {
    case 'choose':
      return (
        <>
          <p className="text-sm" data-testid="swap-short">
            {step.shortBy}. You can pay with another coin instead.
          </p>
          {step.error && (
            <p
              role="alert"
              data-testid="swap-error"
              className="flex items-start gap-2 rounded-2xl border border-destructive/40 p-3 text-sm"
            >
              <TriangleAlert aria-hidden className="mt-px size-5 shrink-0 text-destructive" />
              {step.error}
            </p>
          )}
          <div className="grid gap-2">
            {step.coins.map((coin) => (
              <Button
                key={coin}
                size="block-lg"
                data-testid={`swap-pay-with-${coin}`}
                onClick={() => answer({ type: 'coin', payWith: coin })}
              >
                {step.error ? <RefreshCw aria-hidden /> : null}
                Pay with {coin}
              </Button>
            ))}
            <Button variant="ghost" onClick={() => answer({ type: 'close' })}>
              Cancel
            </Button>
          </div>
        </>
      );
    case 'quoting':
      return (
        <div role="status" className="grid gap-3" data-testid="swap-quoting">
          <span className="sr-only">Asking for a price in {step.payWith}…</span>
          <Skeleton className="h-24 w-full" />
          <Skeleton shape="pill" className="h-12 w-full" />
        </div>
      );
    case 'quote':
      return <QuoteView quote={step.quote} notice={step.notice} answer={answer} />;
    case 'sending':
      return (
        <>
          <QuoteFigures quote={step.quote} />
          <p
            role="status"
            data-testid="swap-sending"
            className="flex items-center gap-2 rounded-full bg-brand-soft px-4 py-2.5 text-sm font-semibold text-brand"
          >
            <LoaderCircle aria-hidden className="size-5 shrink-0 motion-safe:animate-spin" />
            Confirm in your wallet…
          </p>
        </>
      );
  }
}

function QuoteFigures({ quote }: { quote: SwapQuote }) {
  const figures = quoteFigures(quote);
  return (
    <section aria-label="Quote" className="grid gap-1 rounded-2xl border border-border bg-surface p-4" data-testid="swap-quote">
      <p className="text-2xl font-extrabold tabular-nums">
        about <span data-testid="swap-about">{figures.about}</span> {quote.payWith}
      </p>
      <p className="text-sm text-muted-foreground tabular-nums">
        at most{' '}
        <span className="font-semibold text-foreground" data-testid="swap-at-most" title={`${figures.atMostExact} ${quote.payWith}`}>
          {figures.atMost} {quote.payWith}
        </span>{' '}
        ({(quote.slippageBps / 100).toFixed(2)}% above the price now)
      </p>
    </section>
  );
}

/** The time the quote holds, ticking every second. */
function TimeLeft({ expiresAt }: { expiresAt: string }) {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  const msLeft = Date.parse(expiresAt) - now;
  return <>{msLeft > 0 ? formatCountdown(msLeft) : 'ran out: confirm for a new one'}</>;
}

function QuoteView({ quote, notice, answer }: { quote: SwapQuote; notice: string | null; answer: (answer: SwapAnswer) => void }) {
  return (
    <>
      {notice && (
        <p
          role="alert"
          data-testid="swap-notice"
          className="flex items-start gap-2 rounded-2xl border border-amber-300 bg-amber-50 p-3 text-sm font-semibold"
        >
          <TriangleAlert aria-hidden className="mt-px size-5 shrink-0 text-amber-700" />
          {notice}
        </p>
      )}
      <QuoteFigures quote={quote} />
      <ul className="grid gap-2 text-sm text-muted-foreground">
        <li className="flex items-start gap-2" data-testid="swap-fee-note">
          <Fuel aria-hidden className="mt-px size-4 shrink-0 text-brand" />
          <span>A swap pays its own network fee, in ETH from your wallet: the shop pays the fee only for plain POGS payments.</span>
        </li>
        <li className="flex items-start gap-2">
          <Clock aria-hidden className="mt-px size-4 shrink-0 text-brand" />
          <span>
            {coinNote(quote.payWith)} Price held for{' '}
            <span className="font-semibold text-foreground tabular-nums">
              <TimeLeft expiresAt={quote.expiresAt} />
            </span>
            .
          </span>
        </li>
      </ul>
      <div className="grid gap-2">
        <Button size="block-lg" data-testid="swap-confirm" onClick={() => answer({ type: 'pay' })}>
          Pay with {quote.payWith}
        </Button>
        <Button variant="ghost" data-testid="swap-back" onClick={() => answer({ type: 'back' })}>
          <ArrowLeft aria-hidden />
          Back
        </Button>
      </div>
    </>
  );
}

function coinNote(payWith: PayWith): string {
  return payWith === 'ETH'
    ? 'ETH the swap does not need comes back in the same transaction.'
    : 'Your wallet may ask twice: to let the swap take the USDC, then for the swap.';
}
