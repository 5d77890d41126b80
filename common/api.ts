/**
 * The HTTP API's shapes, shared by the server (which validates what it sends and receives) and
 * the client (which types what it reads). Field names are the API's documented ones (docs/api.md and the pages it links).
 */
import { z } from 'zod';
import { ADDRESS_PATTERN } from './chain';
import { MAX_QUANTITY, MIN_QUANTITY, QUANTITY_MAX_MESSAGE, QUANTITY_MIN_MESSAGE, QUANTITY_RANGE_MESSAGE } from './cart';
import { payWithSchema } from './swap-pay';

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
  /** The coin's name as the pages use it: '{product} Shop', 'Exclusive {product} pricing'. */
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
  /** The POG token contract and the store wallet every payment goes to (null when payments are off). */
  tokenAddress: z.string().nullable(),
  storeWallet: z.string().nullable(),
  /** The shop's paymaster pays smart wallets' gas for their payments (GET /api/checkout/:id/paymaster answers). */
  gasPaidByShop: z.boolean(),
  /** The coins besides POGS a checkout can be paid with, by a swap (POST /api/checkout/:id/swap-quote); empty: POGS only. */
  payWith: z.array(payWithSchema),
});
export type PublicConfig = z.infer<typeof publicConfigSchema>;

/**
 * GET /api/payments/status: whether paying is paused right now, because the shop cannot reach
 * the chain to see payments (the cart drawer says so and waits before a shopper pays).
 */
export interface PaymentsStatus {
  paused: boolean;
}

export const healthSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  database: z.enum(['postgres', 'pglite']),
  shopify: z.enum(['store', 'emulator']),
  catalogue: z.object({ products: z.number().int(), lastSyncAt: z.string().nullable() }),
  /** The shared services this instance sees down now, and since when (ISO 8601). */
  outages: z.array(z.object({ dependency: z.enum(['database', 'chain', 'shopify']), since: z.string() })),
});
export type Health = z.infer<typeof healthSchema>;

