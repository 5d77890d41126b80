/**
 * The admin area's HTTP API: password login with a server-enforced lockout, the
 * inventory the admin edits, custom titles and the audit trail. Shared by the server (which
 * validates every request with these schemas) and the client (which types what it reads). The
 * password and its hash never leave the server; the admin session is an httpOnly cookie.
 */
import { z } from 'zod';

/** The admin session lasts 4 hours from login, whatever the admin does meanwhile. */
export const ADMIN_SESSION_TTL_MS = 14_400_000;
/** Failed logins from one source before its login is locked. */
export const ADMIN_MAX_FAILED_ATTEMPTS = 5;
/** How long the lock lasts; then the count starts again. */
export const ADMIN_LOCKOUT_MS = 15 * 60_000;
/** The server waits 1 s plus 1 s per previous failure, at most 5 s, before answering a login. */
export function adminLoginDelayMs(previousFailures: number): number {
  return Math.min(1000 + 1000 * Math.max(previousFailures, 0), 5000);
}

// ---------------------------------------------------------------------------------------------
// Login and session

export const adminLoginSchema = z.strictObject({
  password: z.string({ error: 'send the admin password as a string' }).min(1, 'enter the admin password').max(1024),
});
export type AdminLoginRequest = z.infer<typeof adminLoginSchema>;

/** GET /api/admin/session, and the answer of a successful login or a logout. */
export const adminSessionSchema = z.object({
  authenticated: z.boolean(),
  /** ISO time the session ends (4 hours after login); null when not authenticated. */
  expiresAt: z.string().nullable(),
});
export type AdminSession = z.infer<typeof adminSessionSchema>;

/**
 * Extra fields of a refused login's error body (beside `code` and `message`):
 * `admin-invalid-password` carries `attemptsRemaining`; `admin-locked` carries `lockedUntil`
 * (ISO), and `newBrowsersPaused` when the lock is the brake on every browser that has not logged
 * in before (a sign-in link from the operator lets a browser past it); the answer has a
 * `Retry-After` header.
 */
export const adminLoginRefusalSchema = z.object({
  code: z.string(),
  message: z.string(),
  attemptsRemaining: z.number().int().optional(),
  lockedUntil: z.string().optional(),
  newBrowsersPaused: z.boolean().optional(),
});

/**
 * The operator's sign-in link (`npm run admin:link`, or `node dist-server/admin-link.js` in the
 * image) opens /admin with `#sign-in=<link>`: the fragment never reaches a server's log or another
 * site's Referer. The page sends it once to POST /api/admin/login/link, which makes the browser
 * one that logged in before: its logins are counted on their own, past the brake and any lock of
 * its address. The admin password is still needed to log in.
 */
export const ADMIN_SIGN_IN_FRAGMENT = 'sign-in';
export const adminSignInLinkSchema = z.strictObject({
  link: z.string({ error: 'send the sign-in link as a string' }).min(1, 'send the sign-in link').max(200, 'this is not a sign-in link'),
});
export type AdminSignInLinkRequest = z.infer<typeof adminSignInLinkSchema>;
/** What POST /api/admin/login/link answers when the browser is now known. */
export const adminBrowserKnownSchema = z.object({ known: z.literal(true) });
export type AdminBrowserKnown = z.infer<typeof adminBrowserKnownSchema>;

// ---------------------------------------------------------------------------------------------
// Inventory: one row per Shopify variant, removed ones left out.

export const inventoryImageSchema = z.object({ url: z.string(), alt: z.string().nullable() });

