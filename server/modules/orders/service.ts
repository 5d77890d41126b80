/**
 * Orders as the shopper sees them (common/api.ts's Order). Only the buyer may read an order: the browser
 * session that paid (and, with Sign-In with Ethereum, the paying wallet).
 */
import type { Order, OrderStatus, RefundLine } from '../../../common/api';
import { ErrorCode } from '../../../common/errors';
import { formatUnits, parseUnits } from '../../../common/money';
import type { Db } from '../../db';
import { AppError } from '../../lib/errors';
import { LISTED_STATUSES, ORDER_SECTIONS, ORDERS_PAGE_SIZE, orderSection } from '../../../common/order-listing';
import { orderReferenceOf } from './price-reference';

export interface OrderRow {
  id: string;
  intent_id: string;
  session_id: string | null;
  customer_wallet: string;
  status: OrderStatus;
  total_wei: string;
  amount_paid_wei: string;
  chain_id: number;
  tx_hash: string;
  log_index: number;
  block_number: string | number;
  needs_shipping: boolean;
  shopify_draft_order_id: string | null;
  shopify_invoice_url: string | null;
  shopify_order_id: string | null;
  hold_reason: string | null;
  tracking_url: string | null;
  /** The dollar reference at the payment's block (decimal text), its block and its source; null when none was read. */
  reference_usd_per_pogs: string | null;
  reference_block: string | number | null;
  reference_source: string | null;
  paid_at: Date;
  created_at: Date;
}

interface OrderItemRow {
  id: number;
  order_id: string;
  variant_id: string;
  title: string;
  unit_price: string;
  quantity: number;
}

interface RefundRow {
  order_id: string | null;
  tx_hash: string;
  amount_wei: string;
  created_at: Date | string;
}

/** Who is asking: the browser session, and the wallet it has proven with Sign-In with Ethereum. */
export interface Viewer {
  sessionId: string | null;
  wallet: string | null;
}

/** The hold of an order paid after its items were gone: the admin restocks or refunds. */
export const OUT_OF_STOCK_HOLD = 'out-of-stock';
export const OUT_OF_STOCK_MESSAGE =
  'Your payment arrived after the last of these items was sold, so this order is on hold. Your payment is safe: the shop will restock the items and send you the shipping form, or refund you in full. Contact support with your order number if you have questions.';

export const ORDER_ID_RE = /^PG[0-9A-Z]{10}$/;

export const orderNotFound = () =>
  new AppError(ErrorCode.orderNotFound, "We couldn't find that order for you. Please check your order history.");

/** Our stable link to the order's shipping form (forwards to Shopify's page once it exists). */
export const shippingPath = (orderId: string) => `/orders/${orderId}/shipping`;

/**
 * The place of an order's section on the orders page (orderSection, in ORDER_SECTIONS' order) in
 * SQL over the orders row `alias`, made from orderSection itself: an order needs shipping as
 * toApi says (needs_shipping and not on hold). Null for a status the page does not list.
 */
function sectionRankSql(alias: string): string {
  const rank = (needsShipping: boolean, status: OrderStatus) =>
    ORDER_SECTIONS.findIndex((s) => s.id === orderSection({ status, needsShipping }));
  const whens = LISTED_STATUSES.flatMap((status) => {
    if (!/^[a-z]+$/.test(status)) throw new Error(`not a status: ${status}`);
    const shipping = rank(true, status);
    const other = rank(false, status);
    return [
      ...(shipping === other
        ? []
        : [`when ${alias}.status = '${status}' and ${alias}.needs_shipping and ${alias}.hold_reason is null then ${shipping}`]),
      `when ${alias}.status = '${status}' then ${other}`,
    ];
  });
  return `(case ${whens.join(' ')} end)`;
}

export class OrdersService {
  constructor(
    private readonly db: Db,
    private readonly options: {
      /** The block explorer transactions link to; null on the local demo chain (no explorer knows it). */
      explorerUrl: string | null;
    },
  ) {}

  async row(id: string): Promise<OrderRow | undefined> {
    return ORDER_ID_RE.test(id) ? this.db('orders').where({ id }).first() : undefined;
  }

  /** The order if the viewer is its buyer: the session that paid, or the wallet that paid, signed in. */
  async forViewer(id: string, viewer: Viewer): Promise<OrderRow | undefined> {
    const row = await this.row(id);
    if (!row) return undefined;
    const bySession = viewer.sessionId !== null && row.session_id === viewer.sessionId;
    const byWallet = viewer.wallet !== null && row.customer_wallet === viewer.wallet;
    return bySession || byWallet ? row : undefined;
  }

  async getForViewer(id: string, viewer: Viewer): Promise<Order> {
    const row = await this.forViewer(id, viewer);
    if (!row) throw orderNotFound();
    return (await this.toApi([row]))[0]!;
  }

