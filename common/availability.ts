/**
 * "Can this be bought, and how many are left": the one home of the stock rule and its words. Pure
 * (no I/O), so the server (product list, cart, checkout, settlement) and the client (product cards,
 * variant select, add to cart) apply the same rule; the server's stock module adds only what needs
 * the database (the units held for payments on their way).
 *
 * Zero means unknown: a stock of 0 (or none at all) is no known limit (spec: "stock known (>0)"), so
 * it never limits a quantity. "None left" is said by `isSoldOut` instead.
 */
import { parseUnits } from './money';

export const SOLD_OUT_MESSAGE = 'This item is sold out';
export const UNAVAILABLE_MESSAGE = 'This item is no longer available';
export const onlyAvailableMessage = (n: number) => `Only ${n} items available`;
/** What a sold-out product's button, image and variant option say (spec §4–5). */
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

/** Sold out by the catalogue's own flags: the admin's switch, or Shopify no longer sells it. */
export function soldOutByFlags(isSoldOut: boolean, availableForSale: boolean): boolean {
  return isSoldOut || !availableForSale;
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

/** The stock numbers the catalogue keeps for a variant. */
export interface StockFacts {
  available_stock: number | null;
  inventory_quantity: number | null;
}

export interface Held {
  /** Units held by live claims of unpaid checkouts. */
  claimed: number;
  /** Units of orders that took stock Shopify has no order for yet. */
  sold: number;
}

export const NOTHING_HELD: Held = Object.freeze({ claimed: 0, sold: 0 });

/** The stock number that applies (the admin's wins) and whether it is Shopify's inventory. */
export function knownStock(v: StockFacts): { stock: number | null; shopifyTracked: boolean } {
  return v.available_stock != null
    ? { stock: v.available_stock, shopifyTracked: false }
    : { stock: v.inventory_quantity, shopifyTracked: v.inventory_quantity != null };
}

/**
 * Units that can still be sold, or null when no limit is known. Held units come off the stock;
 * sold ones only where the stock is Shopify's inventory (the admin's number is lowered when the
 * order is made).
 */
export function unitsLeft(v: StockFacts, held: Held = NOTHING_HELD): number | null {
  const { stock, shopifyTracked } = knownStock(v);
  const limit = knownLimit(stock);
  if (limit === null) return null;
  return Math.max(limit - held.claimed - (shopifyTracked ? held.sold : 0), 0);
}

/** Whether any of these lines has a known stock limit. */
export function anyLimited(lines: readonly StockFacts[]): boolean {
  return lines.some((l) => unitsLeft(l) !== null);
}

/** A variant as shoppers see it, from its own sold-out flag and `unitsLeft`: none left is sold out; no known limit shows as 0. */
export function shownStock(soldOut: boolean, left: number | null): { isSoldOut: boolean; availableStock: number } {
  return { isSoldOut: soldOut || left === 0, availableStock: left ?? 0 };
}

/** Why `quantity` of a variant cannot be bought (sold out, or more than its known stock), or null. */
export function stockProblem(variant: ShownStock, quantity: number): string | null {
  if (variant.isSoldOut) return SOLD_OUT_MESSAGE;
  const limit = knownLimit(variant.availableStock);
  return limit !== null && quantity > limit ? onlyAvailableMessage(limit) : null;
}

export interface LineFacts {
  for_sale: boolean;
  pog_price: string | null;
  is_sold_out: boolean;
  quantity: number;
}

/** Why a cart line cannot be bought now (in the cart's words), or null. `left` from unitsLeft. */
export function lineProblem(line: LineFacts, left: number | null): string | null {
  if (!line.for_sale || parseUnits(line.pog_price ?? '0') === 0n) return UNAVAILABLE_MESSAGE;
  return stockProblem(shownStock(line.is_sold_out, left), line.quantity);
}

/** The variant select's stock words (spec §5): ' - SOLD OUT', ' - {n} left' when the stock is known, else nothing. */
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
