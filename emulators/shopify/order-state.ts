// Draft orders, the orders their invoices turn into, and fulfilments: in memory, free of GraphQL
// and HTTP like EmulatorState. Validation answers Shopify's userErrors (wording from live
// 2026-04 captures where we have them); state changes are announced to subscribers, which is
// where webhook delivery hangs off.
import { randomBytes } from 'node:crypto';
import { countryName, isCountryCode } from './countries';
import type { EmulatorState } from './emulator-state';
import { toIsoSeconds } from './emulator-state';
import { parseGid } from './gid';
import { computeTotals, parseMoney, type AppliedDiscount, type Totals } from './money';

export interface EmulatorAttribute {
  key: string;
  value: string;
}

export interface EmulatorAddress {
  firstName: string | null;
  lastName: string | null;
  company: string | null;
  address1: string | null;
  address2: string | null;
  city: string | null;
  province: string | null;
  provinceCode: string | null;
  zip: string | null;
  country: string | null;
  countryCode: string | null;
  phone: string | null;
}

/** MailingAddressInput (plus its deprecated `country`/`province` spellings). */
export interface EmulatorAddressInput {
  firstName?: string | null;
  lastName?: string | null;
  company?: string | null;
  address1?: string | null;
  address2?: string | null;
  city?: string | null;
  provinceCode?: string | null;
  province?: string | null;
  zip?: string | null;
  countryCode?: string | null;
  country?: string | null;
  phone?: string | null;
}

/** A catalogue variant's line, priced when the draft was created. */
export interface EmulatorLineItem {
  legacyId: string;
  variantLegacyId: string;
  productLegacyId: string;
  title: string;
  variantTitle: string | null;
  sku: string | null;
  quantity: number;
  unitCents: number;
}

interface EmulatorShippingLine {
  title: string | null;
  cents: number;
}

export type DraftOrderStatus = 'OPEN' | 'INVOICE_SENT' | 'COMPLETED';

/** Everything a draft order and the order made from it have in common. */
interface Purchase {
  legacyId: string;
  name: string;
  email: string | null;
  note: string | null;
  tags: string[];
  taxExempt: boolean;
  customAttributes: EmulatorAttribute[];
  lineItems: EmulatorLineItem[];
  appliedDiscount: AppliedDiscount | null;
  shippingLine: EmulatorShippingLine | null;
  shippingAddress: EmulatorAddress | null;
  billingAddress: EmulatorAddress | null;
  createdAt: string;
  updatedAt: string;
}

export interface EmulatorDraftOrder extends Purchase {
  status: DraftOrderStatus;
  /** The 32-hex tail of invoiceUrl; whoever holds it can complete the checkout. */
  invoiceToken: string;
  completedAt: string | null;
  orderLegacyId: string | null;
}

export interface EmulatorFulfillment {
  legacyId: string;
  name: string;
  status: 'SUCCESS';
  createdAt: string;
  updatedAt: string;
  /** The parcel's tracking page, when the merchant gave one. */
  trackingUrl: string | null;
}

export interface EmulatorOrder extends Purchase {
  number: number;
  draftOrderLegacyId: string;
  confirmationNumber: string;
  financialStatus: 'PAID';
  sourceName: 'shopify_draft_order';
  fulfillments: EmulatorFulfillment[];
  processedAt: string;
}

export interface UserError {
  field: string[] | null;
  message: string;
}

interface AppliedDiscountInput {
  value: number;
  valueType: 'PERCENTAGE' | 'FIXED_AMOUNT';
  title?: string | null;
  description?: string | null;
}

export interface DraftOrderLineItemInput {
  variantId?: string | null;
  quantity: number;
}

/** DraftOrderInput as order-schema.ts declares it (sourceName is accepted and ignored). */
export interface DraftOrderInput {
  lineItems?: DraftOrderLineItemInput[] | null;
  appliedDiscount?: AppliedDiscountInput | null;
  shippingLine?: { title?: string | null; priceWithCurrency?: { amount: unknown } | null } | null;
  taxExempt?: boolean | null;
  note?: string | null;
  tags?: string[] | null;
  customAttributes?: EmulatorAttribute[] | null;
  sourceName?: string | null;
}