  /**
   * A page of the wallet's orders the orders page lists (the caller has checked the wallet is
   * signed in): ORDERS_PAGE_SIZE of them, by section in the page's order and newest first in each,
   * after order `after` (the last of the previous page); `more` when another page follows. 400
   * when `after` is not one of the wallet's listed orders.
   */
  async listForWallet(wallet: string, after?: string): Promise<{ orders: Order[]; more: boolean }> {
    const db = this.db;
    const owner = wallet.toLowerCase();
    const q = db('orders as o')
      .where('o.customer_wallet', owner)
      .whereIn('o.status', LISTED_STATUSES)
      .orderByRaw(`${sectionRankSql('o')}, o.paid_at desc, o.id desc`)
      .limit(ORDERS_PAGE_SIZE + 1)
      .select('o.*');
    if (after !== undefined) {
      const cursor: { rank: number } | undefined = ORDER_ID_RE.test(after)
        ? await db('orders as o')
            .where({ 'o.id': after, 'o.customer_wallet': owner })
            .whereIn('o.status', LISTED_STATUSES)
            .first(db.raw(`${sectionRankSql('o')} as rank`))
        : undefined;
      if (!cursor)
        throw new AppError(
          ErrorCode.badRequest,
          'after must be the id of the last order of the previous page (or leave it out for the first page).',
        );
      // After the cursor's order, at the database's own precision.
      q.where((w) =>
        w
          .whereRaw(`${sectionRankSql('o')} > ?`, [cursor.rank])
          .orWhere((same) =>
            same
              .whereRaw(`${sectionRankSql('o')} = ?`, [cursor.rank])
              .whereRaw('(o.paid_at, o.id) < (select paid_at, id from orders where id = ?)', [after]),
          ),
      );
    }
    const rows: OrderRow[] = await q;
    return { orders: await this.toApi(rows.slice(0, ORDERS_PAGE_SIZE)), more: rows.length > ORDERS_PAGE_SIZE };
  }

  /**
   * Refunds sent to `wallet` for payments that made no order, newest first (the caller has checked
   * the wallet is signed in). A refund of an order is shown on that order.
   */
  async refundsForWallet(wallet: string): Promise<RefundLine[]> {
    const rows: RefundRow[] = await this.db('refunds')
      .where({ to_address: wallet.toLowerCase() })
      .whereNull('order_id')
      .orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .select('order_id', 'tx_hash', 'amount_wei', 'created_at');
    return rows.map((f) => this.refundLine(f));
  }

  private refundLine(f: RefundRow): RefundLine {
    const { explorerUrl } = this.options;
    return {
      amount: formatUnits(BigInt(String(f.amount_wei).split('.')[0]!), 18, 2),
      txHash: f.tx_hash,
      explorerUrl: explorerUrl ? `${explorerUrl}/tx/${f.tx_hash}` : null,
      at: new Date(f.created_at).toISOString(),
    };
  }

  async toApi(rows: OrderRow[]): Promise<Order[]> {
    if (rows.length === 0) return [];
    const ids = rows.map((r) => r.id);
    const items: OrderItemRow[] = await this.db('order_items').whereIn('order_id', ids).orderBy('id');
    const refunds: RefundRow[] = await this.db('refunds')
      .whereIn('order_id', ids)
      .orderBy([{ column: 'created_at' }, { column: 'id' }])
      .select('order_id', 'tx_hash', 'amount_wei', 'created_at');
    return rows.map((r) => {
      const createdAt = r.created_at.toISOString();
      return {
        id: r.id,
        status: r.status,
        total: formatUnits(BigInt(r.total_wei)),
        amountPaid: formatUnits(BigInt(r.amount_paid_wei), 18, 18),
        items: items
          .filter((i) => i.order_id === r.id)
          .map((i) => ({
            id: String(i.id),
            variantId: i.variant_id,
            title: i.title,
            price: formatUnits(parseUnits(i.unit_price)),
            quantity: i.quantity,
          })),
        // An order on hold cannot take shipping details until the shop decides (restock or refund).
        needsShipping: r.needs_shipping && !r.hold_reason,
        shippingUrl: shippingPath(r.id),
        // A refunded order ships nothing: its shipping link never forwards to Shopify's page.
        shippingReady: Boolean(r.shopify_invoice_url) && r.status !== 'refunded',
        hold: r.hold_reason === OUT_OF_STOCK_HOLD ? { reason: 'out-of-stock', message: OUT_OF_STOCK_MESSAGE } : null,
        customerWallet: r.customer_wallet,
        transactionHash: r.tx_hash,
        refunds: refunds.filter((f) => f.order_id === r.id).map((f) => this.refundLine(f)),
        trackingUrl: r.tracking_url ?? null,
        blockchain: { chainId: r.chain_id, transactionHash: r.tx_hash, blockNumber: Number(r.block_number) },
        reference: orderReferenceOf(r),
        createdAt,
        processed_at: r.paid_at.toISOString(),
      };
    });
  }
}
