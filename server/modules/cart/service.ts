/**
 * Session carts. A line stores only the variant and the quantity; its title, image, price and
 * problems are re-read from the catalogue on every read, so a price change or a deactivated
 * variant shows up in the cart, never as a surprise at payment time. Amounts are exact (bigint).
 */
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { Cart, CartItem } from '../../../common/api';
import { UUID_RE } from '../../../common/api';
import { SOLD_OUT_MESSAGE, stockProblem, UNAVAILABLE_MESSAGE } from '../../../common/availability';
import { cartLineTitle, lineLimitMessage, MAX_QUANTITY } from '../../../common/cart';
import { ErrorCode } from '../../../common/errors';
import { formatUnits, normalizeDecimal, parseUnits } from '../../../common/money';
import type { Db } from '../../db';
import { AppError } from '../../lib/errors';
import type { Logger } from '../../lib/logger';
import type { CatalogueService, ListedVariant, ProductListSnapshot } from '../catalogue';
import { cartLineRows, lineTitle, type CartLineRow } from './lines';
import { lockSession } from '../session';
import { CartAnswers, EMPTY_CART, type CartAnswer } from './answers';

export class CartService {
  /** GET /api/cart's answers, kept per session where that is exact (answers.ts). */
  readonly answers: CartAnswers;

  constructor(
    private readonly db: Db,
    private readonly catalogue: CatalogueService,
    logger?: Logger,
  ) {
    this.answers = new CartAnswers(db, catalogue, (sessionId, snapshot) => this.read(sessionId, snapshot), logger);
  }

  async get(sessionId: string | null): Promise<Cart> {
    return sessionId ? this.read(sessionId, await this.catalogue.list()) : EMPTY_CART;
  }

  /** The cart as GET /api/cart answers it: its JSON and ETag, from memory when kept and current. */
  answer(sessionId: string | null): Promise<CartAnswer> {
    return this.answers.answer(sessionId);
  }

  private async read(sessionId: string, snapshot: ProductListSnapshot): Promise<Cart> {
    const rows = await cartLineRows(this.db, sessionId, 'added');
    let total = 0n;
    const items = rows.map((row) => {
      const item = toCartItem(row, snapshot.variantsById.get(row.variant_id));
      if (item.problem === null) total += parseUnits(item.lineTotal);
      return item;
    });
    return { items, total: formatUnits(total) };
  }

  /** Stops listening for cart changes (shutdown, a test's end). */
  close(): Promise<void> {
    return this.answers.close();
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
      await lockSession(trx, sessionId);
      const existing = await trx('cart_items').where({ session_id: sessionId, variant_id: variantId }).first('id', 'quantity');
      const inCart = existing?.quantity ?? 0;
      const wanted = inCart + quantity;
      // Sold out was refused above: what is left to refuse is more than the known stock.
      const short = stockProblem(variant, wanted);
      if (short) throw new AppError(ErrorCode.insufficientStock, short);
      if (wanted > MAX_QUANTITY) throw new AppError(ErrorCode.quantityLimit, lineLimitMessage(inCart));
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

/**
 * A checkout of the session's cart was paid: its lines (`variantIds`) leave the cart, in the
 * caller's transaction (settlement's, with the order). Lines added after the checkout began stay.
 */
export async function removeBoughtLines(trx: Knex.Transaction, sessionId: string, variantIds: readonly string[]): Promise<void> {
  await trx('cart_items').where({ session_id: sessionId }).whereIn('variant_id', variantIds).delete();
}

function toCartItem(row: CartLineRow, listed: ListedVariant | undefined): CartItem {
  const title = listed ? cartLineTitle(listed.product.title, listed.variant.title) : lineTitle(row);
  const image = row.variant_image_url ?? listed?.product.featuredImage?.url ?? row.featured_image_url;
  const base = { id: row.id, variantId: row.variant_id, productId: row.product_id, title, image, quantity: row.quantity };
  if (!listed) {
    const price = row.pog_price ? normalizeDecimal(row.pog_price) : '0.00';
    return { ...base, price, lineTotal: '0.00', problem: UNAVAILABLE_MESSAGE };
  }
  const { variant } = listed;
  const problem = stockProblem(variant, row.quantity);
  return { ...base, price: variant.price, lineTotal: formatUnits(parseUnits(variant.price) * BigInt(row.quantity)), problem };
}