export type OrderEvent =
  | { type: 'draft-order-completed'; draftOrder: EmulatorDraftOrder; order: EmulatorOrder }
  | { type: 'order-fulfilled'; order: EmulatorOrder; fulfillment: EmulatorFulfillment };

/** A control-API misuse (unknown id, wrong state); `status` is the HTTP answer for it. */
export class OrderStateError extends Error {
  constructor(
    readonly status: 404 | 409,
    message: string,
  ) {
    super(message);
  }
}

const ID_FLOORS = {
  draftOrder: 1_180_000_000_000,
  draftLineItem: 58_100_000_000_000,
  order: 6_297_700_000_000,
  lineItem: 15_722_000_000_000,
  fulfillment: 5_570_000_000_000,
};
const FIRST_ORDER_NUMBER = 1001;
const MAX_TAG_LENGTH = 40;
// Shopify's confirmation numbers ("H60HHPTCI") avoid look-alike characters.
const CONFIRMATION_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ123456789';

function confirmationNumber(): string {
  return [...randomBytes(9)].map((b) => CONFIRMATION_ALPHABET[b % CONFIRMATION_ALPHABET.length]).join('');
}

export const totalsOf = (p: Pick<Purchase, 'lineItems' | 'appliedDiscount' | 'shippingLine'>): Totals =>
  computeTotals(
    p.lineItems.map((l) => ({ unitCents: l.unitCents, quantity: l.quantity })),
    p.appliedDiscount,
    p.shippingLine?.cents ?? 0,
  );

export function displayFulfillmentStatus(order: EmulatorOrder): 'FULFILLED' | 'UNFULFILLED' {
  return order.fulfillments.some((f) => f.status === 'SUCCESS') ? 'FULFILLED' : 'UNFULFILLED';
}

/** Shopify trims tags, drops blanks and case-insensitive duplicates, and returns them sorted. */
export function normalizeTags(tags: readonly string[]): string[] {
  const byKey = new Map<string, string>();
  for (const raw of tags) {
    const tag = raw.trim();
    if (tag && !byKey.has(tag.toLowerCase())) byKey.set(tag.toLowerCase(), tag);
  }
  return [...byKey.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, tag]) => tag);
}

export function toAddress(input: EmulatorAddressInput): EmulatorAddress {
  const text = (v: string | null | undefined) => (v?.trim() ? v.trim() : null);
  const code = text(input.countryCode)?.toUpperCase() ?? null;
  return {
    firstName: text(input.firstName),
    lastName: text(input.lastName),
    company: text(input.company),
    address1: text(input.address1),
    address2: text(input.address2),
    city: text(input.city),
    province: text(input.province) ?? text(input.provinceCode),
    provinceCode: text(input.provinceCode),
    zip: text(input.zip),
    country: code && isCountryCode(code) ? countryName(code) : text(input.country),
    countryCode: code,
    phone: text(input.phone),
  };
}

export function addressName(a: EmulatorAddress): string {
  return [a.firstName, a.lastName].filter(Boolean).join(' ');
}

/** Draft and order references arrive as numeric ids or as gids of the right type. */
function legacyIdOf(ref: string, type: string): string | null {
  if (/^\d{1,16}$/.test(ref)) return ref;
  const gid = parseGid(ref);
  return gid && gid.type === type ? gid.legacyId : null;
}

const toDiscount = (d: AppliedDiscountInput | null | undefined): AppliedDiscount | null =>
  d ? { value: d.value, valueType: d.valueType, title: d.title ?? null, description: d.description ?? null } : null;

export class EmulatorOrders {
  private readonly drafts = new Map<string, EmulatorDraftOrder>();
  private readonly orders = new Map<string, EmulatorOrder>();
  private readonly listeners = new Set<(event: OrderEvent) => void>();
  private lastIds = { ...ID_FLOORS };
  private draftCount = 0;

