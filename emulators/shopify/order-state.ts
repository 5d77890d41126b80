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

export interface EmulatorLineItem {
  legacyId: string;
  variantLegacyId: string | null;
  productLegacyId: string | null;
  title: string;
  variantTitle: string | null;
  sku: string | null;
  quantity: number;
  unitCents: number;
  custom: boolean;
  requiresShipping: boolean;
  taxable: boolean;
  appliedDiscount: AppliedDiscount | null;
  customAttributes: EmulatorAttribute[];
}

export interface EmulatorShippingLine {
  title: string | null;
  cents: number;
}

export type DraftOrderStatus = 'OPEN' | 'INVOICE_SENT' | 'COMPLETED';

/** Everything a draft order and the order made from it have in common. */
interface Purchase {
  legacyId: string;
  name: string;
  email: string | null;
  phone: string | null;
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
  reserveInventoryUntil: string | null;
  sourceName: string | null;
  visibleToCustomer: boolean;
  completedAt: string | null;
  orderLegacyId: string | null;
}

export interface EmulatorTracking {
  company: string | null;
  number: string | null;
  url: string | null;
}

export interface EmulatorFulfillment {
  legacyId: string;
  name: string;
  status: 'SUCCESS';
  tracking: EmulatorTracking | null;
  createdAt: string;
  updatedAt: string;
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

export interface AppliedDiscountInput {
  value: number;
  valueType: 'PERCENTAGE' | 'FIXED_AMOUNT';
  title?: string | null;
  description?: string | null;
}

export interface DraftOrderLineItemInput {
  variantId?: string | null;
  quantity: number;
  title?: string | null;
  originalUnitPrice?: unknown;
  originalUnitPriceWithCurrency?: { amount: unknown } | null;
  sku?: string | null;
  requiresShipping?: boolean | null;
  taxable?: boolean | null;
  appliedDiscount?: AppliedDiscountInput | null;
  customAttributes?: EmulatorAttribute[] | null;
}

/** The DraftOrderInput fields the emulator models; the others are accepted and ignored. */
export interface DraftOrderInput {
  lineItems?: DraftOrderLineItemInput[] | null;
  appliedDiscount?: AppliedDiscountInput | null;
  shippingLine?: { title?: string | null; price?: unknown; priceWithCurrency?: { amount: unknown } | null } | null;
  taxExempt?: boolean | null;
  note?: string | null;
  email?: string | null;
  phone?: string | null;
  tags?: string[] | null;
  customAttributes?: EmulatorAttribute[] | null;
  reserveInventoryUntil?: string | null;
  sourceName?: string | null;
  visibleToCustomer?: boolean | null;
  shippingAddress?: EmulatorAddressInput | null;
  billingAddress?: EmulatorAddressInput | null;
  paymentTerms?: { paymentTermsTemplateId?: string | null } | null;
}

export type OrderEvent =
  | { type: 'draft-order-created'; draftOrder: EmulatorDraftOrder }
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
const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;
// Shopify's confirmation numbers ("H60HHPTCI") avoid look-alike characters.
const CONFIRMATION_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ123456789';

function confirmationNumber(): string {
  return [...randomBytes(9)].map((b) => CONFIRMATION_ALPHABET[b % CONFIRMATION_ALPHABET.length]).join('');
}

export const totalsOf = (p: Pick<Purchase, 'lineItems' | 'appliedDiscount' | 'shippingLine'>): Totals =>
  computeTotals(
    p.lineItems.map((l) => ({ unitCents: l.unitCents, quantity: l.quantity, appliedDiscount: l.appliedDiscount })),
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

function discountErrors(d: AppliedDiscountInput | null | undefined, field: string[]): UserError[] {
  if (!d) return [];
  if (d.valueType === 'PERCENTAGE' && d.value > 100) {
    return [{ field: [...field, 'value'], message: 'Applied discount value must be less than or equal to 100%' }];
  }
  if (Math.abs(Math.round(d.value * 100) - d.value * 100) > 1e-6) {
    return [{ field: [...field, 'value'], message: 'Applied discount value can have at most 2 digits after decimal point' }];
  }
  return [];
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
      const at = ['lineItems', String(i)];
      if (line.quantity < 1) errors.push({ field: [...at, 'quantity'], message: 'Quantity must be greater than or equal to 1' });
      errors.push(...discountErrors(line.appliedDiscount, [...at, 'appliedDiscount']));
      const common = {
        quantity: line.quantity,
        requiresShipping: line.requiresShipping ?? true,
        taxable: line.taxable ?? true,
        appliedDiscount: toDiscount(line.appliedDiscount),
        customAttributes: line.customAttributes ?? [],
      };
      if (line.variantId) {
        const gid = parseGid(line.variantId);
        const hit = gid?.type === 'ProductVariant' ? this.catalogue.findVariant(gid.legacyId) : undefined;
        if (!hit) {
          // Shopify reports this one without a field path (live capture, API 2026-04).
          errors.push({ field: null, message: `Product with ID ${gid?.legacyId ?? line.variantId} is no longer available.` });
          return;
        }
        // For catalogue variants Shopify takes title and price from the catalogue and ignores
        // the custom-item fields (title, originalUnitPrice) if they are sent as well.
        lines.push({
          ...common,
          variantLegacyId: hit.variant.legacyId,
          productLegacyId: hit.product.legacyId,
          title: hit.product.title,
          variantTitle: hit.variant.title === 'Default Title' ? null : hit.variant.title,
          sku: hit.variant.sku,
          unitCents: parseMoney(hit.variant.price) ?? 0,
          custom: false,
        });
        return;
      }
      const title = line.title?.trim();
      if (!title) errors.push({ field: null, message: 'Merchandise title is empty.' });
      const rawPrice = line.originalUnitPriceWithCurrency?.amount ?? line.originalUnitPrice;
      const unitCents = rawPrice == null ? 0 : parseMoney(rawPrice);
      if (unitCents == null) {
        const negative = Number(rawPrice) < 0;
        errors.push(
          negative
            ? { field: null, message: 'Cannot send negative price for line_item' }
            : { field: [...at, 'originalUnitPrice'], message: 'Original unit price is invalid' },
        );
      }
      lines.push({
        ...common,
        variantLegacyId: null,
        productLegacyId: null,
        title: title ?? '',
        variantTitle: null,
        sku: line.sku ?? null,
        unitCents: unitCents ?? 0,
        custom: true,
      });
    });

