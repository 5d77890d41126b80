/**
 * Catalogue sync: reads every Shopify product, then writes them in one transaction. Rows are
 * matched by Shopify id; only the Shopify-owned columns are written, so the admin's POG price,
 * active flag, stock, sold-out flag and custom title survive. Products (and variants) that Shopify
 * no longer returns are marked removed, never deleted: orders may point at them.
 *
 * How it reads: a full sync is one Shopify bulk query (BULK_PRODUCTS_QUERY) by default. Paging
 * through products costs query points against the leaky bucket (a Standard plan restores 100 a
 * second, and a 10-product page costs ~670), so 5,000 products take minutes of waiting; a bulk
 * query is one request, a few polls and one file, whatever the catalogue's size, and has no
 * 25,000-object paging limit. Paged reading stays as the fallback: when Shopify refuses the bulk
 * query (one of this app's runs already), or it fails or takes too long, the same sync pages
 * instead, so a sync still ends.
 *
 * What is written never goes back in time: a product row newer in Shopify's `updatedAt` than the
 * one read (a webhook applied it while the snapshot was on its way) is kept, and so is a stock
 * figure read later than the snapshot. A sync that fails half-way writes nothing, so it never marks
 * the unread rest removed; a product first written after this sync began reading (a webhook) is
 * not marked removed by it either.
 */
import type { Db } from '../../db';
import { incrementState, setState } from '../../lib/app-state';
import { AppError } from '../../lib/errors';
import { ErrorCode } from '../../../common/errors';
import type { SyncResult } from '../../../common/api';
import type { Logger } from '../../lib/logger';
import { announceCommitted, CATALOGUE_CHANNEL, CATALOGUE_VERSION } from './freshness';
import { assembleBulkProducts } from './bulk-products';
import { recordChange, type ChangedProducts } from './change-log';
import {
  BULK_PRODUCTS_QUERY,
  BulkOperationFailed,
  bulkResultRows,
  JsonLinesError,
  PRODUCT_VARIANTS_QUERY,
  PRODUCTS_PAGE_QUERY,
  runBulkQuery,
  ShopifyRequestError,
  type BulkQueryOptions,
  type ProductsPageResult,
  type ProductVariantsResult,
  type ShopifyGraphql,
  type ShopifyProductNode,
} from '../../shopify';

export interface SyncOptions {
  pageSize?: number;
  variantsFirst?: number;
  mediaFirst?: number;
  now?: () => Date;
  /** 'bulk' (default): a bulk query, paging when Shopify refuses it or it fails; 'paged': paging only. */
  method?: 'bulk' | 'paged';
  bulk?: BulkQueryOptions;
}

export type SyncPhase = 'starting' | 'bulk-running' | 'downloading' | 'paging' | 'writing';

/** What a running sync has done so far (the job's status shows it). */
export interface SyncProgress {
  phase: SyncPhase;
  method: 'bulk' | 'paged' | null;
  productsRead: number;
  total: number | null;
}

/** Rows per insert statement (well under Postgres' 65,535 parameters). */
const PRODUCT_BATCH = 500;
const VARIANT_BATCH = 1000;

