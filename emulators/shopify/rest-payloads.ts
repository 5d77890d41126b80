// Webhook bodies: REST resource JSON (snake_case, numeric `id` + `admin_graphql_api_id`, money as
// two-decimal strings, tags as one ", "-joined string), shaped after Shopify's webhook reference
// samples. Ids stay below 2^53, so plain JSON numbers are exact.
import type { EmulatorProduct, EmulatorVariant } from './emulator-state';
import { toGid } from './gid';
import { formatDiscountValue, formatRestMoney, type AppliedDiscount } from './money';
import {
  addressName,
  displayFulfillmentStatus,
  totalsOf,
  type EmulatorAddress,
  type EmulatorAttribute,
  type EmulatorDraftOrder,
  type EmulatorFulfillment,
  type EmulatorLineItem,
  type EmulatorOrder,
  type OrderEvent,
} from './order-state';
import type { WebhookMessage } from './webhooks';

type Json = Record<string, unknown>;

export interface PayloadLinks {
  /** The draft's hosted invoice page. */
  invoiceUrl(draft: EmulatorDraftOrder): string;
  /** Where a customer checks on an order; the emulator serves it from the same invoice page. */
  orderStatusUrl(order: EmulatorOrder): string;
}

const CURRENCY = 'USD';

/**
 * REST timestamps carry the shop's UTC offset ("2026-01-17T10:50:49+05:30"); the emulated shop
 * runs on UTC.
 */
export function restTime(iso: string | null): string | null {
  return iso === null ? null : iso.replace(/(\.\d+)?Z$/, '+00:00');
}

const restTags = (tags: readonly string[]) => tags.join(', ');
const noteAttributes = (attrs: readonly EmulatorAttribute[]) => attrs.map((a) => ({ name: a.key, value: a.value }));

function addressPayload(a: EmulatorAddress | null): Json | null {
  if (!a) return null;
  return {
    first_name: a.firstName,
    last_name: a.lastName,
    name: addressName(a),
    company: a.company,
    address1: a.address1,
    address2: a.address2,
    city: a.city,
    province: a.province,
    province_code: a.provinceCode,
    zip: a.zip,
    country: a.country,
    country_code: a.countryCode,
    phone: a.phone,
    latitude: null,
    longitude: null,
  };
}

function discountPayload(d: AppliedDiscount | null, amountCents: number): Json | null {
  if (!d) return null;
  return {
    title: d.title,
    description: d.description,
    value: formatDiscountValue(d.value),
    value_type: d.valueType === 'PERCENTAGE' ? 'percentage' : 'fixed_amount',
    amount: formatRestMoney(amountCents),
  };
}

function lineItemBase(l: EmulatorLineItem, gidType: string): Json {
  return {
    id: Number(l.legacyId),
    admin_graphql_api_id: toGid(gidType, l.legacyId),
    variant_id: Number(l.variantLegacyId),
    product_id: Number(l.productLegacyId),
    title: l.title,
    variant_title: l.variantTitle,
    name: l.variantTitle ? `${l.title} - ${l.variantTitle}` : l.title,
    sku: l.sku,
    quantity: l.quantity,
    price: formatRestMoney(l.unitCents),
    requires_shipping: true,
    taxable: true,
    gift_card: false,
    properties: [],
  };
}

