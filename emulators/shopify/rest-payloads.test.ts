import { describe, expect, it } from 'vitest';
import { demoCatalogue } from './demo-catalogue';
import { EmulatorState } from './emulator-state';
import { EmulatorOrders } from './order-state';
import { orderEventMessages, restTime, type PayloadLinks } from './rest-payloads';
import type { WebhookMessage } from './webhooks';

const NOW = Date.parse('2026-11-01T10:00:00Z');
const links: PayloadLinks = {
  invoiceUrl: (d) => `https://shop.test/548380009/invoices/${d.invoiceToken}`,
  orderStatusUrl: (o) => `https://shop.test/status/${o.legacyId}`,
};

function completedOrder() {
  const state = new EmulatorState(demoCatalogue, () => NOW);
  const orders = new EmulatorOrders(state, () => NOW);
  // Mapped as the emulator does it: inside the listener, so each body shows the state of its moment.
  const events: WebhookMessage[][] = [];
  orders.subscribe((e) => events.push(orderEventMessages(e, links)));
  const hoodie = state.getProductByHandle('classic-hoodie')!;
  const created = orders.createDraftOrder({
    lineItems: [{ variantId: `gid://shopify/ProductVariant/${hoodie.variants[0].legacyId}`, quantity: 2 }],
    appliedDiscount: { value: 100, valueType: 'PERCENTAGE', title: 'Paid with POG' },
    shippingLine: { title: 'Free shipping', priceWithCurrency: { amount: '0' } },
    tags: ['payref-1', 'crypto-paid'],
    customAttributes: [{ key: 'payment_ref', value: '1' }],
    note: 'payment_ref=1',
  });
  if (!('draftOrder' in created)) throw new Error('draft not created');
  const { order } = orders.completeDraftOrder(created.draftOrder.legacyId, {
    shippingAddress: { firstName: 'Ann', lastName: 'Lee', city: 'Springfield', countryCode: 'US' },
  });
  orders.fulfillOrder(order.legacyId);
  return { events, hoodie, draft: created.draftOrder, order };
}

describe('webhook payloads', () => {
  it('prints REST timestamps with the shop’s UTC offset', () => {
    expect(restTime('2026-11-01T10:00:00Z')).toBe('2026-11-01T10:00:00+00:00');
    expect(restTime(null)).toBeNull();
  });

  it('sends draft_orders/update, orders/create and orders/paid when the invoice is completed', () => {
    const { events, draft, order, hoodie } = completedOrder();
    const messages = events[0];
    expect(messages.map((m) => m.topic)).toEqual(['DRAFT_ORDERS_UPDATE', 'ORDERS_CREATE', 'ORDERS_PAID']);
    expect(messages[0].payload).toMatchObject({
      admin_graphql_api_id: `gid://shopify/DraftOrder/${draft.legacyId}`,
      name: '#D1',
      status: 'completed',
      completed_at: '2026-11-01T10:00:00+00:00',
      order_id: Number(order.legacyId),
      invoice_url: `https://shop.test/548380009/invoices/${draft.invoiceToken}`,
      tags: 'crypto-paid, payref-1',
      note_attributes: [{ name: 'payment_ref', value: '1' }],
      applied_discount: { title: 'Paid with POG', value: '100.0', value_type: 'percentage', amount: '129.98' },
      shipping_line: { custom: true, handle: null, title: 'Free shipping', price: '0.00' },
      subtotal_price: '0.00',
      total_price: '0.00',
      shipping_address: {
        first_name: 'Ann',
        last_name: 'Lee',
        name: 'Ann Lee',
        city: 'Springfield',
        country: 'United States',
        country_code: 'US',
      },
      line_items: [
        {
          admin_graphql_api_id: `gid://shopify/DraftOrderLineItem/${draft.lineItems[0].legacyId}`,
          variant_id: Number(hoodie.variants[0].legacyId),
          product_id: Number(hoodie.legacyId),
          quantity: 2,
          price: '64.99',
          custom: false,
        },
      ],
    });
    // Built when the event happened: the later fulfilment is not in it.
    expect(messages[1].payload).toMatchObject({
      admin_graphql_api_id: `gid://shopify/Order/${order.legacyId}`,
      name: '#1001',
      order_number: 1001,
      number: 1,
      note: 'payment_ref=1',
      note_attributes: [{ name: 'payment_ref', value: '1' }],
      tags: 'crypto-paid, payref-1',
      financial_status: 'paid',
      fulfillment_status: null,
      fulfillments: [],
      total_price: '0.00',
      total_discounts: '129.98',
      source_name: 'shopify_draft_order',
      order_status_url: `https://shop.test/status/${order.legacyId}`,
      line_items: [{ admin_graphql_api_id: `gid://shopify/LineItem/${order.lineItems[0].legacyId}`, quantity: 2, fulfillable_quantity: 2 }],
    });
    expect(messages[2].payload).toBe(messages[1].payload);
  });

  it('sends fulfillments/create, orders/fulfilled and orders/updated on fulfilment', () => {
    const { events, order } = completedOrder();
    const messages = events[1];
    expect(messages.map((m) => m.topic)).toEqual(['FULFILLMENTS_CREATE', 'ORDERS_FULFILLED', 'ORDERS_UPDATED']);
    expect(messages[0].payload).toMatchObject({
      order_id: Number(order.legacyId),
      status: 'success',
      name: '#1001.1',
      tracking_company: null,
      tracking_numbers: [],
      destination: { name: 'Ann Lee' },
    });
    expect(messages[1].payload).toMatchObject({
      fulfillment_status: 'fulfilled',
      fulfillments: [{ status: 'success', tracking_number: null }],
      line_items: [{ fulfillable_quantity: 0, fulfillment_status: 'fulfilled' }],
    });
  });
});
