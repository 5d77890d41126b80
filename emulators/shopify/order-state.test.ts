import { describe, expect, it } from 'vitest';
import { demoCatalogue } from './demo-catalogue';
import { EmulatorState } from './emulator-state';
import { filterDraftOrders, filterOrders } from './order-search';
import { EmulatorOrders, normalizeTags, OrderStateError, toAddress, type DraftOrderInput, type OrderEvent } from './order-state';

const NOW = Date.parse('2026-11-01T10:00:00Z');

function setup() {
  const state = new EmulatorState(demoCatalogue, () => NOW);
  const orders = new EmulatorOrders(state, () => NOW);
  const events: OrderEvent[] = [];
  orders.subscribe((e) => events.push(e));
  const hoodie = state.getProductByHandle('classic-hoodie')!;
  const variantId = (i = 0) => `gid://shopify/ProductVariant/${hoodie.variants[i].legacyId}`;
  const create = (input: DraftOrderInput) => {
    const result = orders.createDraftOrder(input);
    if (!('draftOrder' in result)) throw new Error(JSON.stringify(result.userErrors));
    return result.draftOrder;
  };
  return { state, orders, events, hoodie, variantId, create };
}

describe('EmulatorOrders', () => {
  it('creates a draft from catalogue variants, priced at creation time', () => {
    const { orders, events, hoodie, variantId, create } = setup();
    const draft = create({
      lineItems: [{ variantId: variantId(), quantity: 2, title: 'ignored for a variant', originalUnitPrice: '1.00' }],
      tags: [' payref-1 ', 'crypto-paid', 'CRYPTO-PAID', ''],
      email: 'buyer@example.com',
      shippingLine: { title: 'Free', price: 0 },
    });
    expect(draft).toMatchObject({
      name: '#D1',
      status: 'OPEN',
      tags: ['crypto-paid', 'payref-1'],
      createdAt: '2026-11-01T10:00:00Z',
      completedAt: null,
      orderLegacyId: null,
      shippingLine: { title: 'Free', cents: 0 },
    });
    expect(draft.invoiceToken).toMatch(/^[0-9a-f]{32}$/);
    expect(draft.lineItems[0]).toMatchObject({
      title: 'Classic Hoodie',
      variantTitle: hoodie.variants[0].title,
      variantLegacyId: hoodie.variants[0].legacyId,
      productLegacyId: hoodie.legacyId,
      unitCents: 6499,
      custom: false,
    });
    expect(events).toEqual([{ type: 'draft-order-created', draftOrder: draft }]);
    expect(orders.getDraftOrder(`gid://shopify/DraftOrder/${draft.legacyId}`)).toBe(draft);
    expect(orders.getDraftOrder(draft.legacyId)).toBe(draft);
    expect(orders.getDraftOrder(`gid://shopify/Order/${draft.legacyId}`)).toBeUndefined();
    expect(orders.getDraftOrderByToken(draft.invoiceToken)).toBe(draft);
  });

  it('collects every userError Shopify would report, and creates nothing', () => {
    const { orders, events, variantId } = setup();
    const result = orders.createDraftOrder({
      lineItems: [
        { variantId: 'gid://shopify/ProductVariant/1', quantity: 1 },
        { variantId: variantId(), quantity: 0 },
        { quantity: 1, originalUnitPrice: '-1.00' },
      ],
      appliedDiscount: { value: 150, valueType: 'PERCENTAGE' },
      email: 'nope',
      tags: ['x'.repeat(41)],
      reserveInventoryUntil: '2020-01-01T00:00:00Z',
      paymentTerms: {},
    });
    expect(result).toEqual({
      userErrors: [
        { field: null, message: 'Product with ID 1 is no longer available.' },
        { field: ['lineItems', '1', 'quantity'], message: 'Quantity must be greater than or equal to 1' },
        { field: null, message: 'Merchandise title is empty.' },
        { field: null, message: 'Cannot send negative price for line_item' },
        { field: ['appliedDiscount', 'value'], message: 'Applied discount value must be less than or equal to 100%' },
        { field: ['email'], message: 'Email is invalid' },
        { field: ['tags', '0'], message: 'Title Tag exceeds the maximum length of 40 characters' },
        { field: null, message: "Reserve until can't be in the past" },
        { field: null, message: 'Payment terms template id can not be empty.' },
      ],
    });
    expect(orders.createDraftOrder({})).toEqual({ userErrors: [{ field: null, message: 'Add at least 1 product' }] });
    expect(
      orders.createDraftOrder({ lineItems: [{ quantity: 1, title: 'x', appliedDiscount: { value: 12.345, valueType: 'PERCENTAGE' } }] }),
    ).toEqual({
      userErrors: [
        {
          field: ['lineItems', '0', 'appliedDiscount', 'value'],
          message: 'Applied discount value can have at most 2 digits after decimal point',
        },
      ],
    });
    expect(orders.listDraftOrders()).toEqual([]);
    expect(events).toEqual([]);
  });

  it('accepts custom line items priced by originalUnitPrice', () => {
    const { create } = setup();
    const draft = create({
      lineItems: [
        { title: 'Gift wrap', quantity: 1, originalUnitPriceWithCurrency: { amount: '2.50' } },
        { title: 'Sticker', quantity: 3 },
      ],
    });
    expect(draft.lineItems.map((l) => [l.title, l.unitCents, l.custom, l.variantLegacyId])).toEqual([
      ['Gift wrap', 250, true, null],
      ['Sticker', 0, true, null],
    ]);
  });

  it('completes a draft into a paid order that carries note, tags and attributes', () => {
    const { orders, events, variantId, create } = setup();
    const draft = create({
      lineItems: [{ variantId: variantId(), quantity: 1 }],
      note: 'payment_ref=pay_1',
      tags: ['payref-pay_1'],
      customAttributes: [{ key: 'payment_ref', value: 'pay_1' }],
      email: 'draft@example.com',
    });
    const { order } = orders.completeDraftOrder(`gid://shopify/DraftOrder/${draft.legacyId}`, {
      email: 'checkout@example.com',
      shippingAddress: { firstName: 'Ann', lastName: 'Lee', address1: '1 Main St', city: 'Springfield', zip: '12345', countryCode: 'us' },
    });
    expect(draft).toMatchObject({
      status: 'COMPLETED',
      completedAt: '2026-11-01T10:00:00Z',
      orderLegacyId: order.legacyId,
      email: 'checkout@example.com',
    });
    expect(order).toMatchObject({
      name: '#1001',
      financialStatus: 'PAID',
      sourceName: 'shopify_draft_order',
      note: 'payment_ref=pay_1',
      tags: ['payref-pay_1'],
      customAttributes: [{ key: 'payment_ref', value: 'pay_1' }],
      email: 'checkout@example.com',
      shippingAddress: { firstName: 'Ann', country: 'United States', countryCode: 'US' },
      billingAddress: { lastName: 'Lee' },
      fulfillments: [],
    });
    expect(order.confirmationNumber).toMatch(/^[A-Z1-9]{9}$/);
    expect(order.lineItems[0].legacyId).not.toBe(draft.lineItems[0].legacyId);
    expect(events.at(-1)).toEqual({ type: 'draft-order-completed', draftOrder: draft, order });
    expect(orders.orderOf(draft)).toBe(order);

    expect(() => orders.completeDraftOrder(draft.legacyId)).toThrow(OrderStateError);
    expect(() => orders.completeDraftOrder('42')).toThrow(/No draft order 42/);
    const second = create({ lineItems: [{ variantId: variantId(), quantity: 1 }] });
    expect(orders.completeDraftOrder(second.legacyId).order.name).toBe('#1002');
  });

  it('fulfils an order once, with optional tracking', () => {
    const { orders, events, variantId, create } = setup();
    const draft = create({ lineItems: [{ variantId: variantId(), quantity: 1 }] });
    const { order } = orders.completeDraftOrder(draft.legacyId);
    const tracking = { company: 'UPS', number: '1Z', url: null };
    const { fulfillment } = orders.fulfillOrder(`gid://shopify/Order/${order.legacyId}`, tracking);
    expect(fulfillment).toMatchObject({ name: '#1001.1', status: 'SUCCESS', tracking });
    expect(order.fulfillments).toEqual([fulfillment]);
    expect(events.at(-1)).toEqual({ type: 'order-fulfilled', order, fulfillment });
    expect(() => orders.fulfillOrder(order.legacyId)).toThrow(/already fulfilled/);
    const missing = (() => {
      try {
        orders.fulfillOrder('1');
      } catch (err) {
        return err;
      }
    })();
    expect(missing).toBeInstanceOf(OrderStateError);
    expect(missing).toMatchObject({ status: 404 });
  });

  it('restarts numbering on reset', () => {
    const { orders, variantId, create } = setup();
    create({ lineItems: [{ variantId: variantId(), quantity: 1 }] });
    orders.reset();
    expect(orders.listDraftOrders()).toEqual([]);
    expect(create({ lineItems: [{ variantId: variantId(), quantity: 1 }] }).name).toBe('#D1');
  });

  it('searches drafts and orders by tag, status, name and fulfilment', () => {
    const { orders, variantId, create } = setup();
    const a = create({ lineItems: [{ variantId: variantId(), quantity: 1 }], tags: ['payref-a'], email: 'a@example.com' });
    const b = create({ lineItems: [{ variantId: variantId(), quantity: 1 }], tags: ['payref-b'] });
    orders.completeDraftOrder(b.legacyId);
    const drafts = orders.listDraftOrders();
    expect(filterDraftOrders(drafts, 'tag:payref-a')).toEqual([a]);
    expect(filterDraftOrders(drafts, 'tag:PAYREF-B')).toEqual([b]);
    expect(filterDraftOrders(drafts, 'status:completed')).toEqual([b]);
    expect(filterDraftOrders(drafts, 'status:open,invoice_sent')).toEqual([a]);
    expect(filterDraftOrders(drafts, 'name:D2')).toEqual([b]);
    expect(filterDraftOrders(drafts, 'email:a@example.com')).toEqual([a]);
    expect(filterDraftOrders(drafts, '-tag:payref-a')).toEqual([b]);
    expect(filterDraftOrders(drafts, null)).toEqual(drafts);
    const all = orders.listOrders();
    expect(filterOrders(all, 'tag:payref-b fulfillment_status:unshipped')).toEqual(all);
    orders.fulfillOrder(all[0].legacyId);
    expect(filterOrders(all, 'fulfillment_status:unshipped')).toEqual([]);
    expect(filterOrders(all, 'financial_status:paid name:#1001')).toEqual(all);
  });
});

describe('order-state helpers', () => {
  it('normalises tags like Shopify: trimmed, case-insensitively unique, sorted', () => {
    expect(normalizeTags(['tag-10', ' tag-2 ', 'tag-1', 'TAG-1', ''])).toEqual(['tag-1', 'tag-10', 'tag-2']);
  });

  it('builds an address with the country name from its code', () => {
    expect(toAddress({ lastName: ' Lee ', countryCode: 'gb', address2: '' })).toMatchObject({
      lastName: 'Lee',
      countryCode: 'GB',
      country: 'United Kingdom',
      address2: null,
    });
    expect(toAddress({ country: 'Narnia' })).toMatchObject({ country: 'Narnia', countryCode: null });
  });
});
