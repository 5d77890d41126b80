/**
 * Checkout intents (design/payments.md §1): the session's cart turned into an exact, uniquely
 * identifiable amount with its stock reserved until it expires. Every number is re-read from the
 * database here; nothing the browser says about prices is used.
 */
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { UUID_RE, type Checkout, type CheckoutStatus } from '../../../common/api';
import { PaymentErrorCode } from '../../../common/errors';
import { formatUnits, parseUnits } from '../../../common/money';
import type { Db } from '../../db';
import { AppError } from '../../lib/errors';
import { onlyAvailableMessage, SOLD_OUT_MESSAGE, UNAVAILABLE_MESSAGE } from '../cart';
import { paymentUri, randomSuffix } from './amount';

export interface PaymentTarget {
  chainId: number;
  tokenAddress: string;
  storeWallet: string;
}

export interface CheckoutOptions {
  ttlMs: number;
  latePaymentMs: number;
  now?: () => Date;
}

export interface IntentRow {
  id: string;
  session_id: string | null;
  customer_wallet: string | null;
  chain_id: number;
  token_address: string;
  store_wallet: string;
  total_wei: string;
  amount_wei: string;
  status: CheckoutStatus | 'closed';
  expires_at: Date;
  match_until: Date;
  tx_hash_hint: string | null;
}

interface IntentItemRow {
  variant_id: string;
  title: string;
  unit_price: string;
  quantity: number;
}

/** A checkout reused for a repeated request (double tap, dialog reopened) needs this long left. */
const REUSE_MIN_REMAINING_MS = 5 * 60_000;
const SUFFIX_ATTEMPTS = 8;

export class CheckoutService {
  private readonly now: () => Date;

  constructor(
    private readonly db: Db,
    private readonly target: PaymentTarget,
    private readonly options: CheckoutOptions,
  ) {
    this.now = options.now ?? (() => new Date());
  }

  async create(sessionId: string | null, customerWallet: string | null): Promise<Checkout> {
    if (!sessionId) throw cartEmpty();
    const wallet = customerWallet?.toLowerCase() ?? null;
    const id = await this.db.transaction(async (trx) => {
      // Serialises with this shopper's cart changes and other checkouts.
      await trx('sessions').where({ id: sessionId }).forUpdate().first('id');
      const lines = await readCartLines(trx, sessionId);
      if (lines.length === 0) throw cartEmpty();
      const now = this.now();

      const previous: IntentRow | undefined = await trx('checkout_intents')
        .where({ session_id: sessionId, status: 'open' })
        .where('expires_at', '>', now)
        .orderBy('created_at', 'desc')
        .first();
      if (previous && previous.customer_wallet === wallet && previous.expires_at.getTime() - now.getTime() > REUSE_MIN_REMAINING_MS) {
        const items: IntentItemRow[] = await trx('checkout_intent_items').where({ intent_id: previous.id });
        if (sameLines(items, lines)) return previous.id;
      }
      // A new checkout replaces the session's older ones: they stop holding stock but stay
      // payable until match_until. One whose wallet already reported a transaction keeps its
      // reservation: that payment is on its way.
      await trx('checkout_intents')
        .where({ session_id: sessionId, status: 'open' })
        .whereNull('tx_hash_hint')
        .update({ status: 'expired', expires_at: trx.raw('least(expires_at, ?)', [now]), updated_at: now });

      const problems: string[] = [];
      let totalWei = 0n;
      for (const line of lines) {
        const problem = lineProblem(line, await reservedElsewhere(trx, line.variant_id, now, line.shopify_tracked));
        if (problem) problems.push(`${line.title}: ${problem}`);
        else totalWei += parseUnits(line.pog_price!) * BigInt(line.quantity);
      }
      if (problems.length) {
        throw new AppError(409, PaymentErrorCode.cartItemUnavailable, `Some items cannot be bought as they are. ${problems.join('. ')}. Update your cart and try again.`);
      }
      if (totalWei === 0n) throw cartEmpty();

      const intentId = randomUUID();
      const base = {
        id: intentId,
        session_id: sessionId,
        customer_wallet: wallet,
        chain_id: this.target.chainId,
        token_address: this.target.tokenAddress.toLowerCase(),
        store_wallet: this.target.storeWallet.toLowerCase(),
        total_wei: totalWei.toString(),
        status: 'open',
        expires_at: new Date(now.getTime() + this.options.ttlMs),
        match_until: new Date(now.getTime() + this.options.ttlMs + this.options.latePaymentMs),
        created_at: now,
        updated_at: now,
      };
      await insertWithUniqueAmount(trx, base, totalWei);
      await trx('checkout_intent_items').insert(
        lines.map((l) => ({
          intent_id: intentId,
          variant_id: l.variant_id,
          product_id: l.product_id,
          title: l.title,
          unit_price: l.pog_price,
          quantity: l.quantity,
        })),
      );
      return intentId;
    });
    return (await this.get(sessionId, id))!;
  }

