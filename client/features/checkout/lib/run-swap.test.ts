import { describe, expect, it } from 'vitest';
import type { PayWith, SwapQuote } from '../../../../common/swap-pay';
import { ApiError } from '../../../lib/api-client';
import { PriceMovedError } from '../../../web3/payment-errors';
import { CheckoutFailure } from './payment-failure';
import { coinShortNotice, PRICE_MOVED_NOTICE, QUOTE_EXPIRED_NOTICE, QUOTE_MISMATCH_MESSAGE, runSwap, type SwapDeps } from './run-swap';
import { SwapPrompt, type SwapAnswer, type SwapStep } from './swap-prompt';

const CHECKOUT = { id: 'c1', amountWei: '25000000000000012345' };
const HASH = '0x' + 'ef'.repeat(32);
const NOW = Date.parse('2026-11-29T12:00:00Z');
const SHORT = 'Insufficient POG balance. You need 5.00 more POG';

let quotes = 0;
function quoteOf(payWith: PayWith, overrides: Partial<SwapQuote> = {}): SwapQuote {
  quotes++;
  return {
    checkoutId: CHECKOUT.id,
    payWith,
    decimals: payWith === 'ETH' ? 18 : 6,
    amountOutWei: CHECKOUT.amountWei,
    amountIn: payWith === 'ETH' ? `${4200000000000000 + quotes}` : '25130000',
    amountInMax: payWith === 'ETH' ? '4221000000000000' : '25256000',
    slippageBps: 50,
    block: 100 + quotes,
    expiresAt: new Date(NOW + 120_000).toISOString(),
    calls: [{ to: '0x' + '11'.repeat(20), data: '0x1234', value: payWith === 'ETH' ? '4221000000000000' : '0' }],
    ...overrides,
  };
}

/** A shopper who answers each question the dialog shows with the next scripted answer, and a log of what happened. */
function harness(answers: SwapAnswer[], overrides: Partial<SwapDeps> = {}) {
  const log: string[] = [];
  const prompt = new SwapPrompt('25.00');
  const describe = (step: SwapStep | null): string => {
    if (!step) return 'closed';
    switch (step.step) {
      case 'choose':
        return `choose ${step.coins.join('/')}${step.error ? ` (error: ${step.error})` : ''}`;
      case 'quoting':
        return `quoting ${step.payWith}`;
      case 'quote':
        return `quote ${step.quote.payWith} ${step.quote.amountIn}${step.notice ? ` (${step.notice})` : ''}`;
      case 'sending':
        return `sending ${step.quote.payWith}`;
    }
  };
  prompt.subscribe(() => {
    const step = prompt.getSnapshot();
    log.push(describe(step));
    if (step?.step === 'choose' || step?.step === 'quote') {
      const answer = answers.shift();
      if (answer) queueMicrotask(() => prompt.answer(answer));
    }
  });
  const deps: SwapDeps = {
    coins: ['ETH', 'USDC'],
    checkout: CHECKOUT,
    shortBy: SHORT,
    quote: async (id, payWith) => {
      log.push(`ask quote ${id} ${payWith}`);
      return quoteOf(payWith);
    },
    balanceOf: async () => 10n ** 24n,
    send: async (quote) => {
      log.push(`send ${quote.calls.length} call(s)`);
      return HASH;
    },
    prompt,
    onSending: () => log.push('onSending'),
    onQuoteAgain: () => log.push('onQuoteAgain'),
    now: () => NOW,
    ...overrides,
  };
  return { deps, log, prompt };
}

const coin = (payWith: PayWith): SwapAnswer => ({ type: 'coin', payWith });
const pay: SwapAnswer = { type: 'pay' };