export const inventoryItemSchema = z.object({
  /** The variant's Shopify id (numeric string): the id the shop's API uses too. */
  id: z.string(),
  /** The variant's Shopify GID. */
  externalId: z.string(),
  /** The product's Shopify id. */
  productId: z.string(),
  /** What shoppers see: the custom title (else Shopify's), plus the variant's unless "Default Title". */
  title: z.string(),
  /** The product's title in Shopify (the key of the custom-title routes). */
  originalTitle: z.string(),
  variantTitle: z.string(),
  customTitle: z.string().nullable(),
  sku: z.string().nullable(),
  /** Shopify's inventory quantity (null when Shopify does not track it). */
  quantity: z.number().int().nullable(),
  /** The admin's stock number; null when not set (Shopify's quantity applies). 0 means unknown. */
  availableStock: z.number().int().nullable(),
  /** POG price, decimal string with two decimals; null when not priced (then not for sale). */
  pogPrice: z.string().nullable(),
  isActive: z.boolean(),
  isSoldOut: z.boolean(),
  /** Whether shoppers can buy it now: an ACTIVE product in Shopify, activated and priced. */
  forSale: z.boolean(),
  /**
   * Its stock as the shop applies it (the one availability rule, common/availability): sold out and
   * why (the admin's switch, Shopify's verdict, none left), the units left (0: no known limit) and
   * whose number limits it (the admin's above 0, else Shopify's quantity; null when none does).
   */
  inShop: z.object({
    isSoldOut: z.boolean(),
    availableStock: z.number().int(),
    soldOutBy: z.enum(['admin', 'shopify', 'none-left']).nullable(),
    stockFrom: z.enum(['admin', 'shopify']).nullable(),
  }),
  /** Shopify's product status (ACTIVE, DRAFT, ARCHIVED). */
  productStatus: z.string(),
  productType: z.string(),
  vendor: z.string(),
  /** ISO time of the last sync that saw this product; null if never synced. */
  lastSyncedAt: z.string().nullable(),
  updatedAt: z.string(),
  shopifyData: z.object({ images: z.array(inventoryImageSchema) }),
});
export type InventoryItem = z.infer<typeof inventoryItemSchema>;

export const inventorySchema = z.array(inventoryItemSchema);

// ---------------------------------------------------------------------------------------------
// Product groups (derived, never stored). A group is one Shopify product: its variants, whatever
// their titles (a colour or a finish word included). The suffix stripping names the group:
// size/colour suffixes come off the title shoppers see, and any title holding the hoodie's name is
// called by that name.

/** Any title containing this name is called by it. */
const FORCED_GROUP_NAME = 'Classic Hoodie';

const SIZE = String.raw`(?:XXS|XS|S|M|L|XL|XXL|XXXL|[2-4]XL|One[ -]?Size|OS|\d+)`;
/** ' - Colour / SIZE' (the colour may hold spaces, e.g. 'Heather Grey'). */
const COLOUR_AND_SIZE_SUFFIX = new RegExp(String.raw`\s+-\s+[^/]+?\s*/\s*${SIZE}\s*$`, 'i');
/** ' - SIZE', ' / SIZE', or a bare size word ('One Size', 'OS') at the end. */
const SIZE_SUFFIX = new RegExp(String.raw`\s*[-/]\s*${SIZE}\s*$|\s+(?:One[ -]?Size|OS)\s*$`, 'i');
const TRAILING_DASH = /\s*-\s*$/;

/** A title with its size/colour suffixes removed, or the forced hoodie name. */
export function groupTitle(title: string | null | undefined): string {
  const original = (title ?? '').replace(/\s+/g, ' ').trim();
  if (original.toLowerCase().includes(FORCED_GROUP_NAME.toLowerCase())) return FORCED_GROUP_NAME;
  const stripped = original.replace(COLOUR_AND_SIZE_SUFFIX, '').replace(SIZE_SUFFIX, '').replace(TRAILING_DASH, '').trim();
  // A title that is only a size ('XL', 'One Size') stays as it is rather than becoming empty.
  return stripped || original;
}

type GroupedFields = Pick<InventoryItem, 'productId' | 'originalTitle' | 'customTitle'>;

export interface InventoryGroup<T extends GroupedFields> {
  /** The Shopify product's id: the group's identity. */
  productId: string;
  /** The product's title as shoppers see it (custom, else Shopify's), stripped by `groupTitle`. */
  title: string;
  /** Exactly the product's variants, in the inventory's order: what bulk actions and titles act on. */
  variants: T[];
  /** The first variant: the group's image and shared fields. */
  base: T;
}

