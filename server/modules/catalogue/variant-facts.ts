/**
 * A variant's current facts (its title, price, stock and sale state, and its product's), joined
 * onto another module's query by the variant's Shopify id: the cart reads its lines with them in
 * one query, without naming the catalogue's tables itself; payments locks a checkout's variants
 * with their stock the same way (lockVariantStock).
 */
import type { Knex } from 'knex';
import type { StockFacts } from '../../../common/availability';

export interface VariantFacts extends StockFacts {
  /** The variant's row id: its place in the catalogue's order. */
  variant_row_id: number;
  variant_title: string;
  pog_price: string | null;
  variant_image_url: string | null;
  is_active: boolean;
  variant_removed_at: Date | null;
  product_id: string;
  product_title: string;
  custom_title: string | null;
  featured_image_url: string | null;
  product_removed_at: Date | null;
  shopify_status: string;
}

/** Joins each row's variant (named by the Shopify variant id in `variantIdColumn`) and selects its VariantFacts. */
export function joinVariantFacts(query: Knex.QueryBuilder, variantIdColumn: string): Knex.QueryBuilder {
  return query
    .join('variants as v', 'v.shopify_id', variantIdColumn)
    .join('products as p', 'p.id', 'v.product_id')
    .select(
      'v.id as variant_row_id',
      'v.title as variant_title',
      'v.pog_price',
      'v.image_url as variant_image_url',
      'v.is_active',
      'v.is_sold_out',
      'v.available_stock',
      'v.inventory_quantity',
      'v.available_for_sale',
      'v.removed_at as variant_removed_at',
      'p.shopify_id as product_id',
      'p.title as product_title',
      'p.custom_title',
      'p.featured_image_url',
      'p.removed_at as product_removed_at',
      'p.shopify_status',
    );
}

/**
 * Joins each row's variant (named by the Shopify variant id in `variantIdColumn`), selects its
 * stock facts and locks the variant rows for the caller's transaction, in the variants' row-id
 * order: every caller locking several variants takes them in this one order, so two concurrent
 * ones (two payments for the last units) wait for each other instead of deadlocking.
 */
export function lockVariantStock(query: Knex.QueryBuilder, variantIdColumn: string): Knex.QueryBuilder {
  return query
    .join('variants as v', 'v.shopify_id', variantIdColumn)
    .orderBy('v.id')
    .forUpdate('v')
    .select('v.available_stock', 'v.inventory_quantity', 'v.is_sold_out', 'v.available_for_sale');
}
