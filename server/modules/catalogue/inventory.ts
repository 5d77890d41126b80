/**
 * The inventory the admin edits, as the catalogue keeps it: one item per variant still in Shopify,
 * with its product's fields, listed whole or a page of product groups at a time (inventory-page.ts),
 * and the writes of the admin-owned columns (POG price, active, available stock, sold out, custom
 * title), which the sync never writes. Each write takes the caller's transaction (the admin module
 * records its audit entry in the same one) and bumps the catalogue version, so the shop's product
 * list on every instance shows it at once.
 */
import {
  ADMIN_PRODUCTS_DEFAULT_LIMIT,
  inventoryGroups,
  type AdminProductsPage,
  type AdminProductsQuery,
  type InventoryItem,
} from '../../../common/admin';
import { availability, isForSale, stockAfterSale } from '../../../common/availability';
import { cartLineTitle } from '../../../common/cart';
import { normalizeDecimal } from '../../../common/money';
import type { Knex } from 'knex';
import type { Db } from '../../db';
import { heldFor, type StockService } from '../stock';
import { decodeCursor, encodeCursor, heldSoldOut, LIVE_VARIANT, listKey, matchCondition, searchWords } from './inventory-page';
import { productTitle } from './catalogue-rows';
import { bumpCatalogueVersion } from './sync';

const toIso = (d: unknown): string | null => (d == null ? null : new Date(d as string).toISOString());
const money = (v: unknown): string | null => (v == null ? null : normalizeDecimal(String(v)));

/** What list() selects (the database's own types: decimals as text, timestamps as Date or text, JSON maybe as text). */
interface InventoryRow {
  id: string;
  external_id: string;
  variant_title: string;
  sku: string | null;
  inventory_quantity: number | null;
  available_for_sale: boolean;
  available_stock: number | null;
  pog_price: string | null;
  is_active: boolean;
  is_sold_out: boolean;
  updated_at: Date | string;
  product_id: string;
  original_title: string;
  custom_title: string | null;
  shopify_status: string;
  product_type: string | null;
  vendor: string | null;
  images: string | Array<{ url: string; alt?: string | null }> | null;
  last_synced_at: Date | string | null;
}

/**
 * Every variant still in Shopify, products in catalogue order and variants in Shopify's, each with
 * its stock as the shop applies it (what payments on their way hold counted).
 */
export async function listInventory(
  db: Db | Knex.Transaction,
  stock: StockService,
  now: Date,
  filter?: { variantId?: string; productIds?: number[] },
): Promise<InventoryItem[]> {
  const rows: InventoryRow[] = await db('variants as v')
    .join('products as p', 'p.id', 'v.product_id')
    .whereNull('v.removed_at')
    .whereNull('p.removed_at')
    .modify((q) => {
      if (filter?.variantId !== undefined) q.where('v.shopify_id', filter.variantId);
      if (filter?.productIds) q.whereIn('p.id', filter.productIds);
    })
    .orderBy('p.id')
    .orderBy('v.position')
    .orderBy('v.id')
    .select(
      'v.shopify_id as id',
      'v.shopify_gid as external_id',
      'v.title as variant_title',
      'v.sku',
      'v.inventory_quantity',
      'v.available_for_sale',
      'v.available_stock',
      'v.pog_price',
      'v.is_active',
      'v.is_sold_out',
      'v.updated_at',
      'p.shopify_id as product_id',
      'p.title as original_title',
      'p.custom_title',
      'p.shopify_status',
      'p.product_type',
      'p.vendor',
      'p.images',
      'p.last_synced_at',
    );
  const held = await stock.held(db, now, filter ? { variantIds: rows.map((r) => r.id) } : {});
  return rows.map((r) => {
    const pogPrice = money(r.pog_price);
    const images: Array<{ url: string; alt?: string | null }> = typeof r.images === 'string' ? JSON.parse(r.images) : (r.images ?? []);
    return {
      id: r.id,
      externalId: r.external_id,
      productId: r.product_id,
      title: cartLineTitle(productTitle(r.custom_title, r.original_title), r.variant_title),
      originalTitle: r.original_title,
      variantTitle: r.variant_title,
      customTitle: r.custom_title ?? null,
      sku: r.sku ?? null,
      quantity: r.inventory_quantity ?? null,
      availableStock: r.available_stock ?? null,
      pogPrice,
      isActive: Boolean(r.is_active),
      isSoldOut: Boolean(r.is_sold_out),
      inShop: availability(
        {
          inventory_quantity: r.inventory_quantity ?? null,
          available_for_sale: Boolean(r.available_for_sale),
          available_stock: r.available_stock ?? null,
          is_sold_out: Boolean(r.is_sold_out),
        },
        heldFor(held, r.id),
      ),
      forSale: isForSale({
        productStatus: r.shopify_status,
        productRemoved: false,
        variantRemoved: false,
        isActive: Boolean(r.is_active),
        pogPrice,
      }),
      productStatus: r.shopify_status,
      productType: r.product_type ?? '',
      vendor: r.vendor ?? '',
      lastSyncedAt: toIso(r.last_synced_at),
      updatedAt: toIso(r.updated_at)!,
      shopifyData: { images: images.map((i) => ({ url: i.url, alt: i.alt ?? null })) },
    };
  });
}