describe('runSwap', () => {
  it('choose, quote, confirm, send: the hash, and the dialog closes', async () => {
    quotes = 0;
    const h = harness([coin('ETH'), pay]);
    expect(await runSwap(h.deps)).toBe(HASH);
    expect(h.log).toEqual([
      'choose ETH/USDC',
      'quoting ETH',
      'ask quote c1 ETH',
      'quote ETH 4200000000000001',
      'sending ETH',
      'onSending',
      'send 1 call(s)',
      'closed',
    ]);
    expect(h.prompt.getSnapshot()).toBeNull();
  });

  it('the price moved (the estimate reverts): nothing sent, "The price moved. Here is a new quote." with a fresh one', async () => {
    quotes = 0;
    let attempts = 0;
    const h = harness([coin('ETH'), pay, pay], {
      send: async () => {
        if (attempts++ === 0) throw new PriceMovedError();
        return HASH;
      },
    });
    expect(await runSwap(h.deps)).toBe(HASH);
    expect(h.log).toEqual([
      'choose ETH/USDC',
      'quoting ETH',
      'ask quote c1 ETH',
      'quote ETH 4200000000000001',
      'sending ETH',
      'onSending',
      'onQuoteAgain',
      'quoting ETH',
      'ask quote c1 ETH',
      `quote ETH 4200000000000002 (${PRICE_MOVED_NOTICE})`,
      'sending ETH',
      'onSending',
      'closed',
    ]);
    expect(attempts).toBe(2);
  });

  it('a quote too close to its time is asked again before anything is sent, and only the fresh one goes', async () => {
    quotes = 0;
    let now = NOW;
    let asked = 0;
    const h = harness([coin('USDC'), pay, pay], {
      now: () => now,
      quote: async (_id, payWith) => {
        asked++;
        const quote = quoteOf(payWith, { expiresAt: new Date(now + 60_000).toISOString(), block: asked });
        if (asked === 1) now += 50_000; // the shopper reads the first for 50 s: 10 s left, under the margin
        return quote;
      },
    });
    const sent: number[] = [];
    h.deps.send = async (quote) => {
      sent.push(quote.block);
      return HASH;
    };
    expect(await runSwap(h.deps)).toBe(HASH);
    expect(sent).toEqual([2]);
    expect(h.log.filter((l) => l.startsWith('quote '))).toEqual(['quote USDC 25130000', `quote USDC 25130000 (${QUOTE_EXPIRED_NOTICE})`]);
  });

  it('a wallet without the bound’s worth of the coin is told so on a fresh quote, before the wallet is asked', async () => {
    quotes = 0;
    let held = 1_000_000_000_000_000n; // 0.001 ETH
    const h = harness([coin('ETH'), pay, { type: 'back' }, coin('ETH'), pay], {
      balanceOf: async () => {
        const now = held;
        held = 10n ** 18n; // then topped up
        return now;
      },
    });
    expect(await runSwap(h.deps)).toBe(HASH);
    const notice = 'Your wallet holds 0.00100 ETH; this swap may take up to 0.00423 ETH. Add ETH or choose another coin.';
    expect(coinShortNotice({ payWith: 'ETH', amountInMax: '4221000000000000', decimals: 18 }, 1_000_000_000_000_000n)).toBe(notice);
    expect(h.log.filter((l) => l.startsWith('quote ') || l === 'onSending')).toEqual([
      'quote ETH 4200000000000001',
      `quote ETH 4200000000000002 (${notice})`,
      'quote ETH 4200000000000003',
      'onSending',
    ]);
  });

  it('a holding is never shown above what it is', () => {
    expect(coinShortNotice({ payWith: 'USDC', amountInMax: '25256000', decimals: 6 }, 25_255_999n)).toBe(
      'Your wallet holds 25.25 USDC; this swap may take up to 25.26 USDC. Add USDC or choose another coin.',
    );
  });

  it('a failed quote says why on the coin choice, and the shopper may choose again', async () => {
    quotes = 0;
    let first = true;
    const h = harness([coin('USDC'), coin('ETH'), pay], {
      quote: async (_id, payWith) => {
        if (first) {
          first = false;
          throw new ApiError(503, 'The swap could not be quoted now. Try again in a minute.', { code: 'swap-quote-failed' });
        }
        return quoteOf(payWith);
      },
    });
    expect(await runSwap(h.deps)).toBe(HASH);
    expect(h.log.slice(0, 4)).toEqual([
      'choose ETH/USDC',
      'quoting USDC',
      'choose ETH/USDC (error: The swap could not be quoted now. Try again in a minute.)',
      'quoting ETH',
    ]);
  });

  it('closing the dialog, at the choice or at the quote, ends it unpaid', async () => {
    for (const answers of [[{ type: 'close' }], [coin('ETH'), { type: 'close' }]] as SwapAnswer[][]) {
      const h = harness(answers);
      expect(await runSwap(h.deps)).toBeNull();
      expect(h.log).not.toContain('onSending');
      expect(h.log.at(-1)).toBe('closed');
    }
  });

  it('back from a quote returns to the coins', async () => {
    quotes = 0;
    const h = harness([coin('ETH'), { type: 'back' }, coin('USDC'), pay]);
    expect(await runSwap(h.deps)).toBe(HASH);
    expect(h.log.filter((l) => l.startsWith('choose') || l.startsWith('quote '))).toEqual([
      'choose ETH/USDC',
      'quote ETH 4200000000000001',
      'choose ETH/USDC',
      'quote USDC 25130000',
    ]);
  });

  it('refuses a quote that does not deliver this checkout’s exact amount', async () => {
    for (const wrong of [{ amountOutWei: '25000000000000000000' }, { checkoutId: 'other' }]) {
      const h = harness([coin('ETH'), pay], { quote: async (_id, payWith) => quoteOf(payWith, wrong) });
      await expect(runSwap(h.deps)).rejects.toEqual(new CheckoutFailure('Payment Failed', QUOTE_MISMATCH_MESSAGE));
      expect(h.log).not.toContain('onSending');
      expect(h.prompt.getSnapshot()).toBeNull();
    }
  });

  it('a wallet that rejects the swap: the error goes on to the payment (handled as a rejected transfer), the dialog closes', async () => {
    const rejected = Object.assign(new Error('User rejected the request.'), { code: 4001 });
    const h = harness([coin('ETH'), pay], {
      send: async () => {
        throw rejected;
      },
    });
    await expect(runSwap(h.deps)).rejects.toBe(rejected);
    expect(h.log.at(-1)).toBe('closed');
  });
});
