/**
 * "Can this be bought, and how many are left": one home for the stock rule, used by the product
 * list, the cart, checkout and settlement alike.
 *
 * A variant's stock is the admin's number when set, else Shopify's inventory; zero or unknown
 * means no limit is known (spec: "stock known (>0)"). From it the shop subtracts the units held
 * for payments that are not in that number yet:
 * - claims: a checkout whose payment is on its way or in holds its items (`stock_claimed_until`)
 *   until its order is made; unpaid checkouts hold nothing, so they never lock a paying shopper out;
 * - sold: orders that took stock Shopify does not know about yet (only where the stock is
 *   Shopify's inventory; the admin's number is lowered when the order is made).
 */
import type { Knex } from 'knex';
import { parseUnits } from '../../../common/money';

export const SOLD_OUT_MESSAGE = 'This item is sold out';
export const UNAVAILABLE_MESSAGE = 'This item is no longer available';
export const onlyAvailableMessage = (n: number) => `Only ${n} items available`;

export interface StockFacts {
  available_stock: number | null;
  inventory_quantity: number | null;
}

export interface Held {
  /** Units held by live claims of unpaid checkouts. */
  claimed: number;
  /** Units of orders that took stock Shopify has no order for yet. */
  sold: number;
}

const NOTHING_HELD: Held = Object.freeze({ claimed: 0, sold: 0 });

/** The stock number that applies (the admin's wins) and whether it is Shopify's inventory. */
export function knownStock(v: StockFacts): { stock: number | null; shopifyTracked: boolean } {
  return v.available_stock != null
    ? { stock: v.available_stock, shopifyTracked: false }
    : { stock: v.inventory_quantity, shopifyTracked: v.inventory_quantity != null };
}

/** Units that can still be sold, or null when no limit is known. */
export function unitsLeft(v: StockFacts, held: Held = NOTHING_HELD): number | null {
  const { stock, shopifyTracked } = knownStock(v);
  if (stock == null || stock <= 0) return null;
  return Math.max(stock - held.claimed - (shopifyTracked ? held.sold : 0), 0);
}

export interface LineFacts {
  for_sale: boolean;
  pog_price: string | null;
  is_sold_out: boolean;
  quantity: number;
}

/** Why `line` cannot be bought now (in the cart's words), or null. `left` from unitsLeft. */
export function lineProblem(line: LineFacts, left: number | null): string | null {
  if (!line.for_sale || parseUnits(line.pog_price ?? '0') === 0n) return UNAVAILABLE_MESSAGE;
  if (line.is_sold_out) return SOLD_OUT_MESSAGE;
  if (left != null && line.quantity > left) return left === 0 ? SOLD_OUT_MESSAGE : onlyAvailableMessage(left);
  return null;
}

/**
 * Units held per variant (all variants when `variantIds` is null), leaving out `exceptIntent`'s
 * own claim.
 */
export async function heldUnits(
  db: Knex | Knex.Transaction,
  now: Date,
  opts: { variantIds?: readonly string[]; exceptIntent?: string } = {},
): Promise<Map<string, Held>> {
  const claims = db('checkout_intent_items as i')
    .join('checkout_intents as c', 'c.id', 'i.intent_id')
    .where('c.stock_claimed_until', '>', now)
    .whereNot('c.status', 'paid')
    .groupBy('i.variant_id')
    .select('i.variant_id', db.raw('sum(i.quantity) as n'));
  const sold = db('order_items as i')
    .join('orders as o', 'o.id', 'i.order_id')
    .where('o.stock_taken', true)
    .whereIn('o.status', ['paid', 'confirmed'])
    .whereNull('o.shopify_order_id')
    .groupBy('i.variant_id')
    .select('i.variant_id', db.raw('sum(i.quantity) as n'));
  if (opts.exceptIntent) claims.whereNot('c.id', opts.exceptIntent);
  if (opts.variantIds) {
    claims.whereIn('i.variant_id', opts.variantIds);
    sold.whereIn('i.variant_id', opts.variantIds);
  }
  const [claimRows, soldRows] = await Promise.all([claims, sold]);
  const held = new Map<string, Held>();
  const entry = (id: string) => held.get(id) ?? held.set(id, { claimed: 0, sold: 0 }).get(id)!;
  for (const r of claimRows as Array<{ variant_id: string; n: unknown }>) entry(r.variant_id).claimed += Number(r.n);
  for (const r of soldRows as Array<{ variant_id: string; n: unknown }>) entry(r.variant_id).sold += Number(r.n);
  return held;
}

export const heldFor = (held: Map<string, Held>, variantId: string): Held => held.get(variantId) ?? NOTHING_HELD;

export interface IntentStockLine extends StockFacts {
  variant_id: string;
  product_id: string;
  title: string;
  unit_price: string;
  quantity: number;
  is_sold_out: boolean;
  available_for_sale: boolean;
}

/** A checkout's lines with their variants locked (in id order, so concurrent claims never deadlock). */
export async function lockIntentLines(trx: Knex.Transaction, intentId: string): Promise<IntentStockLine[]> {
  return trx('checkout_intent_items as i')
    .join('variants as v', 'v.shopify_id', 'i.variant_id')
    .where('i.intent_id', intentId)
    .orderBy('v.id')
    .forUpdate('v')
    .select(
      'i.variant_id',
      'i.product_id',
      'i.title',
      'i.unit_price',
      'i.quantity',
      'v.available_stock',
      'v.inventory_quantity',
      'v.is_sold_out',
      'v.available_for_sale',
    );
}

/**
 * Whether a checkout's lines can all be had now, other checkouts' claims and unsynced orders
 * counted (the variants must be locked by the caller: lockIntentLines). Returns the first line
 * that cannot, in the cart's words, or null.
 */
export async function shortLine(trx: Knex.Transaction, intentId: string, lines: IntentStockLine[], now: Date): Promise<string | null> {
  // Only lines with a known limit can be short of units: the others skip the held-units query.
  const limited = lines.filter((l) => unitsLeft(l) !== null).map((l) => l.variant_id);
  const held = limited.length ? await heldUnits(trx, now, { variantIds: limited, exceptIntent: intentId }) : new Map<string, Held>();
  for (const line of lines) {
    const problem = lineProblem(
      { for_sale: true, pog_price: line.unit_price, is_sold_out: line.is_sold_out || !line.available_for_sale, quantity: line.quantity },
      unitsLeft(line, heldFor(held, line.variant_id)),
    );
    if (problem) return `${line.title}: ${problem}`;
  }
  return null;
}

/** Whether any of these lines has a known stock limit (what is held of it shows in the product list). */
export function anyLimited(lines: readonly StockFacts[]): boolean {
  return lines.some((l) => unitsLeft(l) !== null);
}
