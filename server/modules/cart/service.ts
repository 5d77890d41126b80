/**
 * Session carts. A line stores only the variant and the quantity; its title, image, price and
 * problems are re-read from the catalogue on every read, so a price change or a deactivated
 * variant shows up in the cart, never as a surprise at payment time. Amounts are exact (bigint).
 */
import { randomUUID } from 'node:crypto';
import type { Cart, CartItem } from '../../../common/api';
import { MAX_QUANTITY, UUID_RE } from '../../../common/api';
import { ErrorCode } from '../../../common/errors';
import { formatUnits, normalizeDecimal, parseUnits } from '../../../common/money';
import type { Db } from '../../db';
import { AppError } from '../../lib/errors';
import type { CatalogueService, ListedVariant, ProductListSnapshot } from '../catalogue';
import { onlyAvailableMessage, SOLD_OUT_MESSAGE, UNAVAILABLE_MESSAGE } from '../stock';

export const EMPTY_CART: Cart = Object.freeze({ items: [], total: '0.00' }) as Cart;

interface LineRow {
  id: string;
  variant_id: string;
  quantity: number;
  variant_title: string;
  pog_price: string | null;
  product_id: string;
  product_title: string;
  custom_title: string | null;
  featured_image_url: string | null;
  variant_image_url: string | null;
}

export class CartService {
  constructor(
    private readonly db: Db,
    private readonly catalogue: CatalogueService,
  ) {}

  async get(sessionId: string | null): Promise<Cart> {
    return sessionId ? this.read(sessionId, await this.catalogue.list()) : EMPTY_CART;
  }

  private async read(sessionId: string, snapshot: ProductListSnapshot): Promise<Cart> {
    const rows: LineRow[] = await this.db('cart_items as ci')
      .join('variants as v', 'v.shopify_id', 'ci.variant_id')
      .join('products as p', 'p.id', 'v.product_id')
      .where('ci.session_id', sessionId)
      .orderBy('ci.created_at')
      .orderBy('ci.id')
      .select(
        'ci.id',
        'ci.variant_id',
        'ci.quantity',
        'v.title as variant_title',
        'v.pog_price',
        'v.image_url as variant_image_url',
        'p.shopify_id as product_id',
        'p.title as product_title',
        'p.custom_title',
        'p.featured_image_url',
      );
    let total = 0n;
    const items = rows.map((row) => {
      const item = toCartItem(row, snapshot.variantsById.get(row.variant_id));
      if (item.problem === null) total += parseUnits(item.lineTotal);
      return item;
    });
    return { items, total: formatUnits(total) };
  }

  /**
   * Adds `quantity` of a variant, merging with the line already in the cart. The server decides:
   * the variant must be for sale, not sold out, and the merged quantity within known stock and 10.
   */
  async add(ensureSession: () => Promise<string>, variantId: string, quantity: number): Promise<Cart> {
    const snapshot = await this.catalogue.list();
    const listed = snapshot.variantsById.get(variantId);
    if (!listed) throw new AppError(ErrorCode.variantNotFound, `There is no item ${variantId} for sale. Refresh the shop and try again.`);
    const { variant } = listed;
    if (variant.isSoldOut) throw new AppError(ErrorCode.variantSoldOut, SOLD_OUT_MESSAGE);

    const sessionId = await ensureSession();
    await this.db.transaction(async (trx) => {
      // Serialises this shopper's concurrent adds (two taps, two tabs).
      await trx('sessions').where({ id: sessionId }).forUpdate().first('id');
      const existing = await trx('cart_items').where({ session_id: sessionId, variant_id: variantId }).first('id', 'quantity');
      const inCart = existing?.quantity ?? 0;
      const wanted = inCart + quantity;
      if (variant.availableStock > 0 && wanted > variant.availableStock) {
        throw new AppError(ErrorCode.insufficientStock, onlyAvailableMessage(variant.availableStock));
      }
      if (wanted > MAX_QUANTITY) {
        throw new AppError(
          ErrorCode.quantityLimit,
          `You can have at most ${MAX_QUANTITY} of an item in your cart${inCart ? ` (you already have ${inCart})` : ''}`,
        );
      }
      if (existing) {
        await trx('cart_items').where({ id: existing.id }).update({ quantity: wanted, updated_at: trx.fn.now() });
      } else {
        await trx('cart_items').insert({ id: randomUUID(), session_id: sessionId, variant_id: variantId, quantity });
      }
    });
    return this.read(sessionId, snapshot);
  }

  async remove(sessionId: string | null, itemId: string): Promise<Cart> {
    const deleted =
      sessionId && UUID_RE.test(itemId) ? await this.db('cart_items').where({ id: itemId, session_id: sessionId }).delete() : 0;
    if (!deleted) throw new AppError(ErrorCode.cartItemNotFound, 'That item is not in your cart (it may have been removed already).');
    return this.get(sessionId);
  }
}

function toCartItem(row: LineRow, listed: ListedVariant | undefined): CartItem {
  const productTitle = listed?.product.title ?? (row.custom_title?.trim() || row.product_title);
  const variantTitle = listed?.variant.title ?? row.variant_title;
  const title = variantTitle && variantTitle !== 'Default Title' ? `${productTitle} - ${variantTitle}` : productTitle;
  const image = row.variant_image_url ?? listed?.product.featuredImage?.url ?? row.featured_image_url;
  const base = { id: row.id, variantId: row.variant_id, productId: row.product_id, title, image, quantity: row.quantity };
  if (!listed) {
    const price = row.pog_price ? normalizeDecimal(row.pog_price) : '0.00';
    return { ...base, price, lineTotal: '0.00', problem: UNAVAILABLE_MESSAGE };
  }
  const { variant } = listed;
  const problem = variant.isSoldOut
    ? SOLD_OUT_MESSAGE
    : variant.availableStock > 0 && row.quantity > variant.availableStock
      ? onlyAvailableMessage(variant.availableStock)
      : null;
  return { ...base, price: variant.price, lineTotal: formatUnits(parseUnits(variant.price) * BigInt(row.quantity)), problem };
}