export async function syncCatalogue(
  db: Db,
  shopify: ShopifyGraphql,
  logger: Logger | undefined,
  opts: SyncOptions = {},
  report: (progress: SyncProgress) => void = () => {},
): Promise<SyncResult> {
  const now = opts.now ?? (() => new Date());
  const startedAt = now();
  const throttledBefore = shopify.waits.throttled;
  const progress: SyncProgress = { phase: 'starting', method: null, productsRead: 0, total: null };
  const update = (change: Partial<SyncProgress>) => {
    Object.assign(progress, change);
    report({ ...progress });
  };

  // 1. Read everything first: a sync that fails half-way must not mark the unread rest as removed.
  let products: ShopifyProductNode[] | null = null;
  let pages = 0;
  let method: 'bulk' | 'paged' = 'paged';
  if ((opts.method ?? 'bulk') === 'bulk') {
    try {
      update({ phase: 'bulk-running', method: 'bulk' });
      const op = await runBulkQuery(shopify, BULK_PRODUCTS_QUERY, {
        ...opts.bulk,
        onPoll: (o) => update({ productsRead: Number(o.rootObjectCount) || 0 }),
      });
      update({ phase: 'downloading', productsRead: 0, total: Number(op.rootObjectCount) || null });
      const assembled = await assembleBulkProducts(bulkResultRows(op, opts.bulk), (n) => {
        if (n % 100 === 0) update({ productsRead: n });
      });
      if (assembled.orphans)
        logger?.warn({ orphans: assembled.orphans }, 'catalogue sync: bulk result lines without their product were skipped');
      products = assembled.products;
      method = 'bulk';
    } catch (err) {
      // Refused (another bulk query runs), failed, expired, too slow or unreadable: page instead.
      if (!(err instanceof BulkOperationFailed || err instanceof ShopifyRequestError || err instanceof JsonLinesError)) throw err;
      logger?.warn({ reason: (err as Error).message }, 'catalogue sync: the bulk query did not succeed; paging instead');
      products = null;
    }
  }
  if (!products) {
    update({ phase: 'paging', method: 'paged', productsRead: 0, total: null });
    ({ products, pages } = await readPaged(shopify, logger, opts, (n) => update({ productsRead: n })));
  }
  update({ phase: 'writing', productsRead: products.length, total: products.length });

  // 2. Write it all in one transaction.
  const syncedAt = now();
  let result!: SyncResult;
  await db.transaction(async (trx) => {
    // One writer at a time across every server instance (webhooks take it too).
    await trx.raw('select pg_advisory_xact_lock(?)', [CATALOGUE_SYNC_LOCK]);
    const before = await catalogueContent(trx);
    const { variants } = await writeProducts(trx, products, { syncedAt, readAt: startedAt });
    const seen = products.map((p) => p.id);
    const deactivated = await trx('products')
      .whereNull('removed_at')
      .where((q) => q.whereNull('last_synced_at').orWhere('last_synced_at', '<', startedAt))
      .modify((q) => (seen.length ? q.whereNotIn('shopify_gid', seen) : q))
      .update({ removed_at: syncedAt, updated_at: syncedAt });

    result = {
      products: products.length,
      variants,
      deactivated,
      pages,
      method,
      throttledWaits: shopify.waits.throttled - throttledBefore,
      startedAt: startedAt.toISOString(),
      finishedAt: now().toISOString(),
    };
    await setState(trx, 'last_sync', result);
    // A sync that brought no change leaves the version: no rebuild, the same ETags for every client.
    if ((await catalogueContent(trx)) !== before) await bumpCatalogueVersion(trx);
  });

  logger?.info(result, 'catalogue sync finished');
  return result;
}

/** Pages through every product (cursor paging; the client waits out throttling). */
async function readPaged(
  shopify: ShopifyGraphql,
  logger: Logger | undefined,
  opts: SyncOptions,
  onRead: (count: number) => void,
): Promise<{ products: ShopifyProductNode[]; pages: number }> {
  let pageSize = opts.pageSize ?? 10;
  const variantsFirst = opts.variantsFirst ?? 50;
  const mediaFirst = opts.mediaFirst ?? 20;
  const products: ShopifyProductNode[] = [];
  let after: string | null = null;
  let pages = 0;
  for (;;) {
    let page: ProductsPageResult;
    try {
      ({ data: page } = await shopify.query<ProductsPageResult>(PRODUCTS_PAGE_QUERY, {
        first: pageSize,
        after,
        variantsFirst,
        mediaFirst,
      }));
    } catch (err) {
      // A page over the single-query cost limit: ask for fewer products at a time.
      if (err instanceof ShopifyRequestError && err.graphQLCodes.includes('MAX_COST_EXCEEDED') && pageSize > 1) {
        pageSize = Math.max(1, Math.floor(pageSize / 2));
        logger?.warn({ pageSize }, 'catalogue sync: query too costly, smaller pages');
        continue;
      }
      throw err;
    }
    pages++;
    for (const product of page.products.nodes) {
      await readRestOfVariants(shopify, product);
      products.push(product);
    }
    onRead(products.length);
    if (!page.products.pageInfo.hasNextPage) break;
    after = page.products.pageInfo.endCursor;
  }
  return { products, pages };
}

