/**
 * The HTTP API's shapes, shared by the server (which validates what it sends and receives) and
 * the client (which types what it reads). Field names follow the product spec, section 3.
 */
import { z } from 'zod';

export const productImageSchema = z.object({ url: z.string(), alt: z.string().nullable() });
export type ProductImage = z.infer<typeof productImageSchema>;

export const variantSchema = z.object({
  id: z.string(),
  title: z.string(),
  /** POG price as a decimal string, e.g. "25.00". */
  price: z.string(),
  isSoldOut: z.boolean(),
  /** Units the shop knows it can sell; 0 when unknown or none. */
  availableStock: z.number().int(),
  sku: z.string().nullable(),
});
export type Variant = z.infer<typeof variantSchema>;

export const productSchema = z.object({
  id: z.string(),
  title: z.string(),
  /** Shopify's descriptionHtml: may contain markup and entities. */
  description: z.string(),
  images: z.array(productImageSchema),
  featuredImage: z.object({ url: z.string() }).nullable(),
  variants: z.array(variantSchema),
  vendor: z.string(),
  productType: z.string(),
  tags: z.array(z.string()),
  updatedAt: z.string(),
  /** Lowest POG price of the listed variants. */
  price: z.string(),
  priceRange: z.object({ minVariantPrice: z.object({ amount: z.string(), currencyCode: z.literal('POG') }) }),
});
export type Product = z.infer<typeof productSchema>;

/** Product ids are Shopify's numeric product ids. */
export const productIdSchema = z.string().regex(/^[1-9]\d{0,19}$/, 'a product id is a positive whole number');

export const publicConfigSchema = z.object({
  shopName: z.string(),
  /** The coin's name as the spec uses it: '{product} Shop', 'Exclusive {product} pricing'. */
  productName: z.string(),
  tokenSymbol: z.string(),
  currencyLabel: z.string(),
  tokenDecimals: z.number().int(),
  chainId: z.number().int(),
  chainName: z.string(),
  explorerUrl: z.string(),
  communityUrl: z.string(),
  brandUrl: z.string(),
  walletConnectProjectId: z.string().nullable(),
  /** Public Base RPC offered to wallets through wallet_addEthereumChain. */
  chainRpcUrl: z.string(),
  /** True only with the embedded local chain: a Demo Wallet backed by a funded dev account. */
  demoWallet: z.boolean(),
  /** 'local' when the embedded demo chain / Shopify emulator are in use. */
  mode: z.enum(['local', 'live']),
});
export type PublicConfig = z.infer<typeof publicConfigSchema>;

export const healthSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  database: z.enum(['postgres', 'pglite']),
  shopify: z.enum(['store', 'emulator']),
  catalogue: z.object({ products: z.number().int(), lastSyncAt: z.string().nullable() }),
});
export type Health = z.infer<typeof healthSchema>;

export const syncResultSchema = z.object({
  products: z.number().int(),
  variants: z.number().int(),
  deactivated: z.number().int(),
  pages: z.number().int(),
  throttledWaits: z.number().int(),
  startedAt: z.string(),
  finishedAt: z.string(),
});
export type SyncResult = z.infer<typeof syncResultSchema>;

// ---------------------------------------------------------------------------------------------
// Cart (anonymous session cookie). Every price and total is re-read from the catalogue on each
// read; nothing the client sends decides a price.

export const cartItemSchema = z.object({
  /** The line's id (use it to remove the line). */
  id: z.string(),
  variantId: z.string(),
  productId: z.string(),
  /** Product title, plus the variant title unless it is Shopify's "Default Title". */
  title: z.string(),
  image: z.string().nullable(),
  /** Current POG unit price, decimal string. */
  price: z.string(),
  quantity: z.number().int(),
  /** price × quantity, exact decimal string. */
  lineTotal: z.string(),
  /**
   * Why this line cannot be bought as it stands, in the spec's words ('This item is sold out',
   * 'Only {n} items available', 'This item is no longer available'), or null.
   */
  problem: z.string().nullable(),
});
export type CartItem = z.infer<typeof cartItemSchema>;

export const cartSchema = z.object({
  items: z.array(cartItemSchema),
  /** Sum of the lines that can be bought (problem === null), POG decimal string. */
  total: z.string(),
});
export type Cart = z.infer<typeof cartSchema>;

export const MAX_QUANTITY = 10;

export const addToCartSchema = z.strictObject({
  variantId: z.string().regex(/^[1-9]\d{0,19}$/, 'variantId must be a variant id (a whole number, as a string)'),
  quantity: z
    .number({ error: 'quantity must be a whole number from 1 to 10' })
    .int('quantity must be a whole number from 1 to 10')
    .min(1, 'quantity must be at least 1')
    .max(MAX_QUANTITY, `quantity must be at most ${MAX_QUANTITY}`),
});
export type AddToCartRequest = z.infer<typeof addToCartSchema>;
