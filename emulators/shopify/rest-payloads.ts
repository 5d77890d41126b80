// Webhook bodies: REST resource JSON (snake_case, numeric `id` + `admin_graphql_api_id`, money as
// two-decimal strings, tags as one ", "-joined string), shaped after the contract's §5.5 samples.
// Ids stay below 2^53, so plain JSON numbers are exact.
import type { EmulatorEvent, EmulatorProduct } from './emulator-state';
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
  imageUrl(product: EmulatorProduct, position: number): string;
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
const numericId = (legacyId: string | null) => (legacyId === null ? null : Number(legacyId));

export function addressPayload(a: EmulatorAddress | null): Json | null {
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
    variant_id: numericId(l.variantLegacyId),
    product_id: numericId(l.productLegacyId),
    title: l.title,
    variant_title: l.variantTitle,
    name: l.variantTitle ? `${l.title} - ${l.variantTitle}` : l.title,
    sku: l.sku,
    quantity: l.quantity,
    price: formatRestMoney(l.unitCents),
    requires_shipping: l.requiresShipping,
    taxable: l.taxable,
    gift_card: false,
    properties: noteAttributes(l.customAttributes),
  };
}

export function draftOrderPayload(d: EmulatorDraftOrder, links: PayloadLinks): Json {
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
    order_id: numericId(d.orderLegacyId),
    reserve_inventory_until: restTime(d.reserveInventoryUntil),
    tax_exempt: d.taxExempt,
    taxes_included: false,
    tags: restTags(d.tags),
    note_attributes: noteAttributes(d.customAttributes),
    line_items: d.lineItems.map((l, i) => ({
      ...lineItemBase(l, 'DraftOrderLineItem'),
      custom: l.custom,
      applied_discount: discountPayload(l.appliedDiscount, totals.lineDiscountCents[i]),
    })),
    shipping_address: addressPayload(d.shippingAddress),
    billing_address: addressPayload(d.billingAddress),
    applied_discount: discountPayload(d.appliedDiscount, totals.orderDiscountCents),
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
  const totals = totalsOf(o);
  const fulfilled = displayFulfillmentStatus(o) === 'FULFILLED';
  return o.lineItems.map((l, i) => ({
    ...lineItemBase(l, 'LineItem'),
    current_quantity: l.quantity,
    fulfillable_quantity: fulfilled ? 0 : l.quantity,
    fulfillment_status: fulfilled ? 'fulfilled' : null,
    total_discount: formatRestMoney(totals.lineDiscountCents[i]),
    product_exists: l.productLegacyId !== null,
  }));
}

export function fulfillmentPayload(o: EmulatorOrder, f: EmulatorFulfillment): Json {
  const t = f.tracking;
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
    tracking_company: t?.company ?? null,
    tracking_number: t?.number ?? null,
    tracking_numbers: t?.number ? [t.number] : [],
    tracking_url: t?.url ?? null,
    tracking_urls: t?.url ? [t.url] : [],
    receipt: {},
  };
}

/** orders/create, orders/paid, orders/updated and orders/fulfilled all carry this shape. */
export function orderPayload(o: EmulatorOrder, links: PayloadLinks): Json {
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
    phone: o.phone,
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

export function productPayload(p: EmulatorProduct, links: PayloadLinks): Json {
  const optionNames = [...new Set(p.variants.flatMap((v) => v.selectedOptions.map((o) => o.name)))];
  const images = p.images.map((img, i) => ({
    id: Number(img.legacyId),
    admin_graphql_api_id: toGid('ProductImage', img.legacyId),
    product_id: Number(p.legacyId),
    position: i + 1,
    alt: img.alt,
    width: img.width,
    height: img.height,
    src: img.url ?? links.imageUrl(p, i + 1),
  }));
  return {
    admin_graphql_api_id: toGid('Product', p.legacyId),
    id: Number(p.legacyId),
    title: p.title,
    handle: p.handle,
    body_html: p.descriptionHtml,
    vendor: p.vendor,
    product_type: p.productType,
    status: p.status.toLowerCase(),
    created_at: restTime(p.createdAt),
    updated_at: restTime(p.updatedAt),
    published_at: p.status === 'ACTIVE' ? restTime(p.createdAt) : null,
    tags: restTags(p.tags),
    variants: p.variants.map((v, i) => {
      const option = (n: number) => v.selectedOptions.find((o) => o.name === optionNames[n])?.value ?? null;
      return {
        admin_graphql_api_id: toGid('ProductVariant', v.legacyId),
        id: Number(v.legacyId),
        product_id: Number(p.legacyId),
        title: v.title,
        sku: v.sku,
        barcode: v.barcode,
        price: v.price,
        compare_at_price: v.compareAtPrice,
        inventory_policy: 'deny',
        position: i + 1,
        option1: option(0),
        option2: option(1),
        option3: option(2),
        inventory_quantity: v.inventoryQuantity,
        old_inventory_quantity: v.inventoryQuantity,
        image_id: v.imagePosition ? (images[v.imagePosition - 1]?.id ?? null) : null,
        created_at: restTime(v.createdAt),
        updated_at: restTime(v.updatedAt),
      };
    }),
    options: optionNames.map((name, i) => ({
      product_id: Number(p.legacyId),
      name,
      position: i + 1,
      values: [...new Set(p.variants.flatMap((v) => v.selectedOptions.filter((o) => o.name === name).map((o) => o.value)))],
    })),
    images,
    image: images[0] ?? null,
    variant_gids: p.variants.map((v) => ({ admin_graphql_api_id: toGid('ProductVariant', v.legacyId), updated_at: v.updatedAt })),
    has_variants_that_requires_components: false,
    category: null,
  };
}

/** The webhooks one order-side action fires; all of them share one X-Shopify-Event-Id. */
export function orderEventMessages(event: OrderEvent, links: PayloadLinks): WebhookMessage[] {
  switch (event.type) {
    case 'draft-order-created':
      return [{ topic: 'DRAFT_ORDERS_CREATE', payload: draftOrderPayload(event.draftOrder, links) }];
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

export function productEventMessages(event: EmulatorEvent, links: PayloadLinks): WebhookMessage[] {
  if (event.type === 'product-deleted') return [{ topic: 'PRODUCTS_DELETE', payload: { id: Number(event.legacyId) } }];
  return [{ topic: event.created ? 'PRODUCTS_CREATE' : 'PRODUCTS_UPDATE', payload: productPayload(event.product, links) }];
}
