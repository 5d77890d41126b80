/**
 * The data of the merchant's webhook events about orders and refunds (docs/webhooks.md), read from
 * the order as it is when the event is first sent. Every amount is an exact decimal string of POGS
 * beside its wei; nothing is a JavaScript number but counts, block numbers and log indexes.
 */
import type { Db } from '../../db';
import { formatUnits, parseUnits } from '../../../common/money';
import { orderReferenceOf } from './price-reference';
import { refundsRecordedBy } from './refund-events';

const pogs = (wei: bigint | string) => formatUnits(BigInt(wei), 18, 2);
const iso = (t: Date | string | null) => (t === null ? null : new Date(t).toISOString());

/** An order with its items, amounts, payment, refunds, Shopify name, tracking page and dollar reference; null when there is none. */
export async function orderEventData(db: Db, orderId: string) {
  const order = await db('orders').where({ id: orderId }).first();
  if (!order) return null;
  const items: Array<{ variant_id: string; title: string; unit_price: string; quantity: number }> = await db('order_items')
    .where({ order_id: orderId })
    .orderBy('id')
    .limit(500)
    .select('variant_id', 'title', 'unit_price', 'quantity');
  const refunds = await refundsRecordedBy(db, 'order_id', [orderId]);
  const refundedWei = refunds.reduce((sum, r) => sum + BigInt(r.amount_wei), 0n);
  return {
    order: {
      id: order.id,
      status: order.status,
      checkoutId: order.intent_id,
      wallet: order.customer_wallet,
      shopifyOrderName: order.shopify_order_name ?? null,
      trackingUrl: order.tracking_url ?? null,
      onHold: order.hold_reason !== null,
      items: items.map((i) => {
        const unitWei = parseUnits(String(i.unit_price));
        return {
          variantId: i.variant_id,
          title: i.title,
          quantity: i.quantity,
          unitPrice: pogs(unitWei),
          unitPriceWei: unitWei.toString(),
        };
      }),
      total: pogs(order.total_wei),
      totalWei: String(order.total_wei),
      amountPaid: pogs(order.amount_paid_wei),
      amountPaidWei: String(order.amount_paid_wei),
      amountRefunded: pogs(refundedWei),
      amountRefundedWei: refundedWei.toString(),
      payment: {
        chainId: order.chain_id,
        txHash: order.tx_hash,
        logIndex: order.log_index,
        blockNumber: Number(order.block_number),
      },
      refunds: refunds.map((r) => ({
        id: String(r.id),
        txHash: r.tx_hash,
        amount: pogs(r.amount_wei),
        amountWei: r.amount_wei,
        at: iso(r.created_at),
      })),
      /** The dollar value of one POGS at the payment's block, when the shop read one (never part of what was paid). */
      reference: orderReferenceOf(order),
      paidAt: iso(order.paid_at),
      createdAt: iso(order.created_at),
    },
  };
}

/** A recorded refund: the transfer and order it refunds, where it went, how much, its transaction; null when there is none. */
export async function refundEventData(db: Db, refundId: string) {
  if (!/^\d{1,18}$/.test(refundId)) return null;
  const r = await db('refunds').where({ id: refundId }).first();
  if (!r) return null;
  return {
    refund: {
      id: String(r.id),
      transferId: String(r.transfer_id),
      orderId: r.order_id ?? null,
      to: r.to_address,
      amount: pogs(r.amount_wei),
      amountWei: String(r.amount_wei),
      chainId: r.chain_id,
      txHash: r.tx_hash,
      logIndex: r.log_index,
      blockNumber: Number(r.block_number),
      at: iso(r.created_at),
    },
  };
}
