/**
 * A shopper's browser points the server at a transaction hash: POST /api/orders/create, and the
 * earlier hint POST /api/checkout/:id/transaction. The hash is public on Base the moment it is
 * mined, so anyone can present it: the server only looks. The chain says what the transaction
 * carried, and the settlement judges it exactly as the watcher would (the exact amount names the
 * checkout; what the caller says about the sender or about which checkout it meant decides
 * nothing). The caller gets the order only if the transfer paid a checkout of their own session;
 * anyone else gets a 4xx, while the rightful checkout is settled (or left alone) all the same.
 */
import type { CreateOrderRequest, Order } from '../../../common/api';
import { ErrorCode } from '../../../common/errors';
import { formatUnits } from '../../../common/money';
import type { ChainClient } from './chain-client';
import { AppError } from '../../lib/errors';
import type { Logger } from '../../lib/logger';
import type { Outages } from '../../lib/outages';
import { unavailableCause } from '../../lib/unavailable';
import type { OrdersService } from '../orders';
import type { CheckoutService } from './checkout-service';
import type { IntentRow } from './checkout-record';
import { checkoutNotFound } from './checkout-service';
import type { SettlementService } from './settlement';
import type { Settlement } from './settlement-decision';
import { checkReceipt, type ReceiptCheck, type StoreTransfer } from './verify';
import type { PaidWith } from '../../../common/swap-pay';
import { lookUpPaidWith } from './payer-lookup';
import type { SwapFacts } from './swap-payer';

export class OrderFromTransaction {
  constructor(
    private readonly deps: {
      chain: ChainClient;
      checkouts: CheckoutService;
      settlement: SettlementService;
      orders: OrdersService;
      requiredConfirmations: number;
      logger: Logger;
      /** Where an outage met verifying a payment is reported, once for the instance. */
      outages?: Outages;
      /** The swap route's facts (null when no route is set). */
      swap?: SwapFacts | null;
    },
  ) {}

  async create(sessionId: string | null, req: CreateOrderRequest): Promise<{ order: Order; created: boolean }> {
    const { checkouts, settlement, orders } = this.deps;
    // Only a session with a checkout can be owed an order: anyone else is answered before the
    // chain is asked (each look costs the shop RPC calls).
    if (req.checkoutId ? !(await checkouts.own(sessionId, req.checkoutId)) : !(await checkouts.sessionHasCheckouts(sessionId))) {
      throw checkoutNotFound();
    }
    const txHash = req.transactionHash.toLowerCase();
    const check = await this.look(txHash);
    if (!check.ok) {
      // Mined but not deep enough yet: the money is on its way, so its checkout claims its stock.
      if (check.pending.length) await Promise.all(check.pending.map((t) => settlement.claim(t)));
      throw new AppError(check.code, check.message);
    }

    const results: Settlement[] = [];
    for (const transfer of check.transfers) results.push(await settlement.settle({ ...transfer, paidWith: await this.paidWith(transfer) }));
    const answer = pickAnswer(results, sessionId!, req.checkoutId);
    switch (answer.kind) {
      case 'order': {
        const order = await orders.getForViewer(answer.orderId, { sessionId, wallet: null });
        return { order, created: answer.created };
      }
      case 'underpaid':
        throw new AppError(
          ErrorCode.paymentUnderpaid,
          `That transfer carried less than the total. We have received ${formatUnits(answer.receivedWei, 18, 2)} POG; ${formatUnits(answer.dueWei, 18, 2)} POG is still due. Pay the remainder from your cart (the exact amount is shown there) and your order is made.`,
        );
      case 'extra-payment':
        throw new AppError(
          ErrorCode.checkoutClosed,
          'This checkout was already paid by another transaction. This payment has been recorded; contact support with your transaction hash for a refund.',
        );
      case 'elsewhere':
        throw new AppError(ErrorCode.transactionAlreadyUsed, 'That transaction pays another checkout, not one of yours.');
      case 'unmatched':
        throw new AppError(
          ErrorCode.paymentUnmatched,
          'That transfer does not carry the exact amount of any of your checkouts. It has been recorded; contact support with your transaction hash.',
        );
    }
  }

