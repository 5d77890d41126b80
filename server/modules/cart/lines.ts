/**
 * The session's cart lines with their variants' and products' current facts: what the cart shows
 * and what a checkout is made from are read by this one query and named by one rule.
 */
import type { Knex } from 'knex';
import { isForSale, type StockFacts } from '../../../common/availability';
import { cartLineTitle } from '../../../common/cart';
import { productTitle } from '../catalogue';

export interface CartLineRow extends StockFacts {
  id: string;
  variant_id: string;
  quantity: number;
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

/**
 * The session's lines: 'added' in the order the shopper added them (the cart), 'variant' in
 * variant order (a checkout's items).
 */
export async function cartLineRows(db: Knex | Knex.Transaction, sessionId: string, order: 'added' | 'variant'): Promise<CartLineRow[]> {
  const rows = db('cart_items as ci')
    .join('variants as v', 'v.shopify_id', 'ci.variant_id')
    .join('products as p', 'p.id', 'v.product_id')
    .where('ci.session_id', sessionId)
    .select(
      'ci.id',
      'ci.variant_id',
      'ci.quantity',
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
  return order === 'added' ? rows.orderBy('ci.created_at').orderBy('ci.id') : rows.orderBy('v.id');
}

/** The line's title from its own row (the product list's names are the same rule, maybe a moment older). */
export const lineTitle = (row: CartLineRow): string => cartLineTitle(productTitle(row.custom_title, row.product_title), row.variant_title);

/** Whether the line's variant is for sale at all (the catalogue's rule, read from the line's own row). */
export const lineForSale = (row: CartLineRow): boolean =>
  isForSale({
    productStatus: row.shopify_status,
    productRemoved: row.product_removed_at != null,
    variantRemoved: row.variant_removed_at != null,
    isActive: row.is_active,
    pogPrice: row.pog_price,
  });
