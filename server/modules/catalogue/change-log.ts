/**
 * Which products each catalogue version changed (the `catalogue_changes` table), so an instance can
 * bring its in-memory list from the version it has to a newer one by reading only those products'
 * rows instead of the whole catalogue.
 *
 * bumpCatalogueVersion writes one row per version, in the change's own transaction: the row ids of
 * the products it concerned (given as product row ids, or as Shopify variant ids, resolved here), or
 * null, "anything" (a sync, the demo pricing, any change that does not say what it touched). The
 * version's row lock serialises bumps, so when an instance reads version v every version up to v is
 * committed, its row with it. Every SWEEP_EVERY versions the rows older than the last CHANGES_KEPT
 * are deleted: an instance further behind than that (or one that finds any version without its row)
 * rebuilds its list from every row, as it does after a sync.
 */
import type { Db } from '../../db';

/** What a change concerned: products by row id and variants by Shopify id (each only its product counts). */
export interface ChangedProducts {
  productIds?: readonly number[];
  variantIds?: readonly string[];
}

/** How many of the newest versions' rows are kept. */
export const CHANGES_KEPT = 1000;
/** Older rows are deleted once every this many versions. */
export const SWEEP_EVERY = 100;
/**
 * The most products a new version reads again, as a share of the list (and at least 100): past it
 * (a bulk change) reading every product costs about the same, so the list is read in full.
 */
export const UPDATE_SHARE = 0.25;

/** Records what `version` changed (undefined: anything), in the caller's transaction. */
export async function recordChange(db: Db, version: number, changed: ChangedProducts | undefined): Promise<void> {
  let ids: number[] | null = null;
  if (changed) {
    const found = new Set(changed.productIds ?? []);
    const variants = [...new Set(changed.variantIds ?? [])];
    if (variants.length > 0) {
      const rows = (await db('variants').whereIn('shopify_id', variants).distinct('product_id')) as Array<{ product_id: number }>;
      for (const row of rows) found.add(Number(row.product_id));
    }
    ids = [...found].sort((a, b) => a - b);
  }
  await db('catalogue_changes')
    .insert({ version, product_ids: ids && db.raw('?::integer[]', [`{${ids.join(',')}}`]) })
    .onConflict('version')
    .merge();
  if (version % SWEEP_EVERY === 0)
    await db('catalogue_changes')
      .where('version', '<=', version - CHANGES_KEPT)
      .delete();
}

/**
 * The row ids of the products the versions after `after` up to `upTo` changed; null when that is not
 * known: a version without its row (swept, or older than this log) or one that changed anything.
 */
export async function changedSince(db: Db, after: number, upTo: number): Promise<Set<number> | null> {
  if (upTo - after > CHANGES_KEPT) return null;
  const rows = (await db('catalogue_changes').where('version', '>', after).where('version', '<=', upTo).select('product_ids')) as Array<{
    product_ids: number[] | string | null;
  }>;
  // Versions are whole numbers, one row each: as many rows as versions means none is missing.
  if (rows.length !== upTo - after) return null;
  const ids = new Set<number>();
  for (const row of rows) {
    if (row.product_ids === null) return null;
    for (const id of parseIds(row.product_ids)) ids.add(id);
  }
  return ids;
}

/** An integer[] as the driver gives it: an array (pg), or Postgres' text form `{1,2}`. */
function parseIds(value: number[] | string): number[] {
  if (Array.isArray(value)) return value.map(Number);
  const inner = value.replace(/^\{|\}$/g, '');
  return inner ? inner.split(',').map(Number) : [];
}