  constructor(
    private readonly catalogue: EmulatorState,
    private readonly now: () => number = Date.now,
  ) {}

  /** Forget every draft, order and fulfilment; numbering restarts at #D1 and #1001. */
  reset(): void {
    this.drafts.clear();
    this.orders.clear();
    this.lastIds = { ...ID_FLOORS };
    this.draftCount = 0;
  }

  subscribe(listener: (event: OrderEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  listDraftOrders(): EmulatorDraftOrder[] {
    return [...this.drafts.values()];
  }

  listOrders(): EmulatorOrder[] {
    return [...this.orders.values()];
  }

  /** By numeric id or DraftOrder gid. */
  getDraftOrder(ref: string): EmulatorDraftOrder | undefined {
    const id = legacyIdOf(ref, 'DraftOrder');
    return id ? this.drafts.get(id) : undefined;
  }

  getDraftOrderByToken(token: string): EmulatorDraftOrder | undefined {
    for (const d of this.drafts.values()) if (d.invoiceToken === token) return d;
    return undefined;
  }

  /** By numeric id or Order gid. */
  getOrder(ref: string): EmulatorOrder | undefined {
    const id = legacyIdOf(ref, 'Order');
    return id ? this.orders.get(id) : undefined;
  }

  createDraftOrder(input: DraftOrderInput): { draftOrder: EmulatorDraftOrder } | { userErrors: UserError[] } {
    const errors: UserError[] = [];
    const lineInputs = input.lineItems ?? [];
    if (lineInputs.length === 0) errors.push({ field: null, message: 'Add at least 1 product' });

    const lines: Array<Omit<EmulatorLineItem, 'legacyId'>> = [];
    lineInputs.forEach((line, i) => {
      if (line.quantity < 1)
        errors.push({ field: ['lineItems', String(i), 'quantity'], message: 'Quantity must be greater than or equal to 1' });
      const gid = line.variantId ? parseGid(line.variantId) : null;
      const hit = gid?.type === 'ProductVariant' ? this.catalogue.findVariant(gid.legacyId) : undefined;
      if (!hit) {
        // Shopify reports this one without a field path (live capture, API 2026-04).
        errors.push({ field: null, message: `Product with ID ${gid?.legacyId ?? line.variantId ?? ''} is no longer available.` });
        return;
      }
      // Shopify takes a catalogue variant's title and price from the catalogue.
      lines.push({
        variantLegacyId: hit.variant.legacyId,
        productLegacyId: hit.product.legacyId,
        title: hit.product.title,
        variantTitle: hit.variant.title === 'Default Title' ? null : hit.variant.title,
        sku: hit.variant.sku,
        quantity: line.quantity,
        unitCents: parseMoney(hit.variant.price) ?? 0,
      });
    });

    const shippingRaw = input.shippingLine?.priceWithCurrency?.amount;
    const shippingCents = shippingRaw == null ? 0 : parseMoney(shippingRaw);
    if (shippingCents == null) errors.push({ field: ['shippingLine', 'priceWithCurrency', 'amount'], message: 'Price is invalid' });
    (input.tags ?? []).forEach((tag, i) => {
      if (tag.trim().length > MAX_TAG_LENGTH) {
        errors.push({ field: ['tags', String(i)], message: `Title Tag exceeds the maximum length of ${MAX_TAG_LENGTH} characters` });
      }
    });
    if (errors.length) return { userErrors: errors };

    const at = toIsoSeconds(this.now());
    this.draftCount += 1;
    const draftOrder: EmulatorDraftOrder = {
      legacyId: this.allocate('draftOrder'),
      name: `#D${this.draftCount}`,
      status: 'OPEN',
      invoiceToken: randomBytes(16).toString('hex'),
      email: null,
      note: input.note ?? null,
      tags: normalizeTags(input.tags ?? []),
      taxExempt: input.taxExempt ?? false,
      customAttributes: input.customAttributes ?? [],
      lineItems: lines.map((l) => ({ ...l, legacyId: this.allocate('draftLineItem') })),
      appliedDiscount: toDiscount(input.appliedDiscount),
      shippingLine: input.shippingLine ? { title: input.shippingLine.title ?? null, cents: shippingCents ?? 0 } : null,
      shippingAddress: null,
      billingAddress: null,
      createdAt: at,
      updatedAt: at,
      completedAt: null,
      orderLegacyId: null,
    };
    this.drafts.set(draftOrder.legacyId, draftOrder);
    return { draftOrder };
  }

  /**
   * What the hosted invoice's "Complete order" does: the draft becomes
   * COMPLETED and a paid order carrying its note, tags and custom attributes is created.
   */
  completeDraftOrder(
    ref: string,
    checkout: { shippingAddress?: EmulatorAddressInput | null; email?: string | null } = {},
  ): { draftOrder: EmulatorDraftOrder; order: EmulatorOrder } {
    const draft = this.getDraftOrder(ref);
    if (!draft) throw new OrderStateError(404, `No draft order ${ref}`);
    if (draft.status === 'COMPLETED') throw new OrderStateError(409, `Draft order ${draft.name} is already completed`);

    const at = toIsoSeconds(this.now());
    if (checkout.shippingAddress) draft.shippingAddress = toAddress(checkout.shippingAddress);
    if (checkout.email) draft.email = checkout.email.trim();
    const number = FIRST_ORDER_NUMBER + this.orders.size;
    const order: EmulatorOrder = {
      legacyId: this.allocate('order'),
      name: `#${number}`,
      number,
      draftOrderLegacyId: draft.legacyId,
      confirmationNumber: confirmationNumber(),
      email: draft.email,
      note: draft.note,
      tags: [...draft.tags],
      taxExempt: draft.taxExempt,
      customAttributes: draft.customAttributes.map((a) => ({ ...a })),
      lineItems: draft.lineItems.map((l) => ({ ...l, legacyId: this.allocate('lineItem') })),
      appliedDiscount: draft.appliedDiscount,
      shippingLine: draft.shippingLine,
      shippingAddress: draft.shippingAddress,
      // Checkout fills the billing address from the shipping address.
      billingAddress: draft.shippingAddress,
      financialStatus: 'PAID',
      sourceName: 'shopify_draft_order',
      fulfillments: [],
      createdAt: at,
      updatedAt: at,
      processedAt: at,
    };
    this.orders.set(order.legacyId, order);
    Object.assign(draft, { status: 'COMPLETED', completedAt: at, updatedAt: at, orderLegacyId: order.legacyId });
    this.emit({ type: 'draft-order-completed', draftOrder: draft, order });
    return { draftOrder: draft, order };
  }

  /** Marks every line shipped in one fulfilment, as the admin's "Fulfill items" does. */
  fulfillOrder(ref: string, trackingUrl: string | null = null): { order: EmulatorOrder; fulfillment: EmulatorFulfillment } {
    const order = this.getOrder(ref);
    if (!order) throw new OrderStateError(404, `No order ${ref}`);
    if (displayFulfillmentStatus(order) === 'FULFILLED') throw new OrderStateError(409, `Order ${order.name} is already fulfilled`);
    const at = toIsoSeconds(this.now());
    const fulfillment: EmulatorFulfillment = {
      legacyId: this.allocate('fulfillment'),
      name: `${order.name}.${order.fulfillments.length + 1}`,
      status: 'SUCCESS',
      createdAt: at,
      updatedAt: at,
      trackingUrl,
    };
    order.fulfillments.push(fulfillment);
    order.updatedAt = at;
    this.emit({ type: 'order-fulfilled', order, fulfillment });
    return { order, fulfillment };
  }

  orderOf(draft: EmulatorDraftOrder): EmulatorOrder | null {
    return draft.orderLegacyId ? (this.orders.get(draft.orderLegacyId) ?? null) : null;
  }

  private emit(event: OrderEvent): void {
    for (const listener of this.listeners) listener(event);
  }

  private allocate(kind: keyof typeof ID_FLOORS): string {
    this.lastIds[kind] += 1;
    return String(this.lastIds[kind]);
  }
}
