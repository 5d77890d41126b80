/**
 * The session's cart lines with their variants' and products' current facts: what the cart shows
 * and what a checkout is made from are read by this one query and named by one rule.
 */
import type { Knex } from 'knex';
import { isForSale } from '../../../common/availability';
import { cartLineTitle } from '../../../common/cart';
import { joinVariantFacts, productTitle, type VariantFacts } from '../catalogue';

export interface CartLineRow extends VariantFacts {
  id: string;
  variant_id: string;
  quantity: number;
}

/**
 * The session's lines: 'added' in the order the shopper added them (the cart), 'variant' in
 * variant order (a checkout's items).
 */
export async function cartLineRows(db: Knex | Knex.Transaction, sessionId: string, order: 'added' | 'variant'): Promise<CartLineRow[]> {
  const rows = joinVariantFacts(
    db('cart_items as ci').where('ci.session_id', sessionId).select('ci.id', 'ci.variant_id', 'ci.quantity'),
    'ci.variant_id',
  );
  return order === 'added' ? rows.orderBy('ci.created_at').orderBy('ci.id') : rows.orderBy('variant_row_id');
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