    errors.push(...discountErrors(input.appliedDiscount, ['appliedDiscount']));
    const shippingRaw = input.shippingLine?.priceWithCurrency?.amount ?? input.shippingLine?.price;
    const shippingCents = shippingRaw == null ? 0 : parseMoney(shippingRaw);
    if (shippingCents == null) errors.push({ field: ['shippingLine', 'price'], message: 'Price is invalid' });
    if (input.email != null && input.email !== '' && !EMAIL.test(input.email))
      errors.push({ field: ['email'], message: 'Email is invalid' });
    (input.tags ?? []).forEach((tag, i) => {
      if (tag.trim().length > MAX_TAG_LENGTH) {
        errors.push({ field: ['tags', String(i)], message: `Title Tag exceeds the maximum length of ${MAX_TAG_LENGTH} characters` });
      }
    });
    if (input.reserveInventoryUntil && Date.parse(input.reserveInventoryUntil) < this.now()) {
      errors.push({ field: null, message: "Reserve until can't be in the past" });
    }
    if (input.paymentTerms && !input.paymentTerms.paymentTermsTemplateId) {
      errors.push({ field: null, message: 'Payment terms template id can not be empty.' });
    }
    if (errors.length) return { userErrors: errors };

    const at = toIsoSeconds(this.now());
    this.draftCount += 1;
    const draftOrder: EmulatorDraftOrder = {
      legacyId: this.allocate('draftOrder'),
      name: `#D${this.draftCount}`,
      status: 'OPEN',
      invoiceToken: randomBytes(16).toString('hex'),
      email: input.email || null,
      phone: input.phone ?? null,
      note: input.note ?? null,
      tags: normalizeTags(input.tags ?? []),
      taxExempt: input.taxExempt ?? false,
      customAttributes: input.customAttributes ?? [],
      lineItems: lines.map((l) => ({ ...l, legacyId: this.allocate('draftLineItem') })),
      appliedDiscount: toDiscount(input.appliedDiscount),
      shippingLine: input.shippingLine ? { title: input.shippingLine.title ?? null, cents: shippingCents ?? 0 } : null,
      shippingAddress: input.shippingAddress ? toAddress(input.shippingAddress) : null,
      billingAddress: input.billingAddress ? toAddress(input.billingAddress) : null,
      reserveInventoryUntil: input.reserveInventoryUntil ? toIsoSeconds(Date.parse(input.reserveInventoryUntil)) : null,
      sourceName: input.sourceName ?? null,
      visibleToCustomer: input.visibleToCustomer ?? false,
      createdAt: at,
      updatedAt: at,
      completedAt: null,
      orderLegacyId: null,
    };
    this.drafts.set(draftOrder.legacyId, draftOrder);
    this.emit({ type: 'draft-order-created', draftOrder });
    return { draftOrder };
  }

  /**
   * What the hosted invoice's "Complete order" does (and draftOrderComplete): the draft becomes
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
      phone: draft.phone,
      note: draft.note,
      tags: [...draft.tags],
      taxExempt: draft.taxExempt,
      customAttributes: draft.customAttributes.map((a) => ({ ...a })),
      lineItems: draft.lineItems.map((l) => ({ ...l, legacyId: this.allocate('lineItem') })),
      appliedDiscount: draft.appliedDiscount,
      shippingLine: draft.shippingLine,
      shippingAddress: draft.shippingAddress,
      // Checkout fills the billing address from the shipping address when none was given.
      billingAddress: draft.billingAddress ?? draft.shippingAddress,
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
  fulfillOrder(ref: string, tracking: EmulatorTracking | null = null): { order: EmulatorOrder; fulfillment: EmulatorFulfillment } {
    const order = this.getOrder(ref);
    if (!order) throw new OrderStateError(404, `No order ${ref}`);
    if (displayFulfillmentStatus(order) === 'FULFILLED') throw new OrderStateError(409, `Order ${order.name} is already fulfilled`);
    const at = toIsoSeconds(this.now());
    const fulfillment: EmulatorFulfillment = {
      legacyId: this.allocate('fulfillment'),
      name: `${order.name}.${order.fulfillments.length + 1}`,
      status: 'SUCCESS',
      tracking,
      createdAt: at,
      updatedAt: at,
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