export const syncResultSchema = z.object({
  products: z.number().int(),
  variants: z.number().int(),
  deactivated: z.number().int(),
  /** Pages read (0 for a bulk read). */
  pages: z.number().int(),
  /** How Shopify was read: one bulk query, or page by page (the fallback). */
  method: z.enum(['bulk', 'paged']).optional(),
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
   * Why this line cannot be bought as it stands, in the shop's words ('This item is sold out',
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

export const addToCartSchema = z.strictObject({
  variantId: z.string().regex(/^[1-9]\d{0,19}$/, 'variantId must be a variant id (a whole number, as a string)'),
  quantity: z
    .number({ error: QUANTITY_RANGE_MESSAGE })
    .int(QUANTITY_RANGE_MESSAGE)
    .min(MIN_QUANTITY, QUANTITY_MIN_MESSAGE)
    .max(MAX_QUANTITY, QUANTITY_MAX_MESSAGE),
});
export type AddToCartRequest = z.infer<typeof addToCartSchema>;

// ---------------------------------------------------------------------------------------------
// Checkout and orders (docs/payments.md). The browser only gives hints: every amount is
// re-derived on the server, and an order exists only for a verified on-chain transfer.

export const walletAddressSchema = z.string().regex(ADDRESS_PATTERN, 'a wallet address is 0x followed by 40 hexadecimal characters');
const hexAddress = walletAddressSchema;
const txHash = z.string().regex(/^0x[0-9a-fA-F]{64}$/, 'a transaction hash is 0x followed by 64 hexadecimal characters');
/** Server-made ids (cart lines, checkouts) are random UUIDs. */
export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const uuid = z.string().regex(UUID_RE, 'a checkout id is a UUID');

export const createCheckoutSchema = z.strictObject({
  /**
   * The wallet that will pay. Null or absent for "pay from another wallet": the intent's unique
   * amount alone then identifies the payment, and the order belongs to whoever sent it.
   */
  customerWallet: hexAddress.nullable().optional(),
});
export type CreateCheckoutRequest = z.infer<typeof createCheckoutSchema>;

export const checkoutStatusSchema = z.enum(['open', 'paid', 'expired', 'underpaid']);
export type CheckoutStatus = z.infer<typeof checkoutStatusSchema>;

export const checkoutItemSchema = z.object({
  variantId: z.string(),
  title: z.string(),
  price: z.string(),
  quantity: z.number().int(),
});

export const checkoutSchema = z.object({
  id: z.string(),
  status: checkoutStatusSchema,
  /**
   * The exact amount to send now, as a POG decimal string with every digit, e.g.
   * "25.000000012345678912"; after an underpayment, the remainder's own exact amount.
   */
  amount: z.string(),
  /** The same amount in the token's smallest unit (wei), as a decimal integer string. */
  amountWei: z.string(),
  /** The cart total the shopper sees, two decimals, e.g. "25.00". */
  displayTotal: z.string(),
  /** What the chain has delivered for this checkout so far (every digit; "0.00" before any payment). */
  amountReceived: z.string(),
  /**
   * What is still due of displayTotal, rounded up to the cent ("0.00" once paid). After an
   * underpayment `amount` is this plus a new suffix.
   */
  amountDue: z.string(),
  tokenAddress: z.string(),
  storeWallet: z.string(),
  chainId: z.number().int(),
  /** ISO time after which the reservation lapses (a late payment is still honoured when stock allows). */
  expiresAt: z.string(),
  /** EIP-681: ethereum:<token>@<chainId>/transfer?address=<store>&uint256=<amountWei>. */
  paymentUri: z.string(),
  customerWallet: z.string().nullable(),
  items: z.array(checkoutItemSchema),
  /** Set once a verified transfer paid this checkout. */
  orderId: z.string().nullable(),
  /** The transaction the shopper's wallet reported, if any (a hint; verification decides). */
  transactionHash: z.string().nullable(),
});
export type Checkout = z.infer<typeof checkoutSchema>;

export const checkoutTransactionSchema = z.strictObject({ transactionHash: txHash });

export const createOrderSchema = z.object({
  checkoutId: uuid.optional(),
  /** Sent by older clients; ignored (the server re-derives every line from the checkout). */
  cartItems: z.array(z.unknown()).max(100).optional(),
  transactionHash: txHash,
  /**
   * Sent by older clients; checked for form only. It decides nothing: the transfer's exact
   * amount names the checkout it pays, whoever sent it and whoever asks.
   */
  customerWallet: hexAddress.optional(),
});
export type CreateOrderRequest = z.infer<typeof createOrderSchema>;

/** `refunded`: everything paid for the order went back to the payer (partial refunds leave the status as it was). */
/**
 * A refund the shop sent back to the shopper's wallet, verified on chain. GET /api/refunds?wallet=
 * answers a list of them: refunds sent to the signed-in wallet for payments that made no order (an
 * amount that identified nothing, the part of an underpaid checkout), newest first. Refunds of an
 * order are on the order (`Order.refunds`).
 */
export const refundLineSchema = z.object({
  /** POG, exact decimal string (at least 2 decimals). */
  amount: z.string(),
  txHash: z.string(),
  /** The explorer's page of the refund; null on the local demo chain. */
  explorerUrl: z.string().nullable(),
  at: z.string(),
});
export type RefundLine = z.infer<typeof refundLineSchema>;

export const orderStatusSchema = z.enum(['pending', 'paid', 'confirmed', 'shipped', 'failed', 'draft', 'refunded']);
export type OrderStatus = z.infer<typeof orderStatusSchema>;

export const orderItemSchema = z.object({
  id: z.string(),
  variantId: z.string(),
  title: z.string(),
  price: z.string(),
  quantity: z.number().int(),
});
export type OrderItem = z.infer<typeof orderItemSchema>;

/** A dollar reference as the shop read it: dollars per 1 POGS (a decimal, up to 18 places), at which block, from what. */
const referenceFields = {
  usdPerPogs: z.string().regex(/^\d{1,40}(\.\d{1,18})?$/),
  block: z.number().int().nonnegative(),
  /** Where the figure comes from, for people ("Uniswap v3 POGS/WETH 30-min average × Chainlink ETH/USD"). */
  source: z.string(),
};

/**
 * GET /api/price-reference: the dollar reference shown beside POGS prices ("≈ $12.40", with
 * common/usd-reference.ts), never what is paid. Null when the shop has none it trusts (not
 * configured, or hidden: docs/price-reference.md says when and why).
 */
export const priceReferenceAnswerSchema = z.object({
  reference: z.object({ ...referenceFields, /** When the shop read it (ISO). */ observedAt: z.string() }).nullable(),
});
export type PriceReferenceAnswer = z.infer<typeof priceReferenceAnswerSchema>;

/** The reference an order kept from its payment's block (null when there was none to read). */
export const orderReferenceSchema = z.object(referenceFields).nullable();
export type OrderReference = z.infer<typeof orderReferenceSchema>;

export const orderSchema = z.object({
  id: z.string(),
  status: orderStatusSchema,
  /** Sum of the items, two decimals ("25.00"). */
  total: z.string(),
  /** What the transfer actually carried, every digit ("25.000000000000012345"). */
  amountPaid: z.string(),
  items: z.array(orderItemSchema),
  /** True until Shopify reports the shipping details in. */
  needsShipping: z.boolean(),
  /** Our own stable link (/orders/<id>/shipping) that forwards to Shopify's page for the address. */
  shippingUrl: z.string(),
  /** True once Shopify's page exists, so shippingUrl forwards at once. */
  shippingReady: z.boolean(),
  /**
   * Set while the order waits for the shop instead of going to shipping: 'out-of-stock' when the
   * payment arrived after the items were gone (the shop restocks or refunds). `message` says so plainly.
   */
  hold: z.object({ reason: z.enum(['out-of-stock']), message: z.string() }).nullable(),
  customerWallet: z.string(),
  transactionHash: z.string(),
  /**
   * Refunds the shop sent back for this order, verified on chain, oldest first. The shopper sees
   * "Refunded {amount} POG" for each, with the explorer link (none on the local chain).
   */
  refunds: z.array(refundLineSchema),
  /** The parcel's tracking page once Shopify's fulfilment named one (http or https), else null. */
  trackingUrl: z.string().nullable(),
  blockchain: z.object({ chainId: z.number().int(), transactionHash: z.string(), blockNumber: z.number().int() }),
  /** The dollar reference at the payment's block, kept for the record (what was paid is `amountPaid`, in POGS). */
  reference: orderReferenceSchema,
  createdAt: z.string(),
  processed_at: z.string(),
});
export type Order = z.infer<typeof orderSchema>;

// ---------------------------------------------------------------------------------------------
// Sign-In with Ethereum (EIP-4361) for the order history (docs/payments.md §7). The server
// writes the message; the wallet signs it; the session is then bound to that address.

export const siweNonceSchema = z.object({
  nonce: z.string(),
  /** The exact EIP-4361 text to sign with personal_sign. */
  message: z.string(),
  expiresAt: z.string(),
});
export type SiweNonce = z.infer<typeof siweNonceSchema>;

/**
 * GET /api/checkout/:id/paymaster: what a smart wallet needs to have the shop pay the payment's gas
 * (EIP-5792's paymasterService capability: the service's URL and the checkout's ticket).
 */
export const paymasterCapabilitySchema = z.object({
  url: z.string(),
  context: z.object({ ticket: z.string() }),
});
export type PaymasterCapability = z.infer<typeof paymasterCapabilitySchema>;

/**
 * ...or why the shop will not pay this payment's gas (its daily budget is spent, the wallet is not
 * one it knows, …): the shopper pays it from the wallet, and is told why in `message`.
 */
export const paymasterUnavailableSchema = z.object({
  unavailable: z.object({ reason: z.string(), message: z.string() }),
});
export const paymasterOfferSchema = z.union([paymasterCapabilitySchema, paymasterUnavailableSchema]);
export type PaymasterOffer = z.infer<typeof paymasterOfferSchema>;

export const siweVerifySchema = z.strictObject({
  message: z.string().min(1).max(4000),
  signature: z
    .string()
    .regex(/^0x[0-9a-fA-F]+$/, 'a signature is 0x followed by hexadecimal characters')
    .max(20_000),
});

export const authSessionSchema = z.object({
  /** The signed-in wallet (lower case), or null. */
  address: z.string().nullable(),
  expiresAt: z.string().nullable(),
});
export type AuthSession = z.infer<typeof authSessionSchema>;

// ---------------------------------------------------------------------------------------------
// Catalogue sync jobs (admin only: POST /api/inventory/sync starts one, GET reads the latest). A sync
// runs in the background, one at a time for the whole shop (every server instance).

export const syncJobSchema = z.object({
  id: z.string(),
  status: z.enum(['running', 'succeeded', 'failed']),
  /** Who started it: 'admin' (the button), 'start' / 'first start' (a server starting), 'schedule'. */
  trigger: z.string(),
  /** What it is doing: waiting for Shopify's bulk query, downloading its file, paging, writing. */
  phase: z.enum(['starting', 'bulk-running', 'downloading', 'paging', 'writing', 'done']),
  method: z.enum(['bulk', 'paged']).nullable(),
  productsRead: z.number().int(),
  /** Products in the catalogue, once known. */
  total: z.number().int().nullable(),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  /** Why it failed, in words a person can act on. */
  error: z.string().nullable(),
  result: syncResultSchema.nullable(),
});
export type SyncJob = z.infer<typeof syncJobSchema>;

/** GET /api/inventory/sync: the latest sync (running or ended), or null before the first. */
export const syncStatusSchema = z.object({ job: syncJobSchema.nullable() });
/** POST /api/inventory/sync (202): the job this press started, or the one already running (`started: false`). */
export const syncStartSchema = z.object({ job: syncJobSchema, started: z.boolean() });
export type SyncStatus = z.infer<typeof syncStatusSchema>;
export type SyncStartAnswer = z.infer<typeof syncStartSchema>;

// ---------------------------------------------------------------------------------------------
// Order updates by Web Push (docs/order-updates.md): a signed-in wallet's browsers subscribe.

/** Unpadded base64url (a trailing `=` or two tolerated) of exactly `bytes` bytes. */
const base64urlOf = (bytes: number, what: string) =>
  z
    .string()
    .max(200)
    .transform((s) => s.replace(/=+$/, ''))
    .refine((s) => /^[A-Za-z0-9_-]*$/.test(s) && s.length === Math.ceil((bytes * 4) / 3), `${what} must be ${bytes} bytes in base64url`);

/** A push service's endpoint as a browser gives it: an absolute http(s) URL (the server's rules decide which it calls). */
export const pushEndpointSchema = z
  .string()
  .min(1)
  .max(1024, 'a push endpoint is at most 1,024 characters')
  .refine((s) => URL.canParse(s) && /^https?:$/.test(new URL(s).protocol), 'a push endpoint is an https:// URL');

/** PUT /api/notifications/subscription: what `PushSubscription.toJSON()` gives. */
export const pushSubscriptionSchema = z.object({
  endpoint: pushEndpointSchema,
  expirationTime: z.number().nullable().optional(),
  keys: z.object({
    /** The browser's P-256 public key, uncompressed (65 bytes, starting 0x04: 'B' in base64url). */
    p256dh: base64urlOf(65, 'keys.p256dh').refine((s) => s.startsWith('B'), 'keys.p256dh must be an uncompressed P-256 point'),
    /** The shared authentication secret (16 bytes). */
    auth: base64urlOf(16, 'keys.auth'),
  }),
});
export type PushSubscriptionJson = z.input<typeof pushSubscriptionSchema>;

/** DELETE /api/notifications/subscription, and GET's `?endpoint=`. */
export const pushEndpointBodySchema = z.object({ endpoint: pushEndpointSchema });

/** GET /api/notifications/key: the VAPID public key browsers subscribe with (base64url), null while the shop sends no updates. */
export interface PushKeyAnswer {
  publicKey: string | null;
}

/** GET /api/notifications/subscription?endpoint=: whether that endpoint gets this signed-in wallet's order updates. */
export interface PushSubscriptionStatus {
  subscribed: boolean;
}
