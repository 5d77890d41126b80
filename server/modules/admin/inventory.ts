/**
 * The inventory the admin edits (the API's inventory item): one item per variant still in Shopify,
 * with its product's fields. Only the admin-owned columns are written here (POG price, active,
 * available stock, sold out, custom title); the catalogue sync never writes those. Every write
 * bumps the catalogue version in its own transaction, so the shop's product list on every
 * instance shows it at once, and records what changed in the audit trail.
 */
import {
  ADMIN_PRODUCTS_DEFAULT_LIMIT,
  inventoryGroups,
  type AdminProductsPage,
  type AdminProductsQuery,
  type InventoryItem,
  type InventoryUpdateRequest,
  type InventoryWriteResult,
} from '../../../common/admin';
import type { SyncJob } from '../../../common/api';
import { availability, isForSale } from '../../../common/availability';
import { cartLineTitle } from '../../../common/cart';
import { ErrorCode } from '../../../common/errors';
import { normalizeDecimal } from '../../../common/money';
import type { Knex } from 'knex';
import type { Db } from '../../db';
import { AppError } from '../../lib/errors';
import { bumpCatalogueVersion, productTitle, type CatalogueService, type SyncStart } from '../catalogue';
import { heldFor, heldUnits } from '../stock';
import { recordAudit, type AuditChange } from './audit';
import { decodeCursor, encodeCursor, heldSoldOut, LIVE_VARIANT, listKey, matchCondition, searchWords } from './product-page';

/** A parsed inventory update (inventoryUpdateSchema's output). */
export type InventoryUpdate = { [K in keyof InventoryUpdateRequest]?: K extends 'pogPrice' ? string | null : InventoryUpdateRequest[K] };

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

export class InventoryAdmin {
  private readonly now: () => Date;

  constructor(
    private readonly db: Db,
    private readonly catalogue: CatalogueService,
    opts: { now?: () => Date } = {},
  ) {
    this.now = opts.now ?? (() => new Date());
  }

