/**
 * One transfer becomes at most one order (design/payments.md §3–§4). Both roads lead here: the
 * shopper's POST /api/orders/create and the chain watcher. Everything happens in one transaction,
 * keyed by (chain id, tx hash, log index), so however often and however concurrently a transfer
 * is presented, it is recorded once and pays once. The order, its items, the stock it takes and
 * the Shopify hand-off job are written together (transactional outbox).
 */
import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { PaymentErrorCode } from '../../../common/errors';
import type { Db } from '../../db';
import { bumpCatalogueVersion } from '../catalogue';
import { needsShipping, nextStatus } from '../orders/status';
import type { IntentRow } from './checkout-service';
import { knownStock, lineProblem, reservedElsewhere } from './checkout-service';
import { comparePayment, type StoreTransfer } from './verify';

export const HANDOFF_JOB = 'shopify-draft-order';

export type Settlement =
  | { kind: 'order'; orderId: string; created: boolean }
  /** The transfer is recorded but made no order; `code` says why (for the API and the admin). */
  | { kind: 'rejected'; status: number; code: string; message: string };

interface TransferRow {
  id: number;
  status: 'matched' | 'unmatched' | 'underpaid' | 'review' | 'removed';
  intent_id: string | null;
}

export class SettlementService {
  constructor(
    private readonly db: Db,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /**
   * Settles `transfer`. With `intentId` (the shopper names their checkout) the transfer must pay
   * that checkout; without it (the watcher) it pays the payable checkout with the same exact
   * amount (and, when the checkout names a wallet, the same sender).
   */
  async settle(transfer: StoreTransfer, intentId?: string): Promise<Settlement> {
    return this.db.transaction(async (trx) => {
      const now = this.now();
      await trx('chain_transfers')
        .insert({
          chain_id: transfer.chainId,
          tx_hash: transfer.txHash,
          log_index: transfer.logIndex,
          block_number: transfer.blockNumber,
          block_hash: transfer.blockHash,
          token_address: transfer.token,
          from_address: transfer.from,
          to_address: transfer.to,
          value_wei: transfer.value.toString(),
          status: 'unmatched',
          created_at: now,
          updated_at: now,
        })
        .onConflict(['chain_id', 'tx_hash', 'log_index'])
        .ignore();
      const row: TransferRow = await trx('chain_transfers')
        .where({ chain_id: transfer.chainId, tx_hash: transfer.txHash, log_index: transfer.logIndex })
        .forUpdate()
        .first('id', 'status', 'intent_id');
      const mark = (status: TransferRow['status'], intent: string | null, note: string | null) =>
        trx('chain_transfers').where({ id: row.id }).update({ status, intent_id: intent, note, block_number: transfer.blockNumber, block_hash: transfer.blockHash, updated_at: now });

      if (row.status === 'matched') {
        const order = await trx('orders').where({ chain_id: transfer.chainId, tx_hash: transfer.txHash, log_index: transfer.logIndex }).first('id', 'intent_id');
        if (intentId && order && order.intent_id !== intentId) return alreadyUsed();
        return { kind: 'order', orderId: order.id, created: false };
      }
      if (row.status === 'removed') {
        // Undone by a reorganisation and now on chain again: its order (failed meanwhile) is back.
        const order = await trx('orders').where({ chain_id: transfer.chainId, tx_hash: transfer.txHash, log_index: transfer.logIndex }).forUpdate().first('id', 'status', 'status_reason');
        if (order) {
          const status = order.status_reason === 'payment-reorged' ? nextStatus(order.status, 'payment-restored') : null;
          if (status) await trx('orders').where({ id: order.id }).update({ status, needs_shipping: needsShipping(status), status_reason: null, updated_at: now });
          await mark('matched', row.intent_id, null);
          return { kind: 'order', orderId: order.id, created: false };
        }
      }
      if (row.status === 'underpaid' || row.status === 'review') {
        // Already judged; the same answer again.
        return row.status === 'underpaid' ? underpaid() : needsReview(row.intent_id);
      }

      const intent = await this.findIntent(trx, transfer, intentId, now);
      if (!intent) {
        await mark('unmatched', null, 'no payable checkout has this amount and sender');
        return intentId
          ? { kind: 'rejected', status: 404, code: PaymentErrorCode.checkoutNotFound, message: 'That checkout cannot be paid any more. Start again from your cart; if you already paid, contact support with your transaction hash.' }
          : { kind: 'rejected', status: 422, code: PaymentErrorCode.paymentUnmatched, message: 'That transfer matches no checkout. It has been recorded; contact support with your transaction hash.' };
      }
      if (intent.customer_wallet && intent.customer_wallet !== transfer.from) {
        await mark('unmatched', null, `sent from ${transfer.from}, checkout expects ${intent.customer_wallet}`);
        return { kind: 'rejected', status: 422, code: PaymentErrorCode.wrongSender, message: 'That transfer was not sent from the wallet this checkout is for.' };
      }
      if (intent.status === 'paid') {
        await mark('review', intent.id, 'second payment for an already paid checkout');
        return { kind: 'rejected', status: 409, code: PaymentErrorCode.checkoutClosed, message: 'This checkout was already paid by another transaction. This payment has been recorded; contact support for a refund.' };
      }
      const amountWei = BigInt(intent.amount_wei);
      const comparison = comparePayment(transfer.value, amountWei);
      if (comparison === 'underpaid') {
        await mark('underpaid', intent.id, `paid ${transfer.value}, expected ${amountWei}`);
        await trx('checkout_intents').where({ id: intent.id }).update({ status: 'underpaid', updated_at: now });
        return underpaid();
      }

      // A late payment (the checkout expired, its reservation lapsed) takes stock only if it is there.
      const late = intent.status !== 'open' || intent.expires_at <= now;
      const items = await trx('checkout_intent_items as i')
        .join('variants as v', 'v.shopify_id', 'i.variant_id')
        .where('i.intent_id', intent.id)
        .orderBy('v.id')
        .forUpdate('v')
        .select('i.variant_id', 'i.product_id', 'i.title', 'i.unit_price', 'i.quantity', 'v.available_stock', 'v.inventory_quantity', 'v.is_sold_out', 'v.available_for_sale');
      if (late) {
        for (const item of items) {
          const stock = knownStock(item);
          const problem = lineProblem(
            { for_sale: true, pog_price: item.unit_price, is_sold_out: item.is_sold_out || !item.available_for_sale, available_stock: stock.available_stock, quantity: item.quantity },
            await reservedElsewhere(trx, item.variant_id, now, stock.shopify_tracked, intent.id),
          );
          if (problem) {
            await mark('review', intent.id, `late payment; ${item.title}: ${problem}`);
            return needsReview(intent.id);
          }
        }
      }

      const orderId = newOrderId();
      const status = nextStatus('pending', 'payment-verified')!;
      await trx('orders').insert({
        id: orderId,
        intent_id: intent.id,
        session_id: intent.session_id,
        customer_wallet: transfer.from,
        status,
        total_wei: intent.total_wei,
        amount_paid_wei: transfer.value.toString(),
        overpaid: comparison === 'overpaid',
        late,
        chain_id: transfer.chainId,
        tx_hash: transfer.txHash,
        log_index: transfer.logIndex,
        block_number: transfer.blockNumber,
        needs_shipping: true,
        paid_at: now,
        created_at: now,
        updated_at: now,
      });
      await trx('order_items').insert(
        items.map((i) => ({ order_id: orderId, variant_id: i.variant_id, product_id: i.product_id, title: i.title, unit_price: i.unit_price, quantity: i.quantity })),
      );
      // Sold units leave the admin's stock number; the last one marks the variant sold out.
      // (Shopify's inventory drops by itself when Shopify gets the order.)
      let stockChanged = false;
      for (const item of items) {
        if (item.available_stock != null && item.available_stock > 0) {
          const left = Math.max(item.available_stock - item.quantity, 0);
          await trx('variants').where({ shopify_id: item.variant_id }).update({ available_stock: left, is_sold_out: left === 0 ? true : item.is_sold_out, updated_at: now });
          stockChanged = true;
        }
      }
      if (stockChanged) await bumpCatalogueVersion(trx as unknown as Db);
      await trx('checkout_intents').where({ id: intent.id }).update({ status: 'paid', updated_at: now });
      if (intent.session_id) {
        // The cart was bought: empty it (lines added after the checkout began are kept).
        await trx('cart_items')
          .where({ session_id: intent.session_id })
          .whereIn('variant_id', items.map((i) => i.variant_id))
          .delete();
      }
      await mark('matched', intent.id, comparison === 'overpaid' ? `overpaid by ${transfer.value - amountWei} wei` : null);
      await trx('outbox').insert({ kind: HANDOFF_JOB, order_id: orderId, next_attempt_at: now, created_at: now, updated_at: now });
      return { kind: 'order', orderId, created: true };
    });
  }

  private async findIntent(trx: Knex.Transaction, transfer: StoreTransfer, intentId: string | undefined, now: Date): Promise<IntentRow | undefined> {
    const payable = (q: Knex.QueryBuilder) =>
      q.where({ chain_id: transfer.chainId, token_address: transfer.token, store_wallet: transfer.to });
    if (intentId) {
      const row: IntentRow | undefined = await payable(trx('checkout_intents').where({ id: intentId })).forUpdate().first();
      if (!row) return undefined;
      if (row.status === 'paid' || row.status === 'open' || row.status === 'underpaid') return row;
      return row.status === 'expired' && row.match_until > now ? row : undefined;
    }
    // The watcher: the exact amount identifies the checkout (unique among payable ones)…
    const exact: IntentRow | undefined = await payable(trx('checkout_intents'))
      .where({ amount_wei: transfer.value.toString() })
      .whereIn('status', ['open', 'expired'])
      .where('match_until', '>', now)
      .forUpdate()
      .first();
    if (exact) return exact;
    // …or, for a wrong amount, the sender's one payable checkout (so over- and underpayments from
    // a known wallet are recognised rather than left unmatched).
    const own: IntentRow[] = await payable(trx('checkout_intents'))
      .where({ customer_wallet: transfer.from })
      .whereIn('status', ['open', 'expired'])
      .where('match_until', '>', now)
      .forUpdate()
      .limit(2);
    return own.length === 1 ? own[0] : undefined;
  }
}

/** Order ids: "PG" and 10 random Crockford base-32 characters (50 bits): short, unguessable. */
export function newOrderId(): string {
  const alphabet = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
  const bytes = randomBytes(10);
  let id = 'PG';
  for (const b of bytes) id += alphabet[b & 31];
  return id;
}

const alreadyUsed = (): Settlement => ({
  kind: 'rejected',
  status: 409,
  code: PaymentErrorCode.transactionAlreadyUsed,
  message: 'That transaction already paid another order.',
});
const underpaid = (): Settlement => ({
  kind: 'rejected',
  status: 422,
  code: PaymentErrorCode.paymentUnderpaid,
  message: 'The transfer carried less than the checkout total, so no order was made. It has been recorded; contact support with your transaction hash.',
});
const needsReview = (_intentId: string | null): Settlement => ({
  kind: 'rejected',
  status: 409,
  code: PaymentErrorCode.paymentNeedsReview,
  message: `Your payment arrived after the checkout expired and some items are no longer available. It has been recorded; contact support with your transaction hash for a refund.`,
});