function draftOrderPayload(d: EmulatorDraftOrder, links: PayloadLinks): Json {
  const totals = totalsOf(d);
  return {
    id: Number(d.legacyId),
    admin_graphql_api_id: toGid('DraftOrder', d.legacyId),
    name: d.name,
    status: d.status.toLowerCase(),
    email: d.email,
    note: d.note,
    currency: CURRENCY,
    created_at: restTime(d.createdAt),
    updated_at: restTime(d.updatedAt),
    completed_at: restTime(d.completedAt),
    invoice_sent_at: null,
    invoice_url: links.invoiceUrl(d),
    order_id: d.orderLegacyId === null ? null : Number(d.orderLegacyId),
    reserve_inventory_until: null,
    tax_exempt: d.taxExempt,
    taxes_included: false,
    tags: restTags(d.tags),
    note_attributes: noteAttributes(d.customAttributes),
    line_items: d.lineItems.map((l) => ({ ...lineItemBase(l, 'DraftOrderLineItem'), custom: false, applied_discount: null })),
    shipping_address: addressPayload(d.shippingAddress),
    billing_address: addressPayload(d.billingAddress),
    applied_discount: discountPayload(d.appliedDiscount, totals.discountsCents),
    shipping_line: d.shippingLine
      ? { custom: true, handle: null, title: d.shippingLine.title, price: formatRestMoney(d.shippingLine.cents) }
      : null,
    subtotal_price: formatRestMoney(totals.subtotalCents),
    total_price: formatRestMoney(totals.totalCents),
    total_tax: formatRestMoney(totals.taxCents),
    customer: null,
    payment_terms: null,
  };
}

function orderLineItems(o: EmulatorOrder): Json[] {
  const fulfilled = displayFulfillmentStatus(o) === 'FULFILLED';
  return o.lineItems.map((l) => ({
    ...lineItemBase(l, 'LineItem'),
    current_quantity: l.quantity,
    fulfillable_quantity: fulfilled ? 0 : l.quantity,
    fulfillment_status: fulfilled ? 'fulfilled' : null,
    // An order-level discount is not spread over the lines in REST payloads.
    total_discount: '0.00',
    product_exists: true,
  }));
}

function fulfillmentPayload(o: EmulatorOrder, f: EmulatorFulfillment): Json {
  return {
    id: Number(f.legacyId),
    admin_graphql_api_id: toGid('Fulfillment', f.legacyId),
    order_id: Number(o.legacyId),
    name: f.name,
    status: f.status.toLowerCase(),
    created_at: restTime(f.createdAt),
    updated_at: restTime(f.updatedAt),
    service: 'manual',
    shipment_status: null,
    location_id: null,
    email: o.email,
    destination: addressPayload(o.shippingAddress),
    line_items: orderLineItems(o),
    tracking_company: null,
    tracking_number: null,
    tracking_numbers: [],
    tracking_url: f.trackingUrl,
    tracking_urls: f.trackingUrl ? [f.trackingUrl] : [],
    receipt: {},
  };
}

/** orders/create, orders/paid, orders/updated and orders/fulfilled all carry this shape. */
function orderPayload(o: EmulatorOrder, links: PayloadLinks): Json {
  const totals = totalsOf(o);
  const fulfilled = displayFulfillmentStatus(o) === 'FULFILLED';
  return {
    id: Number(o.legacyId),
    admin_graphql_api_id: toGid('Order', o.legacyId),
    name: o.name,
    number: o.number - 1000,
    order_number: o.number,
    confirmation_number: o.confirmationNumber,
    confirmed: true,
    test: false,
    email: o.email,
    contact_email: o.email,
    phone: null,
    note: o.note,
    note_attributes: noteAttributes(o.customAttributes),
    tags: restTags(o.tags),
    source_name: o.sourceName,
    currency: CURRENCY,
    presentment_currency: CURRENCY,
    financial_status: o.financialStatus.toLowerCase(),
    fulfillment_status: fulfilled ? 'fulfilled' : null,
    created_at: restTime(o.createdAt),
    updated_at: restTime(o.updatedAt),
    processed_at: restTime(o.processedAt),
    closed_at: null,
    cancelled_at: null,
    cancel_reason: null,
    order_status_url: links.orderStatusUrl(o),
    tax_exempt: o.taxExempt,
    taxes_included: false,
    total_line_items_price: formatRestMoney(totals.lineItemsCents),
    total_discounts: formatRestMoney(totals.discountsCents),
    subtotal_price: formatRestMoney(totals.subtotalCents),
    total_tax: formatRestMoney(totals.taxCents),
    total_price: formatRestMoney(totals.totalCents),
    current_subtotal_price: formatRestMoney(totals.subtotalCents),
    current_total_discounts: formatRestMoney(totals.discountsCents),
    current_total_tax: formatRestMoney(totals.taxCents),
    current_total_price: formatRestMoney(totals.totalCents),
    discount_codes: [],
    customer: null,
    billing_address: addressPayload(o.billingAddress),
    shipping_address: addressPayload(o.shippingAddress),
    line_items: orderLineItems(o),
    shipping_lines: o.shippingLine
      ? [{ title: o.shippingLine.title, code: o.shippingLine.title, price: formatRestMoney(o.shippingLine.cents), source: 'shopify' }]
      : [],
    fulfillments: o.fulfillments.map((f) => fulfillmentPayload(o, f)),
    refunds: [],
  };
}