/**
 * A page of the admin's product groups (product-page.ts): the products with a variant matching
 * the search and the filter, in catalogue order, each with all its variants; on the first page the
 * counts of what matches and of the whole inventory; and the cursor of the next page.
 */
export async function inventoryPage(db: Db, stock: StockService, now: Date, query: AdminProductsQuery): Promise<AdminProductsPage> {
  const words = searchWords(query.q);
  const filter = query.status ?? 'all';
  const limit = query.limit ?? ADMIN_PRODUCTS_DEFAULT_LIMIT;
  const key = listKey(words, filter);
  const after = query.cursor === undefined ? 0 : decodeCursor(query.cursor, key);
  const match = matchCondition(words, filter, filter === 'sold-out' ? await heldSoldOut(db, stock, now) : []);
  const variants = () => db('variants as v').whereRaw(LIVE_VARIANT);
  const matching = (q: Knex.QueryBuilder) => (match.sql === null ? q : q.whereRaw(match.sql, match.bindings));

  // One pass over the variants, grouped by product (a hash, not a sort as count(distinct) would be).
  const perProduct = variants()
    .groupBy('v.product_id')
    .select(
      'v.product_id',
      db.raw('count(*) as n'),
      db.raw('count(*) filter (where v.pog_price is null) as unpriced'),
      match.sql === null ? db.raw('count(*) as m') : db.raw(`count(*) filter (where ${match.sql}) as m`, match.bindings),
    );
  const countsQuery = db
    .from(perProduct.as('g'))
    .first(
      db.raw('count(*) as all_groups'),
      db.raw('coalesce(sum(g.n), 0) as all_variants'),
      db.raw('coalesce(sum(g.unpriced), 0) as unpriced'),
      db.raw('count(*) filter (where g.m > 0) as groups_matching'),
      db.raw('coalesce(sum(g.m), 0) as variants_matching'),
    );
  const pageQuery = variants()
    .modify(matching)
    .modify((q) => (after > 0 ? q.where('v.product_id', '>', after) : q))
    .groupBy('v.product_id')
    .orderBy('v.product_id')
    .limit(limit + 1)
    .select('v.product_id as id');
  // The counts come with the first page (what the headline shows); the next pages skip that pass.
  const [counts, rows] = (await Promise.all([query.cursor === undefined ? countsQuery : null, pageQuery])) as [
    Record<string, unknown> | null,
    Array<{ id: number }>,
  ];
  const ids = rows.slice(0, limit).map((r) => r.id);
  const items = ids.length ? await listInventory(db, stock, now, { productIds: ids }) : [];
  const matched: Set<string> | null =
    match.sql === null || !ids.length
      ? null
      : new Set(
          (await variants().modify(matching).whereIn('v.product_id', ids).select('v.shopify_id as id')).map((r: { id: string }) => r.id),
        );
  return {
    groups: inventoryGroups(items).map(({ productId, title, variants }) => ({
      productId,
      title,
      variants,
      matching: variants.filter((v) => matched === null || matched.has(v.id)).map((v) => v.id),
    })),
    nextCursor: rows.length > limit ? encodeCursor(key, ids.at(-1)!) : null,
    counts: counts && {
      groups: Number(counts.groups_matching),
      variants: Number(counts.variants_matching),
      allGroups: Number(counts.all_groups),
      allVariants: Number(counts.all_variants),
      unpriced: Number(counts.unpriced),
    },
  };
}