  /**
   * Every variant still in Shopify, products in catalogue order and variants in Shopify's, each with
   * its stock as the shop applies it (what payments on their way hold counted).
   */
  async list(db: Db = this.db, filter?: { variantId?: string; productIds?: number[] }): Promise<InventoryItem[]> {
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
    const held = await heldUnits(db, this.now(), filter ? { variantIds: rows.map((r) => r.id) } : {});
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
  async page(query: AdminProductsQuery): Promise<AdminProductsPage> {
    const words = searchWords(query.q);
    const filter = query.status ?? 'all';
    const limit = query.limit ?? ADMIN_PRODUCTS_DEFAULT_LIMIT;
    const key = listKey(words, filter);
    const after = query.cursor === undefined ? 0 : decodeCursor(query.cursor, key);
    const match = matchCondition(words, filter, filter === 'sold-out' ? await heldSoldOut(this.db, this.now()) : []);
    const variants = () => this.db('variants as v').whereRaw(LIVE_VARIANT);
    const matching = (q: Knex.QueryBuilder) => (match.sql === null ? q : q.whereRaw(match.sql, match.bindings));

    // One pass over the variants, grouped by product (a hash, not a sort as count(distinct) would be).
    const perProduct = variants()
      .groupBy('v.product_id')
      .select(
        'v.product_id',
        this.db.raw('count(*) as n'),
        this.db.raw('count(*) filter (where v.pog_price is null) as unpriced'),
        match.sql === null ? this.db.raw('count(*) as m') : this.db.raw(`count(*) filter (where ${match.sql}) as m`, match.bindings),
      );
    const countsQuery = this.db
      .from(perProduct.as('g'))
      .first(
        this.db.raw('count(*) as all_groups'),
        this.db.raw('coalesce(sum(g.n), 0) as all_variants'),
        this.db.raw('coalesce(sum(g.unpriced), 0) as unpriced'),
        this.db.raw('count(*) filter (where g.m > 0) as groups_matching'),
        this.db.raw('coalesce(sum(g.m), 0) as variants_matching'),
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
    const items = ids.length ? await this.list(this.db, { productIds: ids }) : [];
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

  /** Changes a variant's admin fields; records each field that changed, old → new. */
  async update(id: string, update: InventoryUpdate, session: string): Promise<InventoryWriteResult> {
    if (!/^\d{1,20}$/.test(id)) throw notFound(id);
    return this.db.transaction(async (trx) => {
      const row = await trx('variants as v')
        .join('products as p', 'p.id', 'v.product_id')
        .where('v.shopify_id', id)
        .whereNull('v.removed_at')
        .whereNull('p.removed_at')
        .forUpdate()
        .first('v.id', 'v.pog_price', 'v.is_active', 'v.available_stock', 'v.is_sold_out');
      if (!row) throw notFound(id);
      const before = {
        pogPrice: money(row.pog_price),
        isActive: Boolean(row.is_active),
        availableStock: row.available_stock ?? null,
        isSoldOut: Boolean(row.is_sold_out),
      };
      const after = { ...before, ...update, ...('pogPrice' in update ? { pogPrice: money(update.pogPrice) } : {}) };
      const changes: AuditChange[] = (Object.keys(before) as Array<keyof typeof before>)
        .filter((k) => k in update && before[k] !== after[k])
        .map((field) => ({ field, from: before[field], to: after[field] }));
      const at = this.now();
      if (changes.length) {
        await trx('variants').where({ id: row.id }).update({
          pog_price: after.pogPrice,
          is_active: after.isActive,
          available_stock: after.availableStock,
          is_sold_out: after.isSoldOut,
          updated_at: at,
        });
        await bumpCatalogueVersion(trx);
      }
      await recordAudit(trx, { at, action: 'inventory-updated', session, target: id, changes });
      return {
        message: changes.length ? 'Product updated successfully' : 'Nothing to change: the product already has those values',
        items: await this.list(trx, { variantId: id }),
      };
    });
  }

  /**
   * Sets (or, with null, clears) the custom title shoppers see instead of Shopify's: of the product
   * `productId` (a group card's), which must have the Shopify title `originalTitle`, or without it
   * of every product with that title.
   */
  async setCustomTitle(
    originalTitle: string,
    customTitle: string | null,
    session: string,
    productId?: string,
  ): Promise<InventoryWriteResult> {
    return this.db.transaction(async (trx) => {
      const products: Array<{ id: number; shopify_id: string; custom_title: string | null }> = await trx('products')
        .where({ title: originalTitle })
        .modify((q) => {
          if (productId !== undefined) q.where({ shopify_id: productId });
        })
        .whereNull('removed_at')
        .orderBy('id')
        .forUpdate()
        .select('id', 'shopify_id', 'custom_title');
      if (!products.length) {
        throw new AppError(
          ErrorCode.productNotFound,
          productId === undefined
            ? `No product in the inventory has the Shopify title “${originalTitle}”.`
            : `No product ${productId} with the Shopify title “${originalTitle}” is in the inventory.`,
        );
      }
      const changed = products.filter((p) => (p.custom_title ?? null) !== customTitle);
      const at = this.now();
      if (changed.length) {
        await trx('products')
          .whereIn(
            'id',
            changed.map((p) => p.id),
          )
          .update({ custom_title: customTitle, updated_at: at });
        await bumpCatalogueVersion(trx);
      }
      // One entry per product: several Shopify products may share a title.
      const changes: AuditChange[] = changed.map((p) => ({
        field: products.length === 1 ? 'customTitle' : `customTitle (product ${p.shopify_id})`,
        from: p.custom_title ?? null,
        to: customTitle,
      }));
      await recordAudit(trx, {
        at,
        action: customTitle === null ? 'custom-title-cleared' : 'custom-title-set',
        session,
        target: originalTitle,
        changes,
      });
      return {
        message:
          customTitle === null
            ? `Custom title cleared: shoppers see “${originalTitle}”`
            : `Custom title set: shoppers see “${customTitle}”`,
        items: await this.list(trx, { productIds: products.map((p) => p.id) }),
      };
    });
  }

  /** Syncs the catalogue from Shopify now (one sync at a time, as the schedule's) and records the counts before → after. */
  /**
   * 'Sync with Shopify': starts the catalogue sync in the background (or answers the one running);
   * the audit entry is written when the sync this press started has succeeded.
   */
  async startSync(session: string): Promise<SyncStart> {
    const before = await this.catalogue.lastSync();
    return this.catalogue.startSync('admin', async (result) => {
      await recordAudit(this.db, {
        at: this.now(),
        action: 'inventory-synced',
        session,
        target: null,
        changes: (['products', 'variants', 'deactivated'] as const).map((field) => ({
          field,
          from: before?.[field] ?? null,
          to: result[field],
        })),
      });
    });
  }

  /** The latest sync: its phase and progress while it runs, its outcome once ended. */
  syncStatus(): Promise<SyncJob | null> {
    return this.catalogue.syncStatus();
  }
}

function notFound(id: string): AppError {
  const shown = id.length > 40 ? `${id.slice(0, 40)}…` : id;
  return new AppError(ErrorCode.inventoryItemNotFound, `No variant with id "${shown}" in the inventory (ids are Shopify variant ids).`);
}
