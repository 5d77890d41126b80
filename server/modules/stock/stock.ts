/**
 * Stock: the database side of "can this be bought, and how many are left". The rule itself (known
 * stock, 0 means unknown, line problems and their words) is pure and lives in common/availability;
 * this adds the units held for payments that are not in the stock number yet:
 * - claims: a checkout whose payment is on its way or in holds its items (`stock_claimed_until`)
 *   until its order is made; unpaid checkouts hold nothing, so they never lock a paying shopper out;
 * - sold: orders that took stock Shopify does not know about yet (only where the stock is
 *   Shopify's inventory; the admin's number is lowered when the order is made).
 */
import type { Knex } from 'knex';
import { lineProblem, NOTHING_HELD, unitsLeft, type Held, type StockFacts } from '../../../common/availability';

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

/**
 * What is held of the lines that have a known limit (the others cannot be short of units, so they
 * skip the query), leaving out `exceptIntent`'s own claim.
 */
async function heldForLimited(
  trx: Knex.Transaction,
  now: Date,
  lines: ReadonlyArray<StockFacts & { variant_id: string }>,
  exceptIntent?: string,
): Promise<Map<string, Held>> {
  const limited = lines.filter((l) => unitsLeft(l) !== null).map((l) => l.variant_id);
  return limited.length ? heldUnits(trx, now, { variantIds: limited, exceptIntent }) : new Map<string, Held>();
}

/**
 * Each line's problem (`lineProblem`, in the cart's words, prefixed with the line's title), other
 * checkouts' claims and unsynced orders counted; empty when every line can be had.
 */
export async function lineProblems<L extends StockFacts & { variant_id: string; title: string; quantity: number }>(
  trx: Knex.Transaction,
  now: Date,
  lines: readonly L[],
  facts: (line: L) => { for_sale: boolean; pog_price: string | null },
  exceptIntent?: string,
): Promise<string[]> {
  const held = await heldForLimited(trx, now, lines, exceptIntent);
  return lines.flatMap((line) => {
    const problem = lineProblem({ ...line, ...facts(line) }, heldFor(held, line.variant_id));
    return problem ? [`${line.title}: ${problem}`] : [];
  });
}

export interface IntentStockLine extends StockFacts {
  variant_id: string;
  product_id: string;
  title: string;
  unit_price: string;
  quantity: number;
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
 * Whether a checkout's lines can all be had now (the variants must be locked by the caller:
 * lockIntentLines). Returns the first line that cannot, in the cart's words, or null.
 */
export async function shortLine(trx: Knex.Transaction, intentId: string, lines: IntentStockLine[], now: Date): Promise<string | null> {
  const problems = await lineProblems(
    trx,
    now,
    lines,
    // A paid checkout's lines were for sale when it was opened: only their stock is judged now.
    (line) => ({ for_sale: true, pog_price: line.unit_price }),
    intentId,
  );
  return problems[0] ?? null;
}
