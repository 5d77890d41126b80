/**
 * Shopify's product webhooks, applied within the delivery: products/create and products/update
 * make the shop read that product again through the Admin API (the body is only a trigger, so one
 * code path builds catalogue rows), products/delete marks it removed, and inventory_levels/update
 * reads the variant's stock again (a variant the shop has not seen brings its whole product).
 * Writes go through the sync's writeProducts, so they never go back in time (Shopify's
 * `updatedAt`, the stock's read time) and touch only the Shopify-owned columns; each change bumps
 * the catalogue version in the delivery's transaction, naming the product it changed. The HMAC check and duplicate handling are
 * the webhook endpoint's (modules/orders/webhooks.ts), which hands these topics here.
 */
import { z } from 'zod';
import type { Db } from '../../db';
import type { Logger } from '../../lib/logger';
import { INVENTORY_ITEM_QUERY, PRODUCT_QUERY, type InventoryItemResult, type ProductResult, type ShopifyGraphql } from '../../shopify';
import { bumpCatalogueVersion, CATALOGUE_SYNC_LOCK, readRestOfVariants, writeProducts, type SyncOptions } from './sync';

/** The catalogue's topics, as in the X-Shopify-Topic header. */
export const CATALOGUE_WEBHOOK_TOPICS = ['products/create', 'products/update', 'products/delete', 'inventory_levels/update'] as const;

const restId = z.union([z.number().int().nonnegative(), z.string().regex(/^\d{1,20}$/)]).transform(String);
const bodySchema = z.object({
  id: restId.optional(),
  admin_graphql_api_id: z.string().max(200).optional(),
  inventory_item_id: restId.optional(),
});

const productGid = (body: z.infer<typeof bodySchema>): string | null => {
  if (body.admin_graphql_api_id && /^gid:\/\/shopify\/Product\/\d{1,20}$/.test(body.admin_graphql_api_id)) return body.admin_graphql_api_id;
  return body.id ? `gid://shopify/Product/${body.id}` : null;
};

/** A change to make in the delivery's transaction; answers what it did (for the log). */
export type CatalogueChange = (trx: Db) => Promise<string>;

export class CatalogueWebhooks {
  readonly topics: readonly string[] = CATALOGUE_WEBHOOK_TOPICS;

  constructor(
    private readonly db: Db,
    private readonly shopify: ShopifyGraphql,
    private readonly logger: Logger | undefined,
    private readonly opts: SyncOptions = {},
  ) {}

  /** Reads what the delivery needs from Shopify; answers the change to make, or null (nothing to do). */
  async prepare(topic: string, raw: unknown): Promise<CatalogueChange | null> {
    const body = bodySchema.safeParse(raw).data;
    if (!body) return null;
    if (topic === 'inventory_levels/update') {
      if (!body.inventory_item_id) return null;
      return this.stockChange(`gid://shopify/InventoryItem/${body.inventory_item_id}`);
    }
    const gid = productGid(body);
    if (!gid) return null;
    if (topic === 'products/delete') return removal(gid);
    return this.productChange(gid);
  }

  private async productChange(gid: string): Promise<CatalogueChange> {
    const readAt = new Date();
    const { data } = await this.shopify.query<ProductResult>(PRODUCT_QUERY, {
      id: gid,
      variantsFirst: this.opts.variantsFirst ?? 50,
      mediaFirst: this.opts.mediaFirst ?? 20,
    });
    const product = data.product;
    // Gone again by the time it was read: as good as deleted.
    if (!product) return removal(gid);
    await readRestOfVariants(this.shopify, product);
    return async (trx) => {
      await trx.raw('select pg_advisory_xact_lock(?)', [CATALOGUE_SYNC_LOCK]);
      const written = await writeProducts(trx, [product], { syncedAt: readAt, readAt });
      if (!written.products) return 'kept the newer stored product';
      await bumpCatalogueVersion(trx, { productIds: written.productIds });
      return 'product written';
    };
  }

  private async stockChange(itemGid: string): Promise<CatalogueChange | null> {
    const readAt = new Date();
    const { data } = await this.shopify.query<InventoryItemResult>(INVENTORY_ITEM_QUERY, { id: itemGid });
    const variant = data.inventoryItem?.variant;
    if (!variant) return null;
    const known = await this.db('variants').where({ shopify_gid: variant.id }).first('id');
    if (!known) {
      this.logger?.info({ variant: variant.id }, 'stock webhook for a variant not seen yet: reading its product');
      return this.productChange(variant.product.id);
    }
    return async (trx) => {
      await trx.raw('select pg_advisory_xact_lock(?)', [CATALOGUE_SYNC_LOCK]);
      const changed = (await trx('variants')
        .where({ shopify_gid: variant.id })
        .where((q) => q.whereNull('inventory_read_at').orWhere('inventory_read_at', '<=', readAt))
        .update({
          inventory_quantity: variant.inventoryQuantity,
          available_for_sale: variant.availableForSale,
          inventory_read_at: readAt,
          updated_at: readAt,
        })
        .returning('product_id')) as Array<{ product_id: number }>;
      if (!changed.length) return 'kept the newer stored stock';
      await bumpCatalogueVersion(trx, { productIds: changed.map((r) => r.product_id) });
      return 'stock written';
    };
  }
}

function removal(gid: string): CatalogueChange {
  return async (trx) => {
    await trx.raw('select pg_advisory_xact_lock(?)', [CATALOGUE_SYNC_LOCK]);
    const at = new Date();
    const changed = (await trx('products')
      .where({ shopify_gid: gid })
      .whereNull('removed_at')
      .update({ removed_at: at, updated_at: at })
      .returning('id')) as Array<{ id: number }>;
    if (!changed.length) return 'nothing to remove';
    await bumpCatalogueVersion(trx, { productIds: changed.map((r) => r.id) });
    return 'product removed';
  };
}
