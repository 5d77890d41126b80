/**
 * The admin's product groups a page at a time (GET /api/admin/products): which variants match a
 * search and a filter, as SQL the database runs over the catalogue (never the whole inventory in
 * memory), and the page cursor.
 *
 * A variant matches when every word of the search is in its product's Shopify title, the product's
 * custom title, its own title or its SKU (case-insensitive, anywhere in them), and it passes the
 * filter. A group (one Shopify product) is listed when any of its variants matches, with all its
 * variants (its bulk actions act on all of them). Groups come in catalogue order (products.id: the
 * order they first came from Shopify), which no edit changes, so a cursor (the last product of a
 * page) lists each group exactly once however titles change between pages.
 */
import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import type { ProductFilter } from '../../../common/admin';
import { availability } from '../../../common/availability';
import { ErrorCode } from '../../../common/errors';
import type { Db } from '../../db';
import { AppError } from '../../lib/errors';
import type { StockService } from '../stock';

/**
 * The variants still in Shopify whose product is too, as a condition on `v` alone (the few removed
 * products hashed once, the same plan whatever the statistics say).
 */
export const LIVE_VARIANT = 'v.removed_at is null and v.product_id not in (select r.id from products r where r.removed_at is not null)';

/** At most this many words of a search count (a search box's words, never a paragraph). */
const MAX_WORDS = 8;

/** The search's words, lower-cased, each once. */
export function searchWords(q: string | undefined): string[] {
  return [...new Set((q ?? '').toLowerCase().split(/\s+/).filter(Boolean))].slice(0, MAX_WORDS);
}

/** A word as a LIKE pattern for "contains" (its %, _ and \ taken literally, with LIKE's default escape). */
const contains = (word: string) => `%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export interface Match {
  /** The condition on `v` (variants), or null when nothing narrows. */
  sql: string | null;
  bindings: string[];
}

/**
 * Which variants match `words` and `filter`, as a condition on `v` (variants). A product's titles
 * are looked up once per word (a hashed subplan), never joined row by row: the plan then stays one
 * pass over the variants even where the table statistics are stale (PGlite has no autovacuum).
 * `sold-out` is the shop's rule (common/availability): the admin's switch, Shopify's verdict where
 * the admin gave no stock, or (`noneLeft`, worked out by `heldSoldOut`) nothing left once the units
 * held for payments on their way are taken off.
 */
export function matchCondition(words: readonly string[], filter: ProductFilter, noneLeft: readonly string[] = []): Match {
  const parts: string[] = [];
  const bindings: string[] = [];
  for (const word of words) {
    const pattern = contains(word);
    parts.push(
      '(v.product_id in (select p.id from products p where lower(p.title) like ? or lower(p.custom_title) like ?) or lower(v.title) like ? or lower(v.sku) like ?)',
    );
    bindings.push(pattern, pattern, pattern, pattern);
  }
  switch (filter) {
    case 'all':
      break;
    case 'active':
      parts.push('v.is_active');
      break;
    case 'inactive':
      parts.push('not v.is_active');
      break;
    case 'unpriced':
      parts.push('v.pog_price is null');
      break;
    case 'sold-out': {
      const held = noneLeft.length ? ` or v.shopify_id in (${noneLeft.map(() => '?').join(', ')})` : '';
      parts.push(`(v.is_sold_out or (coalesce(v.available_stock, 0) <= 0 and not v.available_for_sale)${held})`);
      bindings.push(...noneLeft);
      break;
    }
  }
  return parts.length ? { sql: parts.join(' and '), bindings } : { sql: null, bindings };
}

/**
 * The variants sold out only because what payments on their way hold leaves none of a known stock
 * (the few variants anything holds, judged by the shop's one availability rule).
 */
export async function heldSoldOut(db: Db | Knex.Transaction, stock: StockService, now: Date): Promise<string[]> {
  const held = await stock.held(db, now);
  if (held.size === 0) return [];
  const rows: Array<{
    shopify_id: string;
    inventory_quantity: number | null;
    available_for_sale: boolean;
    available_stock: number | null;
    is_sold_out: boolean;
  }> = await db('variants')
    .whereIn('shopify_id', [...held.keys()])
    .select('shopify_id', 'inventory_quantity', 'available_for_sale', 'available_stock', 'is_sold_out');
  return rows
    .filter(
      (r) =>
        availability(
          {
            inventory_quantity: r.inventory_quantity ?? null,
            available_for_sale: Boolean(r.available_for_sale),
            available_stock: r.available_stock ?? null,
            is_sold_out: Boolean(r.is_sold_out),
          },
          held.get(r.shopify_id),
        ).soldOutBy === 'none-left',
    )
    .map((r) => r.shopify_id);
}

/** What a cursor is bound to: the search's words and the filter (another search's cursor is refused). */
export function listKey(words: readonly string[], filter: ProductFilter): string {
  return createHash('sha256')
    .update(JSON.stringify([words, filter]))
    .digest('base64url')
    .slice(0, 12);
}

/** The cursor after the product row `productRowId`, for the list `key`; opaque to the client. */
export function encodeCursor(key: string, productRowId: number): string {
  return Buffer.from(`${key}.${productRowId}`, 'utf8').toString('base64url');
}

/** The product row a cursor continues after; 400 `invalid-cursor` when it is not this list's. */
export function decodeCursor(cursor: string, key: string): number {
  const m = /^([A-Za-z0-9_-]{12})\.(\d{1,10})$/.exec(
    /^[A-Za-z0-9_-]{1,200}$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString('utf8') : '',
  );
  if (!m)
    throw new AppError(
      ErrorCode.invalidCursor,
      'cursor must be the nextCursor of the previous page, as it was given (or leave it out for the first page)',
    );
  if (m[1] !== key)
    throw new AppError(
      ErrorCode.invalidCursor,
      'This cursor belongs to another search or filter: start again from the first page (leave cursor out) for this one',
    );
  return Number(m[2]);
}
