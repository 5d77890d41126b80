/**
 * POST /api/orders/create: the shopper presents a transaction hash; the server checks it on chain
 * (design/payments.md §3) and settles it. The hash is only a hint: the receipt decides, and the
 * settlement's unique key makes a repeat return the same order.
 */
import type { CreateOrderRequest, Order } from '../../../common/api';
import { PaymentErrorCode } from '../../../common/errors';
import type { Db } from '../../db';
import type { ChainClient } from '../../chain/chain-client';
import { AppError } from '../../lib/errors';
import type { Logger } from '../../lib/logger';
import type { OrdersService } from '../orders/service';
import type { IntentRow } from './checkout-service';
import { checkoutNotFound } from './checkout-service';
import type { SettlementService } from './settlement';
import { checkReceipt, comparePayment, type StoreTransfer } from './verify';

export class OrderFromTransaction {
  constructor(
    private readonly deps: {
      db: Db;
      chain: ChainClient;
      settlement: SettlementService;
      orders: OrdersService;
      requiredConfirmations: number;
      logger: Logger;
    },
  ) {}

  async create(sessionId: string | null, req: CreateOrderRequest): Promise<{ order: Order; created: boolean }> {
    const { chain, settlement, orders } = this.deps;
    const intents = await this.candidateIntents(sessionId, req);
    const txHash = req.transactionHash.toLowerCase();

    let check;
    try {
      const receipt = await chain.receipt(txHash);
      const [known, head] = await Promise.all([receipt ? true : chain.transactionKnown(txHash), chain.blockNumber()]);
      const { chainId, tokenAddress, storeWallet } = chain.target;
      check = checkReceipt({ receipt, known, head, requiredConfirmations: this.deps.requiredConfirmations, chainId, token: tokenAddress, storeWallet, sender: req.customerWallet });
    } catch (err) {
      this.deps.logger.warn({ err, txHash }, 'chain unavailable while verifying a payment');
      throw new AppError(503, PaymentErrorCode.chainUnavailable, 'We cannot reach the Base network right now. Your payment is safe; try again in a moment.', true);
    }
    if (!check.ok) throw new AppError(check.status, check.code, check.message);

    const { intent, transfer } = pickPair(intents, check.transfers);
    const result = await settlement.settle(transfer, intent.id);
    if (result.kind === 'rejected') throw new AppError(result.status, result.code, result.message);
    // The order belongs to the session that made the checkout, whichever road settled it.
    const order = await orders.getForViewer(result.orderId, { sessionId: intent.session_id, wallet: null });
    return { order, created: result.created };
  }

  /**
   * The checkouts this request may be about: the named one, or (the spec's payload has no id)
   * this session's recent ones, newest first.
   */
  private async candidateIntents(sessionId: string | null, req: CreateOrderRequest): Promise<IntentRow[]> {
    if (!sessionId) throw checkoutNotFound();
    const q = this.deps.db('checkout_intents').where({ session_id: sessionId });
    const rows: IntentRow[] = req.checkoutId
      ? await q.where({ id: req.checkoutId })
      : await q.whereNot('status', 'closed').orderBy('created_at', 'desc').limit(20);
    if (rows.length === 0) throw checkoutNotFound();
    return rows;
  }
}

/** The checkout and transfer that belong together: an exact amount wins; else the newest checkout and the first transfer (settlement judges it). */
function pickPair(intents: IntentRow[], transfers: StoreTransfer[]): { intent: IntentRow; transfer: StoreTransfer } {
  for (const intent of intents) {
    const transfer = transfers.find((t) => comparePayment(t.value, BigInt(intent.amount_wei)) === 'exact');
    if (transfer) return { intent, transfer };
  }
  return { intent: intents[0]!, transfer: transfers[0]! };
}