/** Reads the variants of `product` beyond its first batch, adding them to it. */
export async function readRestOfVariants(shopify: ShopifyGraphql, product: ShopifyProductNode): Promise<void> {
  let variantPage = product.variants.pageInfo;
  while (variantPage.hasNextPage) {
    const { data } = await shopify.query<ProductVariantsResult>(PRODUCT_VARIANTS_QUERY, {
      id: product.id,
      first: 100,
      after: variantPage.endCursor,
    });
    if (!data.product) break;
    product.variants.nodes.push(...data.product.variants.nodes);
    variantPage = data.product.variants.pageInfo;
  }
}

const chunk = <T>(items: readonly T[], size: number): T[][] =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));

/**
 * Upserts products and their variants in batches (the caller's transaction, holding the catalogue
 * lock). A product whose stored Shopify `updatedAt` is newer than the one read is left as it is,
 * variants included; a variant's stock read before the stored one (`readAt`) does not replace it.
 * The written products' variants that were not read are marked removed. Answers how many products
 * and variants were written, and the written products' row ids.
 */
export async function writeProducts(
  trx: Db,
  products: readonly ShopifyProductNode[],
  at: { syncedAt: Date; readAt: Date },
): Promise<{ products: number; variants: number; productIds: number[] }> {
  const { syncedAt, readAt } = at;
  const written = new Map<string, number>();
  for (const batch of chunk(products, PRODUCT_BATCH)) {
    const rows = batch.map((p) => {
      const images = p.media.nodes
        .filter((m) => m.mediaContentType === 'IMAGE' && m.image?.url)
        .map((m) => ({ url: m.image!.url, alt: m.image!.altText ?? m.alt ?? null }));
      return {
        shopify_gid: p.id,
        shopify_id: p.legacyResourceId,
        handle: p.handle ?? '',
        title: p.title,
        description_html: p.descriptionHtml ?? '',
        vendor: p.vendor ?? '',
        product_type: p.productType ?? '',
        tags: JSON.stringify(p.tags ?? []),
        images: JSON.stringify(images),
        featured_image_url: p.featuredMedia?.image?.url ?? images[0]?.url ?? null,
        shopify_status: p.status,
        shopify_updated_at: p.updatedAt,
        removed_at: null,
        last_synced_at: syncedAt,
        updated_at: syncedAt,
      };
    });
    const returned: Array<{ id: number; shopify_gid: string }> = await trx('products')
      .insert(rows)
      .onConflict('shopify_gid')
      .merge([
        'shopify_id',
        'handle',
        'title',
        'description_html',
        'vendor',
        'product_type',
        'tags',
        'images',
        'featured_image_url',
        'shopify_status',
        'shopify_updated_at',
        'removed_at',
        'last_synced_at',
        'updated_at',
      ])
      // An older read never replaces a newer row (the row stays as it is, and is not returned).
      .whereRaw(
        'products.shopify_updated_at is null or excluded.shopify_updated_at is null or products.shopify_updated_at <= excluded.shopify_updated_at',
      )
      .returning(['id', 'shopify_gid']);
    for (const r of returned) written.set(r.shopify_gid, r.id);
  }

  const variantRows = products.flatMap((p) => {
    const productId = written.get(p.id);
    if (productId === undefined) return [];
    return p.variants.nodes.map((v, position) => ({
      product_id: productId,
      shopify_gid: v.id,
      shopify_id: v.legacyResourceId,
      title: v.title,
      sku: v.sku || null,
      position,
      shopify_price: v.price ?? null,
      inventory_quantity: v.inventoryQuantity,
      available_for_sale: v.availableForSale,
      inventory_read_at: readAt,
      selected_options: JSON.stringify(v.selectedOptions ?? []),
      image_url: v.image?.url ?? null,
      removed_at: null,
      last_synced_at: syncedAt,
      updated_at: syncedAt,
    }));
  });
  // Stock read before the stored figure (a webhook's, newer) keeps the stored one.
  const newerStock = 'variants.inventory_read_at is not null and variants.inventory_read_at > excluded.inventory_read_at';
  for (const batch of chunk(variantRows, VARIANT_BATCH)) {
    await trx('variants')
      .insert(batch)
      .onConflict('shopify_gid')
      .merge({
        product_id: trx.raw('excluded.product_id'),
        shopify_id: trx.raw('excluded.shopify_id'),
        title: trx.raw('excluded.title'),
        sku: trx.raw('excluded.sku'),
        position: trx.raw('excluded.position'),
        shopify_price: trx.raw('excluded.shopify_price'),
        inventory_quantity: trx.raw(`case when ${newerStock} then variants.inventory_quantity else excluded.inventory_quantity end`),
        available_for_sale: trx.raw(`case when ${newerStock} then variants.available_for_sale else excluded.available_for_sale end`),
        inventory_read_at: trx.raw(`case when ${newerStock} then variants.inventory_read_at else excluded.inventory_read_at end`),
        selected_options: trx.raw('excluded.selected_options'),
        image_url: trx.raw('excluded.image_url'),
        removed_at: trx.raw('excluded.removed_at'),
        last_synced_at: trx.raw('excluded.last_synced_at'),
        updated_at: trx.raw('excluded.updated_at'),
      });
  }
  // Variants of the written products that Shopify no longer lists.
  for (const ids of chunk([...written.values()], PRODUCT_BATCH)) {
    await trx('variants')
      .whereIn('product_id', ids)
      .whereNull('removed_at')
      .where((q) => q.whereNull('last_synced_at').orWhere('last_synced_at', '<>', syncedAt))
      .update({ removed_at: syncedAt, updated_at: syncedAt });
  }
  return { products: written.size, variants: variantRows.length, productIds: [...written.values()] };
}

