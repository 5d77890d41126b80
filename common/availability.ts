/**
 * "Can this be bought, and how many are left": the one home of the stock rule and its words. Pure
 * (no I/O), so the server (product list, cart, checkout, settlement, the admin's inventory) and the
 * client (product cards, variant select, add to cart) apply the same rule; the server's stock
 * module adds only what needs the database (the units held for payments on their way).
 *
 * How Shopify's quantity and the admin's settings combine (`availability`):
 * 1. The stock is the admin's number when it is above 0, else Shopify's quantity. A stock of 0 or
 *    less, or none, is no known limit ("stock known (>0)"), so it never limits a quantity.
 * 2. Sold out, in this order: the admin's "Sold out" switch is on; or the admin gave no number
 *    above 0 and Shopify would not sell the variant (its `availableForSale` is false: none left,
 *    and not sold when out of stock); or a known stock has nothing left once the units held are
 *    taken off.
 * So the admin's number above 0 overrides Shopify's verdict: a variant Shopify has none of sells
 * until that number runs out, and the sale of its last unit switches "Sold out" on
 * (`stockAfterSale`), so Shopify's quantity does not take over again.
 */
import { parseUnits } from './money';

export const SOLD_OUT_MESSAGE = 'This item is sold out';
export const UNAVAILABLE_MESSAGE = 'This item is no longer available';
export const onlyAvailableMessage = (n: number) => `Only ${n} items available`;
/** What a sold-out product's button, image and variant option say. */
export const SOLD_OUT_LABEL = 'SOLD OUT';

/** What the catalogue knows of a variant and its product that decides whether it is sold at all. */
export interface SaleFacts {
  /** Shopify's product status: only ACTIVE products are sold. */
  productStatus: string;
  /** The product or the variant is gone from Shopify. */
  productRemoved: boolean;
  variantRemoved: boolean;
  /** The admin activated the variant… */
  isActive: boolean;
  /** …and priced it in POG. */
  pogPrice: string | null;
}

/** For sale: an ACTIVE product still in Shopify, with a variant still there that the admin activated and priced. */
export function isForSale(f: SaleFacts): boolean {
  return f.productStatus === 'ACTIVE' && !f.productRemoved && !f.variantRemoved && f.isActive && f.pogPrice != null;
}

/** The known stock limit, or null when the number is 0, negative or missing (unknown). */
export function knownLimit(stock: number | null | undefined): number | null {
  return typeof stock === 'number' && stock > 0 ? stock : null;
}

/** A variant's stock as shoppers see it (the API's `isSoldOut` and `availableStock`). */
export interface ShownStock {
  isSoldOut?: boolean | null;
  availableStock?: number | null;
}

/** Everything the catalogue keeps about a variant's stock: Shopify's facts and the admin's settings. */
export interface StockFacts {
  /** Shopify's inventory quantity; null when Shopify does not track it. */
  inventory_quantity: number | null;
  /** Shopify's `availableForSale`: false when Shopify would not sell the variant now. */
  available_for_sale: boolean;
  /** The admin's stock number; null when the admin set none (0 is no number either). */
  available_stock: number | null;
  /** The admin's "Sold out" switch. */
  is_sold_out: boolean;
}

export interface Held {
  /** Units held by live claims of unpaid checkouts. */
  claimed: number;
  /** Units of orders that took stock Shopify has no order for yet. */
  sold: number;
}

export const NOTHING_HELD: Held = Object.freeze({ claimed: 0, sold: 0 });

/** Whose number is the stock: the admin's (above 0), else Shopify's quantity (when tracked), else nobody's. */
export type StockSource = 'admin' | 'shopify' | null;

/** Why a variant is sold out: the admin's switch, Shopify's verdict, or no units left of a known stock. */
export type SoldOutReason = 'admin' | 'shopify' | 'none-left';

/** The stock number that applies and whose it is (the admin's above 0 wins). */
export function stockSource(v: Pick<StockFacts, 'available_stock' | 'inventory_quantity'>): { stock: number | null; from: StockSource } {
  if (knownLimit(v.available_stock) !== null) return { stock: v.available_stock, from: 'admin' };
  if (v.inventory_quantity != null) return { stock: v.inventory_quantity, from: 'shopify' };
  return { stock: null, from: null };
}

