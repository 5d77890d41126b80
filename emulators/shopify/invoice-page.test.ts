import { describe, expect, it } from 'vitest';
import { escapeHtml, initialForm, readCheckoutForm, renderCheckoutPage, renderThankYouPage, type InvoiceView } from './invoice-page';
import { computeTotals } from './money';
import type { EmulatorDraftOrder, EmulatorOrder } from './order-state';

const draft = {
  legacyId: '1',
  name: '#D1',
  status: 'OPEN',
  invoiceToken: 'a'.repeat(32),
  email: 'buyer@example.com',
  note: null,
  tags: [],
  taxExempt: true,
  customAttributes: [],
  lineItems: [],
  appliedDiscount: { title: 'Paid with <POG>', description: null, value: 100, valueType: 'PERCENTAGE' },
  shippingLine: { title: 'Free shipping', cents: 0 },
  shippingAddress: null,
  billingAddress: null,
  createdAt: '2026-11-01T00:00:00Z',
  updatedAt: '2026-11-01T00:00:00Z',
  completedAt: null,
  orderLegacyId: null,
} satisfies EmulatorDraftOrder;

const view: InvoiceView = {
  draft,
  lines: [
    {
      title: 'Classic <Hoodie>',
      variantTitle: 'Black / S',
      quantity: 2,
      totalCents: 12998,
      imageUrl: 'https://shop.test/cdn/images/classic-hoodie-1.svg',
    },
  ],
  totals: computeTotals([{ unitCents: 6499, quantity: 2 }], draft.appliedDiscount, 0),
};

const validBody = {
  email: 'a@b.co',
  firstName: '',
  lastName: 'Lee',
  address1: '1 Main St',
  address2: '',
  city: 'Springfield',
  zip: '12345',
  country: 'us',
};

describe('invoice page', () => {
  it('escapes HTML', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
  });

  it('renders the summary and a form whose fields all have labels', () => {
    const html = renderCheckoutPage(view, initialForm(draft));
    expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    expect(html).toContain('POGS Demo Store');
    expect(html).toContain('Classic &lt;Hoodie&gt;');
    expect(html).toContain('Paid with &lt;POG&gt;');
    expect(html).toContain('<dt>Total</dt> <dd>$0.00</dd>');
    expect(html).toContain('aria-label="Quantity 2"');
    for (const id of ['email', 'country', 'firstName', 'lastName', 'address1', 'address2', 'city', 'zip']) {
      expect(html).toContain(`<label for="checkout-${id}">`);
      expect(html).toContain(`id="checkout-${id}"`);
    }
    expect(html).toContain('value="buyer@example.com"');
    expect(html).toContain('<option value="US" selected>United States</option>');
    expect(html).toContain('<button type="submit">Complete order</button>');
    expect(html).not.toContain('role="alert"');
  });

  it('validates the form and re-renders the messages next to the fields', () => {
    expect(readCheckoutForm(validBody)).toEqual({ form: { ...validBody, country: 'US' }, errors: {} });
    const { form, errors } = readCheckoutForm({ email: 'nope', country: 'XX', lastName: ['array'] });
    expect(errors).toEqual({
      email: 'Enter a valid email',
      lastName: 'Enter a last name',
      address1: 'Enter an address',
      city: 'Enter a city',
      zip: 'Enter a ZIP / postal code',
      country: 'Select a country/region',
    });
    const html = renderCheckoutPage(view, form, errors);
    expect(html).toContain('role="alert"');
    expect(html).toContain('<span class="error" id="checkout-city-error">Enter a city</span>');
    expect(html).toContain('aria-describedby="checkout-city-error"');
    expect(html).toContain('value="nope"');
  });

  it('offers a country outside the short list when the draft already has it', () => {
    const html = renderCheckoutPage(view, { ...initialForm(draft), country: 'NZ' });
    expect(html).toContain('<option value="NZ" selected>New Zealand</option>');
  });

  it('renders the order status page with the order name and address', () => {
    const order = {
      name: '#1001',
      confirmationNumber: 'ABCDEFGHJ',
      email: 'a@b.co',
      shippingAddress: {
        firstName: 'Ann',
        lastName: 'Lee',
        company: null,
        address1: '1 Main St',
        address2: null,
        city: 'Springfield',
        province: null,
        provinceCode: null,
        zip: '12345',
        country: 'United States',
        countryCode: 'US',
        phone: null,
      },
      shippingLine: { title: 'Free shipping', cents: 0 },
      fulfillments: [] as EmulatorOrder['fulfillments'],
    } as EmulatorOrder;
    const html = renderThankYouPage(view, order);
    expect(html).toContain('Thank you, your order #1001 is confirmed');
    expect(html).toContain('Confirmation #ABCDEFGHJ');
    expect(html).toContain('<p>Springfield 12345</p>');
    expect(html).not.toContain('<form');
    order.fulfillments.push({
      legacyId: '9',
      name: '#1001.1',
      status: 'SUCCESS',
      createdAt: '2026-11-02T00:00:00Z',
      updatedAt: '2026-11-02T00:00:00Z',
      trackingUrl: null,
    });
    expect(renderThankYouPage(view, order)).toContain('Your order is on its way');
  });
});