  /**
   * The wallet's hash, reported as soon as the wallet returns it: recorded on the shopper's own
   * checkout, and, when the chain already shows the transfer, its checkout claims its stock.
   */
  async reportHint(sessionId: string | null, checkoutId: string, txHash: string): Promise<IntentRow> {
    const row = await this.deps.checkouts.recordTransactionHint(sessionId, checkoutId, txHash);
    try {
      const check = await this.look(txHash.toLowerCase());
      const onChain = check.ok ? check.transfers : check.pending;
      for (const transfer of onChain) await this.deps.settlement.claim(transfer);
    } catch (err) {
      // A hint is only a hint: the payment is found later by orders/create or the watcher.
      this.deps.logger.debug({ err, txHash }, 'could not look at a reported transaction yet');
    }
    return row;
  }

  /**
   * Who paid `transfer` (swap-payer.ts). When the chain does not say now, nothing is recorded and
   * the shopper's page asks again (202); the watcher records it meanwhile if it can.
   */
  private async paidWith(transfer: StoreTransfer): Promise<PaidWith> {
    try {
      return await lookUpPaidWith(this.deps.chain, this.deps.swap ?? null, transfer);
    } catch (err) {
      // Nothing is recorded of a swap until who paid it is known: its order belongs to the payer.
      this.deps.logger.debug({ err, txHash: transfer.txHash }, 'who paid a swap is not known yet');
      throw new AppError(
        ErrorCode.awaitingConfirmations,
        'The payment is on chain; the shop is still reading who paid it. Ask again in a moment.',
      );
    }
  }

  /**
   * Asks the chain about the transaction (rules 1–3): its transfers to the store, if any. The
   * calls share one timeout, so a stalled RPC is answered chain-unavailable within it.
   */
  private async look(txHash: string): Promise<ReceiptCheck> {
    const { chain } = this.deps;
    let facts;
    try {
      facts = await chain.transactionFacts(txHash);
    } catch (err) {
      // An outage is one line for the whole instance (lib/outages.ts), however many shoppers meet it;
      // it needs no stack: its reason says it all.
      const outage = unavailableCause(err);
      if (this.deps.outages?.report(err))
        this.deps.logger.debug({ reason: outage?.message, txHash }, 'chain unavailable while verifying a payment');
      else
        this.deps.logger.warn(outage ? { reason: outage.message, txHash } : { err, txHash }, 'chain unavailable while verifying a payment');
      throw new AppError(
        ErrorCode.chainUnavailable,
        'We cannot reach the Base network right now. Your payment is safe; try again in a moment.',
        { expose: true },
      );
    }
    const { chainId, tokenAddress, storeWallet } = chain.target;
    return checkReceipt({ ...facts, requiredConfirmations: this.deps.requiredConfirmations, chainId, token: tokenAddress, storeWallet });
  }
}

type Answer = Settlement | { kind: 'elsewhere' };

/**
 * What the caller is told: about their own checkout (the one named, else any of theirs) when the
 * transaction paid one; otherwise only that it paid someone else's, or nothing.
 */
function pickAnswer(results: Settlement[], sessionId: string, checkoutId: string | undefined): Answer {
  const theirs = results.filter(
    (r): r is Extract<Settlement, { sessionId: string | null }> => 'sessionId' in r && r.sessionId === sessionId,
  );
  const named = checkoutId ? theirs.find((r) => r.intentId === checkoutId) : undefined;
  const mine = named ?? theirs.find((r) => r.kind === 'order') ?? theirs[0];
  if (mine) return mine;
  if (results.some((r) => 'intentId' in r)) return { kind: 'elsewhere' };
  return { kind: 'unmatched' };
}