/** One group per Shopify product, in the order the inventory first names each. */
export function inventoryGroups<T extends GroupedFields>(items: readonly T[]): InventoryGroup<T>[] {
  const groups = new Map<string, InventoryGroup<T>>();
  for (const item of items) {
    const group = groups.get(item.productId);
    if (group) group.variants.push(item);
    else
      groups.set(item.productId, {
        productId: item.productId,
        title: groupTitle(item.customTitle ?? item.originalTitle),
        variants: [item],
        base: item,
      });
  }
  return [...groups.values()];
}

// ---------------------------------------------------------------------------------------------
// GET /api/admin/products: the admin's product groups a page at a time, searched and filtered on
// the server, in catalogue order (the order products first came from Shopify, which a title change
// never moves, so paging shows each group exactly once).

export const ADMIN_PRODUCTS_DEFAULT_LIMIT = 24;
export const ADMIN_PRODUCTS_MAX_LIMIT = 100;
export const ADMIN_PRODUCTS_SEARCH_MAX = 100;

/** Which variants count: every one, the activated, the deactivated, the unpriced, the sold out in the shop. */
export const PRODUCT_FILTERS = ['all', 'active', 'inactive', 'unpriced', 'sold-out'] as const;
export type ProductFilter = (typeof PRODUCT_FILTERS)[number];

export const adminProductsQuerySchema = z.strictObject({
  /**
   * Words that must each be in the product's Shopify title, its custom title, the variant's title or
   * its SKU (case-insensitive, anywhere in them).
   */
  q: z
    .string({ error: 'q must be given once' })
    .max(ADMIN_PRODUCTS_SEARCH_MAX, `q must be at most ${ADMIN_PRODUCTS_SEARCH_MAX} characters`)
    .optional(),
  status: z.enum(PRODUCT_FILTERS, { error: `status must be one of ${PRODUCT_FILTERS.join(', ')}` }).optional(),
  /** The previous page's `nextCursor`, for the same q and status. */
  cursor: z.string({ error: 'cursor must be given once' }).max(200, 'cursor is too long: send the nextCursor as it was given').optional(),
  limit: z
    .string({ error: 'limit must be given once' })
    .regex(/^\d{1,4}$/, `limit must be a whole number from 1 to ${ADMIN_PRODUCTS_MAX_LIMIT}`)
    .transform(Number)
    .pipe(
      z
        .number()
        .int()
        .min(1, `limit must be a whole number from 1 to ${ADMIN_PRODUCTS_MAX_LIMIT}`)
        .max(ADMIN_PRODUCTS_MAX_LIMIT, `limit must be a whole number from 1 to ${ADMIN_PRODUCTS_MAX_LIMIT}`),
    )
    .optional(),
});
export type AdminProductsQuery = z.output<typeof adminProductsQuerySchema>;

export const adminProductGroupSchema = z.object({
  /** The Shopify product's id. */
  productId: z.string(),
  /** Its name as the admin's card shows it (`groupTitle` of the title shoppers see). */
  title: z.string(),
  /** Every variant of the product (what its bulk actions act on), in Shopify's order. */
  variants: inventorySchema,
  /** The ids of its variants that match the search and the filter (all of them when nothing narrows). */
  matching: z.array(z.string()),
});
export type AdminProductGroup = z.infer<typeof adminProductGroupSchema>;

export const adminProductsPageSchema = z.object({
  groups: z.array(adminProductGroupSchema),
  /** Where the next page starts; null on the last page. */
  nextCursor: z.string().nullable(),
  /** On the first page (no cursor); null on the next ones. */
  counts: z
    .object({
      /** Products with a variant that matches the search and filter, and those variants. */
      groups: z.number().int(),
      variants: z.number().int(),
      /** The whole inventory: its products, variants, and the variants not priced (not for sale). */
      allGroups: z.number().int(),
      allVariants: z.number().int(),
      unpriced: z.number().int(),
    })
    .nullable(),
});
export type AdminProductsPage = z.infer<typeof adminProductsPageSchema>;

/** A POG price as the admin form takes it: 0 or more, at most two decimals ("12", "12.5", "12.50"). */
export const POG_PRICE_PATTERN = /^\d{1,12}(\.\d{1,2})?$/;
const POG_PRICE_MESSAGE = 'pogPrice must be a number of POG, 0 or more, with at most 2 decimals (e.g. "12.50"), or null to unprice';