/**
 * Units that can still be sold, or null when no limit is known. Held units come off the stock;
 * sold ones only where the stock is Shopify's quantity (the admin's number is lowered when the
 * order is made).
 */
export function unitsLeft(v: Pick<StockFacts, 'available_stock' | 'inventory_quantity'>, held: Held = NOTHING_HELD): number | null {
  const { stock, from } = stockSource(v);
  const limit = knownLimit(stock);
  if (limit === null) return null;
  return Math.max(limit - held.claimed - (from === 'shopify' ? held.sold : 0), 0);
}

/** Whether any of these lines has a known stock limit. */
export function anyLimited(lines: ReadonlyArray<Pick<StockFacts, 'available_stock' | 'inventory_quantity'>>): boolean {
  return lines.some((l) => unitsLeft(l) !== null);
}

/** A variant's availability: what shoppers see (`isSoldOut`, `availableStock`) and, for the admin, why. */
export interface Availability {
  isSoldOut: boolean;
  /** Units left; 0 when no limit is known (shoppers are then limited by nothing but the cart's 10). */
  availableStock: number;
  /** Why it is sold out (null when it is not). */
  soldOutBy: SoldOutReason | null;
  /** Whose number limits it: the admin's or Shopify's; null when no limit is known. */
  stockFrom: StockSource;
}

/** The rule (see the top of this file): the one answer to "is it sold out, and how many are left". */
export function availability(v: StockFacts, held: Held = NOTHING_HELD): Availability {
  const { from } = stockSource(v);
  const left = unitsLeft(v, held);
  const soldOutBy: SoldOutReason | null = v.is_sold_out
    ? 'admin'
    : from !== 'admin' && !v.available_for_sale
      ? 'shopify'
      : left === 0
        ? 'none-left'
        : null;
  return { isSoldOut: soldOutBy !== null, availableStock: left ?? 0, soldOutBy, stockFrom: left === null ? null : from };
}

/**
 * What a paid order taking `quantity` units does to the admin's settings: where the stock is the
 * admin's number it goes down, and the last unit switches "Sold out" on (so Shopify's quantity does
 * not take over again). Null where the stock is Shopify's: it drops when Shopify gets the order.
 */
export function stockAfterSale(
  v: Pick<StockFacts, 'available_stock' | 'is_sold_out'>,
  quantity: number,
): { available_stock: number; is_sold_out: boolean } | null {
  const stock = knownLimit(v.available_stock);
  if (stock === null) return null;
  const left = Math.max(stock - quantity, 0);
  return { available_stock: left, is_sold_out: v.is_sold_out || left === 0 };
}

/** Why `quantity` of a variant cannot be bought (sold out, or more than its known stock), or null. */
export function stockProblem(variant: ShownStock, quantity: number): string | null {
  if (variant.isSoldOut) return SOLD_OUT_MESSAGE;
  const limit = knownLimit(variant.availableStock);
  return limit !== null && quantity > limit ? onlyAvailableMessage(limit) : null;
}

export interface LineFacts extends StockFacts {
  for_sale: boolean;
  pog_price: string | null;
  quantity: number;
}

/** Why a cart line cannot be bought now (in the cart's words), or null; `held`: what others hold of its variant. */
export function lineProblem(line: LineFacts, held: Held = NOTHING_HELD): string | null {
  if (!line.for_sale || parseUnits(line.pog_price ?? '0') === 0n) return UNAVAILABLE_MESSAGE;
  return stockProblem(availability(line, held), line.quantity);
}

/** The variant select's stock words: ' - SOLD OUT', ' - {n} left' when the stock is known, else nothing. */
export function stockSuffix(variant: ShownStock): string {
  if (variant.isSoldOut) return ` - ${SOLD_OUT_LABEL}`;
  const limit = knownLimit(variant.availableStock);
  return limit === null ? '' : ` - ${limit} left`;
}

/** The short availability line under a product's controls. */
export function availabilityNote(variant: ShownStock | null): string {
  if (!variant) return 'Choose a variant to see availability';
  if (variant.isSoldOut) return 'This variant is sold out';
  const limit = knownLimit(variant.availableStock);
  return limit === null ? 'Available to order' : `${limit} in stock`;
}
