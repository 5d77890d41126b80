/**
 * Catalogue sync: pages through every Shopify product (cursor paging, throttling handled by
 * ShopifyGraphql), then writes them in one transaction. Rows are matched by Shopify id; only the
 * Shopify-owned columns are written, so the admin's POG price, active flag, stock, sold-out flag and
 * custom title survive. Products (and variants) that Shopify no longer returns are marked removed,
 * never deleted: orders may point at them.
 */
import type { Db } from '../../db';
import { incrementState, setState } from '../../lib/app-state';
import { AppError } from '../../lib/errors';
import { ErrorCode } from '../../../common/errors';
import type { SyncResult } from '../../../common/api';
import type { Logger } from '../../lib/logger';
import { announceCommitted, CATALOGUE_CHANNEL, CATALOGUE_VERSION } from './freshness';
import {
  PRODUCT_VARIANTS_QUERY,
  PRODUCTS_PAGE_QUERY,
  ShopifyRequestError,
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
}

export async function syncCatalogue(
  db: Db,
  shopify: ShopifyGraphql,
  logger: Logger | undefined,
  opts: SyncOptions = {},
): Promise<SyncResult> {
  const now = opts.now ?? (() => new Date());
  const startedAt = now();
  let pageSize = opts.pageSize ?? 10;
  const variantsFirst = opts.variantsFirst ?? 50;
  const mediaFirst = opts.mediaFirst ?? 20;
  const throttledBefore = shopify.waits.throttled;

  // 1. Read everything first: a sync that fails half-way must not mark the unread rest as removed.
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
      products.push(product);
    }
    if (!page.products.pageInfo.hasNextPage) break;
    after = page.products.pageInfo.endCursor;
  }

  // 2. Write it all in one transaction.
  const syncedAt = now();
  let variantCount = 0;
  let deactivated = 0;
  let result!: SyncResult;
  await db.transaction(async (trx) => {
    // One writer at a time across every server instance.
    await trx.raw('select pg_advisory_xact_lock(?)', [CATALOGUE_SYNC_LOCK]);
    const seenProducts: string[] = [];
    for (const p of products) {
      const images = p.media.nodes
        .filter((m) => m.mediaContentType === 'IMAGE' && m.image?.url)
        .map((m) => ({ url: m.image!.url, alt: m.image!.altText ?? m.alt ?? null }));
      const featured = p.featuredMedia?.image?.url ?? images[0]?.url ?? null;
      const [row] = await trx('products')
        .insert({
          shopify_gid: p.id,
          shopify_id: p.legacyResourceId,
          handle: p.handle ?? '',
          title: p.title,
          description_html: p.descriptionHtml ?? '',
          vendor: p.vendor ?? '',
          product_type: p.productType ?? '',
          tags: JSON.stringify(p.tags ?? []),
          images: JSON.stringify(images),
          featured_image_url: featured,
          shopify_status: p.status,
          shopify_updated_at: p.updatedAt,
          removed_at: null,
          last_synced_at: syncedAt,
          updated_at: syncedAt,
        })
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
        .returning('id');
      const productId = typeof row === 'object' ? row.id : row;
      seenProducts.push(p.id);

      const seenVariants: string[] = [];
      for (const [position, v] of p.variants.nodes.entries()) {
        await trx('variants')
          .insert({
            product_id: productId,
            shopify_gid: v.id,
            shopify_id: v.legacyResourceId,
            title: v.title,
            sku: v.sku || null,
            position,
            shopify_price: v.price ?? null,
            inventory_quantity: v.inventoryQuantity,
            available_for_sale: v.availableForSale,
            selected_options: JSON.stringify(v.selectedOptions ?? []),
            image_url: v.image?.url ?? null,
            removed_at: null,
            last_synced_at: syncedAt,
            updated_at: syncedAt,
          })
          .onConflict('shopify_gid')
          .merge([
            'product_id',
            'shopify_id',
            'title',
            'sku',
            'position',
            'shopify_price',
            'inventory_quantity',
            'available_for_sale',
            'selected_options',
            'image_url',
            'removed_at',
            'last_synced_at',
            'updated_at',
          ]);
        seenVariants.push(v.id);
        variantCount++;
      }
      await trx('variants')
        .where({ product_id: productId })
        .whereNull('removed_at')
        .modify((q) => (seenVariants.length ? q.whereNotIn('shopify_gid', seenVariants) : q))
        .update({ removed_at: syncedAt, updated_at: syncedAt });
    }
    deactivated = await trx('products')
      .whereNull('removed_at')
      .modify((q) => (seenProducts.length ? q.whereNotIn('shopify_gid', seenProducts) : q))
      .update({ removed_at: syncedAt, updated_at: syncedAt });

    result = {
      products: products.length,
      variants: variantCount,
      deactivated,
      pages,
      throttledWaits: shopify.waits.throttled - throttledBefore,
      startedAt: startedAt.toISOString(),
      finishedAt: now().toISOString(),
    };
    await setState(trx, 'last_sync', result);
    await bumpCatalogueVersion(trx);
  });

  logger?.info(result, 'catalogue sync finished');
  return result;
}

/** Advisory lock key shared by every writer of the catalogue ("POGS" in ASCII). */
export const CATALOGUE_SYNC_LOCK = 0x504f4753;

/**
 * Every change to what shoppers see bumps this, in the change's own transaction (`db` may be one),
 * so every instance's in-memory list notices: Postgres delivers the notification to every listener
 * at commit, and this process's own instances learn the version at commit directly.
 */
export async function bumpCatalogueVersion(db: Db): Promise<void> {
  const version = await incrementState(db, CATALOGUE_VERSION);
  await db.raw(`select pg_notify(?, current_schema() || ':' || ?)`, [CATALOGUE_CHANNEL, String(version)]);
  announceCommitted(db, version);
}

export class SyncInProgressError extends AppError {
  constructor() {
    super(ErrorCode.syncInProgress, 'A catalogue sync is already running; try again when it has finished');
  }
}