/**
 * PATCH /api/inventory/:id/update. Send only the fields to change (at least one). The admin's form
 * sends pogPrice as text or a number; a number is read by its decimal text, never as a float sum.
 */
export const inventoryUpdateSchema = z
  .strictObject({
    pogPrice: z
      .union([z.string(), z.number()], { error: POG_PRICE_MESSAGE })
      .transform((v) => (typeof v === 'number' ? String(v) : v.trim()))
      .refine((v) => POG_PRICE_PATTERN.test(v), POG_PRICE_MESSAGE)
      .nullable()
      .optional(),
    isActive: z.boolean({ error: 'isActive must be true or false' }).optional(),
    availableStock: z
      .number({ error: 'availableStock must be a whole number, 0 or more, or null to use Shopify’s quantity' })
      .int('availableStock must be a whole number')
      .min(0, 'availableStock must be 0 or more')
      .max(1_000_000_000, 'availableStock must be at most 1,000,000,000')
      .nullable()
      .optional(),
    isSoldOut: z.boolean({ error: 'isSoldOut must be true or false' }).optional(),
  })
  .refine((b) => Object.keys(b).length > 0, 'send at least one of pogPrice, isActive, availableStock, isSoldOut');
export type InventoryUpdateRequest = z.input<typeof inventoryUpdateSchema>;

/** PUT /api/products/:originalTitle/custom-title (the title URL-encoded in the path). */
export const CUSTOM_TITLE_MAX = 200;
export const customTitleSchema = z.strictObject({
  customTitle: z
    .string({ error: 'send customTitle as a string' })
    .trim()
    .min(1, 'the custom title must not be empty (to remove it, DELETE the custom title)')
    .max(CUSTOM_TITLE_MAX, `the custom title must be at most ${CUSTOM_TITLE_MAX} characters`),
});
export type CustomTitleRequest = z.input<typeof customTitleSchema>;

/**
 * The custom-title routes' query: `productId` (a Shopify product id) limits the change to that one
 * product, which must have the path's Shopify title; without it, every product with that title
 * changes.
 */
export const customTitleQuerySchema = z.strictObject({
  productId: z
    .string({ error: 'productId must be one Shopify product id' })
    .regex(/^\d{1,20}$/, 'productId must be a Shopify product id (digits)')
    .optional(),
});

/** The answer of the inventory and custom-title writes: a message for the notice, and the item(s) as they are now. */
export const inventoryWriteResultSchema = z.object({ message: z.string(), items: inventorySchema });
export type InventoryWriteResult = z.infer<typeof inventoryWriteResultSchema>;

// ---------------------------------------------------------------------------------------------
// Audit trail: every admin change and login, newest first.

export const auditActionSchema = z.enum([
  'login-succeeded',
  'login-failed',
  'login-locked',
  'browser-recognised',
  'logout',
  'inventory-updated',
  'inventory-synced',
  'custom-title-set',
  'custom-title-cleared',
  'payment-resolved',
  'payment-attached',
  'handoff-retried',
  'payment-refunded',
  'webhook-created',
  'webhook-updated',
  'webhook-secret-rotated',
  'webhook-redelivered',
  'webhook-disabled',
]);
export type AuditAction = z.infer<typeof auditActionSchema>;

export const auditEntrySchema = z.object({
  id: z.string(),
  /** ISO time. */
  at: z.string(),
  action: auditActionSchema,
  /** A short, stable label of the admin session that acted (never the session's secret), or null for a refused login. */
  session: z.string().nullable(),
  /** What it acted on: a variant id, a product title, a transfer id (payments desk), or null. */
  target: z.string().nullable(),
  /** Each field that changed, old → new (decimal strings, booleans, numbers or null). */
  changes: z.array(z.object({ field: z.string(), from: z.unknown(), to: z.unknown() })),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

export const auditPageSchema = z.object({ entries: z.array(auditEntrySchema) });
export type AuditPage = z.infer<typeof auditPageSchema>;
