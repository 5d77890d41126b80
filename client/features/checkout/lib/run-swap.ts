/**
 * Paying with ETH or USDC when the wallet's POGS are short (docs/checkout.md): the
 * shopper picks the coin, the shop quotes how much of it buys exactly the checkout's amount, the
 * shopper confirms, and the wallet sends the quote's calls (the swap's output goes to the store
 * wallet). A quote past its time is asked again before anything is sent; a swap the wallet's
 * estimate says would revert is not sent: the shopper is told the price moved and shown a new
 * quote. Every effect is a dependency, so the whole sequence runs in unit tests with fakes.
 */
import type { Checkout } from '../../../../common/api';
import type { PayWith, SwapQuote } from '../../../../common/swap-pay';
import { PriceMovedError } from '../../../web3/payment-errors';
import { CheckoutFailure, PAYMENT_FAILED_TITLE, paymentFailureNotice } from './payment-failure';
import { roundUnits, shownDigits } from './swap-figures';
import type { SwapPrompt } from './swap-prompt';

export const PRICE_MOVED_NOTICE = 'The price moved. Here is a new quote.';
export const QUOTE_EXPIRED_NOTICE = 'That quote ran out of time. Here is a new one.';
/** A quote this close to its deadline is asked again: the shopper still has to confirm in the wallet. */
export const QUOTE_MARGIN_MS = 15_000;
export const QUOTE_MISMATCH_MESSAGE = 'The shop’s quote does not match this payment. Please try again.';

export interface SwapDeps {
  /** The coins the shop takes (config.payWith), in its order. */
  coins: readonly PayWith[];
  /** The checkout the swap pays: its exact amount is the swap's output. */
  checkout: Pick<Checkout, 'id' | 'amountWei'>;
  /** What the POGS are short by, as the shopper is told it. */
  shortBy: string;
  quote(checkoutId: string, payWith: PayWith): Promise<SwapQuote>;
  /** What the wallet holds of the quote's coin, in its smallest unit. */
  balanceOf(quote: SwapQuote): Promise<bigint>;
  /** Sends the quote's calls; the swap's transaction hash. PriceMovedError: its estimate reverts. */
  send(quote: SwapQuote): Promise<string>;
  prompt: Pick<SwapPrompt, 'ask' | 'show' | 'close'>;
  /** The wallet is about to be asked (the pay button: 'Confirm in your wallet...'). */
  onSending(): void;
  /** Back to choosing after the wallet was asked (the price moved). */
  onQuoteAgain(): void;
  now(): number;
}

/** "Your wallet holds 0.00120 ETH; this swap may take up to 0.00253 ETH." (the holding rounded down, the bound up). */
export function coinShortNotice(quote: Pick<SwapQuote, 'payWith' | 'amountInMax' | 'decimals'>, held: bigint): string {
  const max = BigInt(quote.amountInMax);
  const digits = shownDigits(max, quote.decimals);
  const holds = roundUnits(held, quote.decimals, digits, 'down');
  return `Your wallet holds ${holds} ${quote.payWith}; this swap may take up to ${roundUnits(max, quote.decimals, digits, 'up')} ${quote.payWith}. Add ${quote.payWith} or choose another coin.`;
}

/** The swap's transaction hash, or null when the shopper closed the dialog before sending. */
export async function runSwap(deps: SwapDeps): Promise<string | null> {
  const { prompt, checkout } = deps;
  let error: string | null = null;
  let notice: string | null = null;
  let payWith: PayWith | null = null;
  try {
    for (;;) {
      if (!payWith) {
        const answer = await prompt.ask({ step: 'choose', coins: deps.coins, shortBy: deps.shortBy, error });
        if (answer.type !== 'coin') return null;
        payWith = answer.payWith;
        error = null;
      }
      prompt.show({ step: 'quoting', payWith });
      let quote: SwapQuote;
      try {
        quote = await deps.quote(checkout.id, payWith);
      } catch (failure) {
        error = paymentFailureNotice(failure).description;
        payWith = null;
        continue;
      }
      // The swap must deliver this checkout's exact amount, or the payment would not match it.
      if (quote.checkoutId !== checkout.id || quote.amountOutWei !== checkout.amountWei || quote.payWith !== payWith) {
        throw new CheckoutFailure(PAYMENT_FAILED_TITLE, QUOTE_MISMATCH_MESSAGE);
      }
      const answer = await prompt.ask({ step: 'quote', quote, notice });
      notice = null;
      if (answer.type === 'close') return null;
      if (answer.type === 'back') {
        payWith = null;
        continue;
      }
      if (answer.type !== 'pay') continue;
      if (deps.now() >= Date.parse(quote.expiresAt) - QUOTE_MARGIN_MS) {
        notice = QUOTE_EXPIRED_NOTICE;
        continue;
      }
      // A wallet without the bound's worth would fail at the swap: say so, before the wallet is asked.
      const held = await deps.balanceOf(quote);
      if (held < BigInt(quote.amountInMax)) {
        notice = coinShortNotice(quote, held);
        continue;
      }
      prompt.show({ step: 'sending', quote });
      deps.onSending();
      try {
        const hash = await deps.send(quote);
        return hash;
      } catch (failure) {
        if (!(failure instanceof PriceMovedError)) throw failure;
        deps.onQuoteAgain();
        notice = PRICE_MOVED_NOTICE;
      }
    }
  } finally {
    prompt.close();
  }
}
