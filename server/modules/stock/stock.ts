/**
 * Stock: the database side of "can this be bought, and how many are left". The rule itself (known
 * stock, 0 means unknown, line problems and their words) is pure and lives in common/availability;
 * this adds the units held for payments that are not in the stock number yet:
 * - claims: a checkout whose payment is on its way or in holds its items (`stock_claimed_until`)
 *   until its order is made; unpaid checkouts hold nothing, so they never lock a paying shopper out;
 * - sold: orders that took stock Shopify does not know about yet (only where the stock is
 *   Shopify's inventory; the admin's number is lowered when the order is made).
 *
 * The stock module owns no table: the claims are payments' rows and the sales orders', and both of
 * those modules import this one. So each owner reads its own rows (payments' claimedUnitsByVariant,
 * orders' unsyncedSalesByVariant), server/wiring.ts hands those two read functions to a
 * StockService, and the modules that judge stock (the catalogue, payments) are given that service.
 */
import type { Knex } from 'knex';
import { lineProblem, NOTHING_HELD, unitsLeft, type Held, type StockFacts } from '../../../common/availability';

/** Which units a read counts: only these variants (every variant when absent). */
export interface HeldQuery {
  variantIds?: readonly string[];
  /** A checkout whose own claim is left out (the one being judged). */
  exceptIntent?: string;
}

/**
 * The owners' reads of the units they hold, each in the caller's connection or transaction: units
 * per variant (a variant holding none is absent).
 */
export interface HeldReads {
  /** Units claimed by checkouts whose payment is on its way, at `now` (payments). */
  claimed(db: Knex | Knex.Transaction, now: Date, query: HeldQuery): Promise<Map<string, number>>;
  /** Units sold by orders Shopify does not have yet, where the stock is Shopify's (orders). */
  sold(db: Knex | Knex.Transaction, query: Pick<HeldQuery, 'variantIds'>): Promise<Map<string, number>>;
}

/** A checkout's line with its variant's stock facts (payments' lines, their variants locked). */
export interface ClaimLine extends StockFacts {
  variant_id: string;
  title: string;
  unit_price: string;
  quantity: number;
}

export const heldFor = (held: Map<string, Held>, variantId: string): Held => held.get(variantId) ?? NOTHING_HELD;

/** The units held for payments on their way, from the owners' reads (built once, in server/wiring.ts). */
export class StockService {
  constructor(private readonly reads: HeldReads) {}

  /**
   * Units held per variant (all variants when `variantIds` is absent), leaving out `exceptIntent`'s
   * own claim, read in `db` (the caller's transaction when it has one).
   */
  async held(db: Knex | Knex.Transaction, now: Date, query: HeldQuery = {}): Promise<Map<string, Held>> {
    const [claimed, sold] = await Promise.all([this.reads.claimed(db, now, query), this.reads.sold(db, { variantIds: query.variantIds })]);
    const held = new Map<string, Held>();
    const entry = (id: string) => held.get(id) ?? held.set(id, { claimed: 0, sold: 0 }).get(id)!;
    for (const [id, n] of claimed) entry(id).claimed += n;
    for (const [id, n] of sold) entry(id).sold += n;
    return held;
  }

  /**
   * Each line's problem (`lineProblem`, in the cart's words, prefixed with the line's title), other
   * checkouts' claims and unsynced orders counted; empty when every line can be had.
   */
  async lineProblems<L extends StockFacts & { variant_id: string; title: string; quantity: number }>(
    trx: Knex.Transaction,
    now: Date,
    lines: readonly L[],
    facts: (line: L) => { for_sale: boolean; pog_price: string | null },
    exceptIntent?: string,
  ): Promise<string[]> {
    const held = await this.heldForLimited(trx, now, lines, exceptIntent);
    return lines.flatMap((line) => {
      const problem = lineProblem({ ...line, ...facts(line) }, heldFor(held, line.variant_id));
      return problem ? [`${line.title}: ${problem}`] : [];
    });
  }

  /**
   * Whether a checkout's lines can all be had now (the variants must be locked by the caller:
   * payments' lockIntentLines). Returns the first line that cannot, in the cart's words, or null.
   */
  async shortLine(trx: Knex.Transaction, intentId: string, lines: readonly ClaimLine[], now: Date): Promise<string | null> {
    const problems = await this.lineProblems(
      trx,
      now,
      lines,
      // A paid checkout's lines were for sale when it was opened: only their stock is judged now.
      (line) => ({ for_sale: true, pog_price: line.unit_price }),
      intentId,
    );
    return problems[0] ?? null;
  }

  /**
   * What is held of the lines that have a known limit (the others cannot be short of units, so they
   * skip the query), leaving out `exceptIntent`'s own claim.
   */
  private async heldForLimited(
    trx: Knex.Transaction,
    now: Date,
    lines: ReadonlyArray<StockFacts & { variant_id: string }>,
    exceptIntent?: string,
  ): Promise<Map<string, Held>> {
    const limited = lines.filter((l) => unitsLeft(l) !== null).map((l) => l.variant_id);
    return limited.length ? this.held(trx, now, { variantIds: limited, exceptIntent }) : new Map<string, Held>();
  }
}