/** A variant's admin-owned fields, as the admin edits them. */
export interface VariantAdminFields {
  pogPrice: string | null;
  isActive: boolean;
  availableStock: number | null;
  isSoldOut: boolean;
}

/**
 * The admin fields of the listed variant `shopifyId` (still in Shopify, its product too), its row
 * locked for the caller's transaction until it commits; null when there is no such variant.
 */
export async function lockVariantAdminFields(
  trx: Knex.Transaction,
  shopifyId: string,
): Promise<{ rowId: number; fields: VariantAdminFields } | null> {
  const row = await trx('variants as v')
    .join('products as p', 'p.id', 'v.product_id')
    .where('v.shopify_id', shopifyId)
    .whereNull('v.removed_at')
    .whereNull('p.removed_at')
    .forUpdate()
    .first('v.id', 'v.pog_price', 'v.is_active', 'v.available_stock', 'v.is_sold_out');
  if (!row) return null;
  return {
    rowId: row.id,
    fields: {
      pogPrice: money(row.pog_price),
      isActive: Boolean(row.is_active),
      availableStock: row.available_stock ?? null,
      isSoldOut: Boolean(row.is_sold_out),
    },
  };
}

/** Writes a variant's admin fields (its row locked by lockVariantAdminFields) and bumps the catalogue version. */
export async function writeVariantAdminFields(trx: Knex.Transaction, rowId: number, fields: VariantAdminFields, at: Date): Promise<void> {
  const rows = (await trx('variants')
    .where({ id: rowId })
    .update({
      pog_price: fields.pogPrice,
      is_active: fields.isActive,
      available_stock: fields.availableStock,
      is_sold_out: fields.isSoldOut,
      updated_at: at,
    })
    .returning('product_id')) as Array<{ product_id: number }>;
  await bumpCatalogueVersion(trx, { productIds: rows.map((r) => r.product_id) });
}

/** A product whose custom title the admin may set. */
export interface TitledProduct {
  rowId: number;
  shopifyId: string;
  customTitle: string | null;
}

/**
 * The products still in Shopify with the Shopify title `title` (only `shopifyId` when given), in
 * catalogue order, their rows locked for the caller's transaction.
 */
export async function lockProductsTitled(trx: Knex.Transaction, title: string, shopifyId?: string): Promise<TitledProduct[]> {
  const rows: Array<{ id: number; shopify_id: string; custom_title: string | null }> = await trx('products')
    .where({ title })
    .modify((q) => {
      if (shopifyId !== undefined) q.where({ shopify_id: shopifyId });
    })
    .whereNull('removed_at')
    .orderBy('id')
    .forUpdate()
    .select('id', 'shopify_id', 'custom_title');
  return rows.map((r) => ({ rowId: r.id, shopifyId: r.shopify_id, customTitle: r.custom_title ?? null }));
}

/** Sets (null: clears) the custom title of the products `rowIds` and bumps the catalogue version. */
export async function writeCustomTitle(trx: Knex.Transaction, rowIds: number[], customTitle: string | null, at: Date): Promise<void> {
  await trx('products').whereIn('id', rowIds).update({ custom_title: customTitle, updated_at: at });
  await bumpCatalogueVersion(trx, { productIds: rowIds });
}

/**
 * Takes a paid order's units from the admin's stock numbers, in the caller's transaction (the
 * order's): where a variant's stock is the admin's number it goes down and the last unit switches
 * "Sold out" on (common/availability's stockAfterSale); where it is Shopify's, Shopify lowers it
 * when it gets the order. The caller bumps the catalogue version with the rest of its change.
 */
export async function takeSoldUnits(
  trx: Knex.Transaction,
  lines: ReadonlyArray<{ variant_id: string; quantity: number; available_stock: number | null; is_sold_out: boolean }>,
  at: Date,
): Promise<void> {
  for (const line of lines) {
    const after = stockAfterSale(line, line.quantity);
    if (after)
      await trx('variants')
        .where({ shopify_id: line.variant_id })
        .update({ ...after, updated_at: at });
  }
}
