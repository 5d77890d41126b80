/**
 * The swap dialog's state between the payment (run-swap.ts asks, and waits for the answer) and the
 * dialog (components/swap-dialog.tsx shows the step, and answers). An external store for
 * useSyncExternalStore; closing it answers a pending question with 'close', and every later one too.
 */
import type { PayWith, SwapQuote } from '../../../../common/swap-pay';

export type SwapStep =
  /** Which coin: the POGS are short by `shortBy` ("Insufficient POG balance…"); `error`: the last quote failed. */
  | { step: 'choose'; coins: readonly PayWith[]; shortBy: string; error: string | null }
  | { step: 'quoting'; payWith: PayWith }
  /** `notice`: why this is a new quote ("The price moved. Here is a new quote."). */
  | { step: 'quote'; quote: SwapQuote; notice: string | null }
  /** The wallet is asked to send: the dialog cannot be closed now. */
  | { step: 'sending'; quote: SwapQuote };

export type SwapAnswer = { type: 'coin'; payWith: PayWith } | { type: 'pay' } | { type: 'back' } | { type: 'close' };

type Question = Extract<SwapStep, { step: 'choose' | 'quote' }>;

export class SwapPrompt {
  private current: SwapStep | null = null;
  private pending: ((answer: SwapAnswer) => void) | null = null;
  private closed = false;
  private readonly listeners = new Set<() => void>();

  /** @param total the checkout's total as the shopper saw it ("25.00"): what the swap buys. */
  constructor(readonly total: string) {}

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** The step shown; null once closed. */
  readonly getSnapshot = (): SwapStep | null => this.current;

  /** Shows a question and resolves with the shopper's answer. */
  ask(question: Question): Promise<SwapAnswer> {
    if (this.closed) return Promise.resolve({ type: 'close' });
    this.pending?.({ type: 'close' });
    this.set(question);
    return new Promise((resolve) => (this.pending = resolve));
  }

  /** Shows a step that waits for no answer. */
  show(step: Exclude<SwapStep, Question>): void {
    if (!this.closed) this.set(step);
  }

  /** The dialog's answer to the question shown (ignored when none is). */
  readonly answer = (answer: SwapAnswer): void => {
    const pending = this.pending;
    this.pending = null;
    if (answer.type === 'close') this.close();
    pending?.(answer);
  };

  close(): void {
    this.closed = true;
    this.set(null);
    const pending = this.pending;
    this.pending = null;
    pending?.({ type: 'close' });
  }

  private set(step: SwapStep | null): void {
    this.current = step;
    for (const listener of this.listeners) listener();
  }
}