  /** The checkout, for the session that made it only. */
  async get(sessionId: string | null, id: string): Promise<Checkout | null> {
    if (!sessionId || !UUID_RE.test(id)) return null;
    const row: IntentRow | undefined = await this.db('checkout_intents').where({ id, session_id: sessionId }).first();
    return row ? this.toApi(row) : null;
  }

  async recordTransactionHint(sessionId: string | null, id: string, txHash: string): Promise<Checkout> {
    const row: IntentRow | undefined =
      sessionId && UUID_RE.test(id) ? await this.db('checkout_intents').where({ id, session_id: sessionId }).first() : undefined;
    if (!row) throw checkoutNotFound();
    if (row.tx_hash_hint !== txHash.toLowerCase()) {
      await this.db('checkout_intents').where({ id }).update({ tx_hash_hint: txHash.toLowerCase(), updated_at: this.now() });
    }
    return (await this.get(sessionId, id))!;
  }

  /** Open intents past their time stop holding stock; expired ones past match_until stop matching. */
  async expire(): Promise<{ expired: number; closed: number }> {
    const now = this.now();
    const expired = await this.db('checkout_intents').where({ status: 'open' }).where('expires_at', '<=', now).update({ status: 'expired', updated_at: now });
    const closed = await this.db('checkout_intents').where({ status: 'expired' }).where('match_until', '<=', now).update({ status: 'closed', updated_at: now });
    return { expired, closed };
  }

  async toApi(row: IntentRow): Promise<Checkout> {
    const [items, order] = await Promise.all([
      this.db('checkout_intent_items').where({ intent_id: row.id }).orderBy('id') as Promise<IntentItemRow[]>,
      this.db('orders').where({ intent_id: row.id }).first('id') as Promise<{ id: string } | undefined>,
    ]);
    const amountWei = BigInt(row.amount_wei);
    const status: CheckoutStatus = row.status === 'closed' ? 'expired' : row.status;
    return {
      id: row.id,
      status,
      amount: formatUnits(amountWei, 18, 18),
      amountWei: amountWei.toString(),
      displayTotal: formatUnits(BigInt(row.total_wei)),
      tokenAddress: row.token_address,
      storeWallet: row.store_wallet,
      chainId: row.chain_id,
      expiresAt: row.expires_at.toISOString(),
      paymentUri: paymentUri(row.token_address, row.chain_id, row.store_wallet, amountWei),
      customerWallet: row.customer_wallet,
      items: items.map((i) => ({ variantId: i.variant_id, title: i.title, price: formatUnits(parseUnits(i.unit_price)), quantity: i.quantity })),
      orderId: order?.id ?? null,
      transactionHash: row.tx_hash_hint,
    };
  }
}

export interface CartLine {
  variant_id: string;
  product_id: string;
  title: string;
  quantity: number;
  pog_price: string | null;
  is_active: boolean;
  is_sold_out: boolean;
  /** Units the shop can sell (the admin's number, else Shopify's inventory); null = no limit known. */
  available_stock: number | null;
  /** True when the stock is Shopify's inventory, which only drops once Shopify has the order. */
  shopify_tracked: boolean;
  for_sale: boolean;
}

/** The stock rule of the shop's product list (catalogue toApiVariant): the admin's number wins. */
export function knownStock(v: { available_stock: number | null; inventory_quantity: number | null }) {
  return v.available_stock != null
    ? { available_stock: v.available_stock, shopify_tracked: false }
    : { available_stock: v.inventory_quantity, shopify_tracked: v.inventory_quantity != null };
}

