import { describe, expect, it } from 'vitest';
import { demoCatalogue } from './demo-catalogue';
import { EmulatorState } from './emulator-state';
import { filterDraftOrders } from './order-search';
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
      lineItems: [{ variantId: variantId(), quantity: 2 }],
      tags: [' payref-1 ', 'crypto-paid', 'CRYPTO-PAID', ''],
      shippingLine: { title: 'Free', priceWithCurrency: { amount: '0.00' } },
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
    });
    // Nothing is announced for a new draft: no webhook the flow needs hangs off it.
    expect(events).toEqual([]);
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
      ],
      shippingLine: { title: 'Free', priceWithCurrency: { amount: 'free' } },
      tags: ['x'.repeat(41)],
    });
    expect(result).toEqual({
      userErrors: [
        { field: null, message: 'Product with ID 1 is no longer available.' },
        { field: ['lineItems', '1', 'quantity'], message: 'Quantity must be greater than or equal to 1' },
        { field: ['shippingLine', 'priceWithCurrency', 'amount'], message: 'Price is invalid' },
        { field: ['tags', '0'], message: 'Title Tag exceeds the maximum length of 40 characters' },
      ],
    });
    expect(orders.createDraftOrder({})).toEqual({ userErrors: [{ field: null, message: 'Add at least 1 product' }] });
    expect(orders.listDraftOrders()).toEqual([]);
    expect(events).toEqual([]);
  });

  it('completes a draft into a paid order that carries note, tags and attributes', () => {
    const { orders, events, variantId, create } = setup();
    const draft = create({
      lineItems: [{ variantId: variantId(), quantity: 1 }],
      note: 'payment_ref=pay_1',
      tags: ['payref-pay_1'],
      customAttributes: [{ key: 'payment_ref', value: 'pay_1' }],
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

  it('fulfils an order once', () => {
    const { orders, events, variantId, create } = setup();
    const draft = create({ lineItems: [{ variantId: variantId(), quantity: 1 }] });
    const { order } = orders.completeDraftOrder(draft.legacyId);
    const { fulfillment } = orders.fulfillOrder(`gid://shopify/Order/${order.legacyId}`);
    expect(fulfillment).toMatchObject({ name: '#1001.1', status: 'SUCCESS' });
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

  it('finds drafts by tag, as the hand-off looks up the one it may already have made', () => {
    const { variantId, create, orders } = setup();
    const a = create({ lineItems: [{ variantId: variantId(), quantity: 1 }], tags: ['pogs-shop', 'pogs-order-a'] });
    const b = create({ lineItems: [{ variantId: variantId(), quantity: 1 }], tags: ['pogs-shop', 'pogs-order-b'] });
    const drafts = orders.listDraftOrders();
    expect(filterDraftOrders(drafts, 'tag:pogs-order-a')).toEqual([a]);
    expect(filterDraftOrders(drafts, 'tag:POGS-ORDER-B')).toEqual([b]);
    expect(filterDraftOrders(drafts, "tag:'pogs-order-b'")).toEqual([b]);
    expect(filterDraftOrders(drafts, 'tag:pogs-order-*')).toEqual([a, b]);
    expect(filterDraftOrders(drafts, 'tag:pogs-shop tag:pogs-order-a')).toEqual([a]);
    expect(filterDraftOrders(drafts, 'tag:pogs-order-c')).toEqual([]);
    expect(filterDraftOrders(drafts, null)).toEqual(drafts);
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
