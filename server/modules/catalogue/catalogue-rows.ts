/**
 * The catalogue's rows as the shop lists them: products with their variants read in batches
 * (plain queries, no ORM models), and each converted to what shoppers see by the one rule of what
 * is for sale (common/availability), the rule the cart and checkout apply to their lines too.
 */
import type { Model } from 'objection';
import type { Product, Variant } from '../../../common/api';
import { availability, isForSale, type Held, type StockFacts } from '../../../common/availability';
import { normalizeDecimal, parseUnits } from '../../../common/money';
import type { Db } from '../../db';
import { heldFor } from '../stock';
import type { ProductModel, VariantModel } from './models';

/** Products whose rows are read per query pair. */
const READ_BATCH = 500;

/** A product's row with its variants (the models' fields, read without the ORM). */
type VariantRow = Omit<VariantModel, keyof Model>;
export type ProductRow = Omit<ProductModel, keyof Model | 'variants'> & { variants: VariantRow[] };

/**
 * Products with their variants (in their position order), by row id: every product, or only those
 * with the row ids `only`, handed to `each` a batch at a time (so no more than a batch of rows is
 * held at once). Two plain queries per batch; `pause` between batches gives the event loop back.
 */
export async function readCatalogueRows(
  db: Db,
  pause: () => Promise<void>,
  each: (rows: ProductRow[]) => void | Promise<void>,
  only?: readonly number[],
): Promise<void> {
  const wanted = only && [...only].sort((a, b) => a - b);
  for (let after = 0, at = 0; ; at += READ_BATCH) {
    const ids = wanted?.slice(at, at + READ_BATCH);
    if (ids && ids.length === 0) break;
    const batch = (await db('products')
      .modify((q) => (ids ? q.whereIn('id', ids) : q.where('id', '>', after).limit(READ_BATCH)))
      .orderBy('id')) as Array<Record<string, never>>;
    if (batch.length > 0) {
      const first = batch[0].id as number;
      const last = batch[batch.length - 1].id as number;
      const variantRows = (await db('variants')
        .modify((q) => (ids ? q.whereIn('product_id', ids) : q.whereBetween('product_id', [first, last])))
        .orderBy('product_id')
        .orderBy('position')
        .orderBy('id')) as Array<Record<string, never>>;
      const byProduct = new Map<number, VariantRow[]>();
      for (const v of variantRows) {
        const list = byProduct.get(v.product_id);
        const variant = toVariantRow(v);
        if (list) list.push(variant);
        else byProduct.set(v.product_id, [variant]);
      }
      await each(batch.map((p) => ({ ...toProductRow(p), variants: byProduct.get(p.id) ?? [] })));
      after = last;
    }
    if (!ids && batch.length < READ_BATCH) break;
    await pause();
  }
}

const toProductRow = (r: Record<string, never>): Omit<ProductRow, 'variants'> => ({
  id: r.id,
  shopifyGid: r.shopify_gid,
  shopifyId: r.shopify_id,
  handle: r.handle,
  title: r.title,
  customTitle: r.custom_title,
  descriptionHtml: r.description_html,
  vendor: r.vendor,
  productType: r.product_type,
  tags: r.tags,
  images: r.images,
  featuredImageUrl: r.featured_image_url,
  shopifyStatus: r.shopify_status,
  shopifyUpdatedAt: r.shopify_updated_at,
  removedAt: r.removed_at,
  lastSyncedAt: r.last_synced_at,
  updatedAt: r.updated_at,
});

const toVariantRow = (r: Record<string, never>): VariantRow => ({
  id: r.id,
  productId: r.product_id,
  shopifyGid: r.shopify_gid,
  shopifyId: r.shopify_id,
  title: r.title,
  sku: r.sku,
  position: r.position,
  shopifyPrice: r.shopify_price,
  inventoryQuantity: r.inventory_quantity,
  availableForSale: r.available_for_sale,
  imageUrl: r.image_url,
  removedAt: r.removed_at,
  pogPrice: r.pog_price,
  isActive: r.is_active,
  availableStock: r.available_stock,
  isSoldOut: r.is_sold_out,
  updatedAt: r.updated_at,
});

/** The stock facts of a variant's row, as the availability rule takes them. */
const stockFacts = (v: VariantRow): StockFacts => ({
  inventory_quantity: v.inventoryQuantity,
  available_for_sale: v.availableForSale,
  available_stock: v.availableStock,
  is_sold_out: v.isSoldOut,
});

/**
 * A variant as shoppers see it: sold out and the stock left by the one availability rule
 * (common/availability), after what is held for payments on their way and orders Shopify does
 * not have yet.
 */
function toApiVariant(v: VariantRow, held?: Held): Variant {
  const { isSoldOut, availableStock } = availability(stockFacts(v), held);
  return {
    id: v.shopifyId,
    title: v.title,
    price: normalizeDecimal(String(v.pogPrice)),
    isSoldOut,
    availableStock,
    sku: v.sku,
  };
}

const saleFacts = (p: ProductRow, v: VariantRow) => ({
  productStatus: p.shopifyStatus,
  productRemoved: p.removedAt != null,
  variantRemoved: v.removedAt != null,
  isActive: v.isActive,
  pogPrice: v.pogPrice,
});

/** The title shoppers see: the admin's own, else Shopify's. */
export const productTitle = (customTitle: string | null, title: string): string => customTitle?.trim() || title;

/**
 * The product as shoppers see it, with only its variants for sale and `held` (what payments on
 * their way and orders Shopify does not have yet hold, by variant) taken from their stock; null
 * when none of its variants is for sale (the product is not listed).
 */
export function toApiProduct(p: ProductRow, held: Map<string, Held>): Product | null {
  const variants = p.variants.filter((v) => isForSale(saleFacts(p, v))).map((v) => toApiVariant(v, heldFor(held, v.shopifyId)));
  if (variants.length === 0) return null;
  const min = variants.reduce((lo, v) => (parseUnits(v.price) < parseUnits(lo) ? v.price : lo), variants[0].price);
  const images = (p.images ?? []).map((i) => ({ url: i.url, alt: i.alt ?? null }));
  const featured = p.featuredImageUrl ?? images[0]?.url ?? null;
  return {
    id: p.shopifyId,
    title: productTitle(p.customTitle, p.title),
    description: p.descriptionHtml ?? '',
    images,
    featuredImage: featured ? { url: featured } : null,
    variants,
    vendor: p.vendor ?? '',
    productType: p.productType ?? '',
    tags: p.tags ?? [],
    updatedAt: (p.shopifyUpdatedAt ?? p.updatedAt).toISOString(),
    price: min,
    priceRange: { minVariantPrice: { amount: min, currencyCode: 'POG' } },
  };
}