/** The session's cart lines with their variants locked (in id order, so checkouts never deadlock). */
async function readCartLines(trx: Knex.Transaction, sessionId: string): Promise<CartLine[]> {
  const rows = await trx('cart_items as ci')
    .join('variants as v', 'v.shopify_id', 'ci.variant_id')
    .join('products as p', 'p.id', 'v.product_id')
    .where('ci.session_id', sessionId)
    .orderBy('v.id')
    .forUpdate('v')
    .select(
      'ci.variant_id',
      'ci.quantity',
      'v.title as variant_title',
      'v.pog_price',
      'v.is_active',
      'v.is_sold_out',
      'v.available_stock',
      'v.inventory_quantity',
      'v.available_for_sale',
      'v.removed_at as variant_removed_at',
      'p.shopify_id as product_id',
      'p.title as product_title',
      'p.custom_title',
      'p.removed_at as product_removed_at',
      'p.shopify_status',
    );
  return rows.map((r) => {
    const productTitle = r.custom_title?.trim() || r.product_title;
    return {
      variant_id: r.variant_id,
      product_id: r.product_id,
      title: r.variant_title && r.variant_title !== 'Default Title' ? `${productTitle} - ${r.variant_title}` : productTitle,
      quantity: r.quantity,
      pog_price: r.pog_price,
      is_active: r.is_active,
      is_sold_out: r.is_sold_out || !r.available_for_sale,
      ...knownStock(r),
      for_sale: !r.variant_removed_at && !r.product_removed_at && r.shopify_status === 'ACTIVE' && r.is_active && r.pog_price != null,
    };
  });
}

/**
 * Units of a variant held by other shoppers' open checkouts and, when the stock is Shopify's
 * inventory, by paid orders Shopify does not have yet (the admin's own number is lowered at payment).
 */
export async function reservedElsewhere(
  trx: Knex.Transaction,
  variantId: string,
  now: Date,
  shopifyTracked: boolean,
  exceptIntent?: string,
): Promise<number> {
  const open = trx('checkout_intent_items as i')
    .join('checkout_intents as c', 'c.id', 'i.intent_id')
    .where('i.variant_id', variantId)
    .where('c.status', 'open')
    .where('c.expires_at', '>', now);
  if (exceptIntent) open.whereNot('c.id', exceptIntent);
  const [held] = await open.sum({ n: 'i.quantity' });
  let reserved = Number(held?.n ?? 0);
  if (shopifyTracked) {
    const [sold] = await trx('order_items as i')
      .join('orders as o', 'o.id', 'i.order_id')
      .where('i.variant_id', variantId)
      .where('o.status', 'paid')
      .whereNull('o.shopify_order_id')
      .sum({ n: 'i.quantity' });
    reserved += Number(sold?.n ?? 0);
  }
  return reserved;
}

/** Why a line cannot be bought now (in the cart's words), or null. Known stock counts reservations. */
export function lineProblem(
  line: Pick<CartLine, 'for_sale' | 'is_sold_out' | 'available_stock' | 'quantity' | 'pog_price'>,
  reserved: number,
): string | null {
  if (!line.for_sale || parseUnits(line.pog_price ?? '0') === 0n) return UNAVAILABLE_MESSAGE;
  if (line.is_sold_out) return SOLD_OUT_MESSAGE;
  const stock = line.available_stock ?? 0;
  if (stock > 0 && line.quantity > stock - reserved) {
    const left = Math.max(stock - reserved, 0);
    return left === 0 ? SOLD_OUT_MESSAGE : onlyAvailableMessage(left);
  }
  return null;
}

function sameLines(items: IntentItemRow[], lines: CartLine[]): boolean {
  const key = (v: string, q: number, p: string) => `${v}:${q}:${parseUnits(p)}`;
  const a = items.map((i) => key(i.variant_id, i.quantity, i.unit_price)).sort();
  const b = lines.map((l) => key(l.variant_id, l.quantity, l.pog_price ?? '0')).sort();
  return a.length === b.length && a.every((k, i) => k === b[i]);
}

/** Inserts the intent with total + a random suffix, retrying (in a savepoint) when the amount is taken. */
async function insertWithUniqueAmount(trx: Knex.Transaction, row: Record<string, unknown>, totalWei: bigint): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const amountWei = totalWei + randomSuffix();
    try {
      await trx.transaction(async (sp) => {
        await sp('checkout_intents').insert({ ...row, amount_wei: amountWei.toString() });
      });
      return;
    } catch (err) {
      if ((err as { code?: string }).code !== '23505' || attempt >= SUFFIX_ATTEMPTS) throw err;
    }
  }
}

const cartEmpty = () => new AppError(409, PaymentErrorCode.cartEmpty, 'Your cart is empty. Add items to your cart before proceeding with payment.');
export const checkoutNotFound = () => new AppError(404, PaymentErrorCode.checkoutNotFound, 'There is no such checkout in this browser session. Start the payment again from your cart.');