/**
 * A digest of everything the catalogue holds but the sync's own bookkeeping (when each row was
 * last synced or written, when its stock was read): two digests differ exactly when a sync changed
 * something a shopper or an admin could see. One pass over the two tables, in the database.
 */
async function catalogueContent(db: Db): Promise<string> {
  const { rows } = (await db.raw(
    `select md5(coalesce(string_agg(t, E'\\n' order by k), '')) as digest from (
       select 'p' || id as k, (to_jsonb(p) - 'last_synced_at' - 'updated_at')::text as t from products p
       union all
       select 'v' || id, (to_jsonb(v) - 'last_synced_at' - 'updated_at' - 'inventory_read_at')::text from variants v
     ) rows`,
  )) as { rows: Array<{ digest: string }> };
  return rows[0]!.digest;
}

/** Advisory lock key shared by every writer of the catalogue ("POGS" in ASCII). */
export const CATALOGUE_SYNC_LOCK = 0x504f4753;

/**
 * Every change to what shoppers see bumps this, in the change's own transaction (`db` may be one),
 * so every instance's in-memory list notices: Postgres delivers the notification to every listener
 * at commit, and this process's own instances learn the version at commit directly. `changed` names
 * the products the change concerned (by row id, or by their variants' Shopify ids): an instance then
 * reads only those again (change-log.ts). Without it the change may have touched anything, and
 * every instance reads the whole catalogue again.
 */
export async function bumpCatalogueVersion(db: Db, changed?: ChangedProducts): Promise<void> {
  const version = await incrementState(db, CATALOGUE_VERSION);
  await recordChange(db, version, changed);
  await db.raw(`select pg_notify(?, current_schema() || ':' || ?)`, [CATALOGUE_CHANNEL, String(version)]);
  announceCommitted(db, version);
}

export class SyncInProgressError extends AppError {
  constructor() {
    super(ErrorCode.syncInProgress, 'A catalogue sync is already running; try again when it has finished');
  }
}