/** The webhooks one order-side action fires; all of them share one X-Shopify-Event-Id. */
export function orderEventMessages(event: OrderEvent, links: PayloadLinks): WebhookMessage[] {
  switch (event.type) {
    case 'draft-order-completed': {
      const order = orderPayload(event.order, links);
      return [
        { topic: 'DRAFT_ORDERS_UPDATE', payload: draftOrderPayload(event.draftOrder, links) },
        { topic: 'ORDERS_CREATE', payload: order },
        { topic: 'ORDERS_PAID', payload: order },
      ];
    }
    case 'order-fulfilled': {
      const order = orderPayload(event.order, links);
      return [
        { topic: 'FULFILLMENTS_CREATE', payload: fulfillmentPayload(event.order, event.fulfillment) },
        { topic: 'ORDERS_FULFILLED', payload: order },
        { topic: 'ORDERS_UPDATED', payload: order },
      ];
    }
  }
}

/** The emulated shop's one stock location. */
const LOCATION_ID = 65_000_000_001;

/** products/create and products/update: the REST product (Shopify's products/update sample). */
export function productPayload(p: EmulatorProduct): Json {
  const id = Number(p.legacyId);
  return {
    admin_graphql_api_id: toGid('Product', p.legacyId),
    id,
    title: p.title,
    handle: p.handle,
    body_html: p.descriptionHtml,
    product_type: p.productType,
    vendor: p.vendor,
    status: p.status.toLowerCase(),
    created_at: restTime(p.createdAt),
    published_at: restTime(p.createdAt),
    updated_at: restTime(p.updatedAt),
    tags: restTags(p.tags),
    variants: p.variants.map((v, i) => ({
      admin_graphql_api_id: toGid('ProductVariant', v.legacyId),
      id: Number(v.legacyId),
      product_id: id,
      title: v.title,
      sku: v.sku,
      price: v.price,
      compare_at_price: v.compareAtPrice,
      inventory_policy: 'deny',
      position: i + 1,
      option1: v.selectedOptions[0]?.value ?? null,
      option2: v.selectedOptions[1]?.value ?? null,
      option3: v.selectedOptions[2]?.value ?? null,
      inventory_item_id: Number(v.inventoryItemLegacyId),
      inventory_quantity: v.inventoryQuantity,
      old_inventory_quantity: v.inventoryQuantity,
      created_at: restTime(v.createdAt),
      updated_at: restTime(v.updatedAt),
    })),
    options: [],
    images: [],
    image: null,
    media: [],
    variant_gids: p.variants.map((v) => ({ admin_graphql_api_id: toGid('ProductVariant', v.legacyId), updated_at: v.updatedAt })),
    has_variants_that_requires_components: false,
    category: null,
  };
}

/** products/delete: the id alone. */
export const productDeletePayload = (legacyId: string): Json => ({ id: Number(legacyId) });

/** inventory_levels/update: the level of the variant's inventory item at the shop's location. */
export function inventoryLevelPayload(v: EmulatorVariant, updatedAt: string): Json {
  return {
    inventory_item_id: Number(v.inventoryItemLegacyId),
    location_id: LOCATION_ID,
    available: v.inventoryQuantity,
    updated_at: restTime(updatedAt),
    admin_graphql_api_id: `gid://shopify/InventoryLevel/${LOCATION_ID}?inventory_item_id=${v.inventoryItemLegacyId}`,
  };
}
