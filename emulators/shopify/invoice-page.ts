// The hosted checkout a draft order's invoiceUrl opens, rendered as plain HTML: an order summary
// and a contact + delivery form whose "Complete order" turns the draft into a paid order, then the
// order status ("thank you") page. It mimics Shopify's checkout closely enough for a shopper (and
// Playwright, which fills it by label) to find their way.
import { countryName, isCountryCode } from './countries';
import { formatUsd, type Totals } from './money';
import { addressName, type EmulatorAddress, type EmulatorDraftOrder, type EmulatorOrder } from './order-state';

const CHECKOUT_SHOP_NAME = 'POGS Demo Store';
/**
 * The countries the form offers; the first is preselected. Any other CountryCode is accepted too
 * (and offered when the draft's address already has it).
 */
const CHECKOUT_COUNTRIES = ['US', 'CA', 'GB', 'IE', 'DE', 'FR', 'NL', 'AU', 'IN', 'JP'];

interface InvoiceLine {
  title: string;
  variantTitle: string | null;
  quantity: number;
  /** Before discounts, as Shopify lists lines (the discount is its own summary row). */
  totalCents: number;
  imageUrl: string | null;
}

export interface InvoiceView {
  draft: EmulatorDraftOrder;
  lines: InvoiceLine[];
  totals: Totals;
}

interface CheckoutForm {
  email: string;
  firstName: string;
  lastName: string;
  address1: string;
  address2: string;
  city: string;
  zip: string;
  /** A CountryCode ("US"); the select is named `country` like Shopify checkout's. */
  country: string;
}

type CheckoutErrors = Partial<Record<keyof CheckoutForm, string>>;

const REQUIRED: Array<[keyof CheckoutForm, string]> = [
  ['email', 'Enter an email'],
  ['lastName', 'Enter a last name'],
  ['address1', 'Enter an address'],
  ['city', 'Enter a city'],
  ['zip', 'Enter a ZIP / postal code'],
];

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);
}

/** The form pre-filled from the draft (email, shipping address), as Shopify's checkout does. */
export function initialForm(draft: EmulatorDraftOrder): CheckoutForm {
  const a = draft.shippingAddress;
  const country = a?.countryCode && isCountryCode(a.countryCode) ? a.countryCode : CHECKOUT_COUNTRIES[0];
  return {
    email: draft.email ?? '',
    firstName: a?.firstName ?? '',
    lastName: a?.lastName ?? '',
    address1: a?.address1 ?? '',
    address2: a?.address2 ?? '',
    city: a?.city ?? '',
    zip: a?.zip ?? '',
    country,
  };
}

export function readCheckoutForm(body: Record<string, unknown>): { form: CheckoutForm; errors: CheckoutErrors } {
  const field = (name: keyof CheckoutForm) => {
    const value = body[name];
    return typeof value === 'string' ? value.trim() : '';
  };
  const form: CheckoutForm = {
    email: field('email'),
    firstName: field('firstName'),
    lastName: field('lastName'),
    address1: field('address1'),
    address2: field('address2'),
    city: field('city'),
    zip: field('zip'),
    country: field('country').toUpperCase(),
  };
  const errors: CheckoutErrors = {};
  for (const [name, message] of REQUIRED) if (!form[name]) errors[name] = message;
  if (form.email && !errors.email && !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(form.email)) errors.email = 'Enter a valid email';
  if (!isCountryCode(form.country)) errors.country = 'Select a country/region';
  return { form, errors };
}

const STYLE = `
*,*::before,*::after{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;font:14px/1.5 -apple-system,BlinkMacSystemFont,"Segoe UI",Roboto,Helvetica,Arial,sans-serif;color:#1a1a1a;background:#fff}
.top{border-bottom:1px solid #dedede;background:#fff}
.top .wrap{display:flex;align-items:center;justify-content:space-between;height:64px}
.brand{font-size:20px;font-weight:600;letter-spacing:-.01em;color:#1a1a1a;text-decoration:none}
.secure{display:flex;align-items:center;gap:6px;color:#707070;font-size:12px}
.wrap{max-width:1040px;margin:0 auto;padding:0 20px}
.layout{display:flex;flex-direction:column}
.summary{background:#f5f5f5;margin:0 -20px;padding:20px;border-bottom:1px solid #dedede}
.checkout{padding:24px 0 48px}
h1{font-size:22px;line-height:1.3;margin:4px 0 0;font-weight:600}
h2{font-size:17px;line-height:1.3;margin:0 0 14px;font-weight:600}
.checkout h2{margin-top:28px}.checkout h2:first-child{margin-top:0}
.lines{list-style:none;margin:0 0 18px;padding:0}
.line{display:flex;align-items:center;gap:14px;padding:8px 0}
.thumb{position:relative;flex:none;width:64px;height:64px;border:1px solid #dedede;border-radius:8px;background:#fff}
.thumb img{width:100%;height:100%;object-fit:cover;border-radius:7px;display:block}
.thumb .ph{display:flex;align-items:center;justify-content:center;height:100%;color:#707070;font-weight:600;font-size:20px}
.qty{position:absolute;top:-9px;right:-9px;min-width:21px;height:21px;padding:0 6px;border-radius:11px;background:#666;color:#fff;font-size:12px;font-weight:600;line-height:21px;text-align:center}
.line-text{flex:1;min-width:0}
.line-title{display:block;font-weight:500}
.line-variant{display:block;color:#707070;font-size:12px}
.line-price{white-space:nowrap}
.totals{margin:0}
.totals div{display:flex;justify-content:space-between;gap:12px;padding:3px 0}
.totals dt,.totals dd{margin:0}
.totals .muted{color:#707070}
.totals .grand{font-size:19px;font-weight:600;padding-top:12px}
.field{margin-bottom:12px}
.row{display:flex;gap:12px}.row .field{flex:1;min-width:0}
label{display:block;font-size:13px;color:#545454;margin-bottom:4px}
input,select{width:100%;font:inherit;font-size:16px;color:#1a1a1a;background:#fff;border:1px solid #dedede;border-radius:5px;padding:11px 12px;min-height:46px}
input:focus,select:focus{outline:none;border-color:#1773b0;box-shadow:0 0 0 1px #1773b0}
.invalid input,.invalid select{border-color:#dd1d1d;box-shadow:0 0 0 1px #dd1d1d}
.error{display:block;color:#dd1d1d;font-size:13px;margin-top:4px}
.alert{border:1px solid #f4b7b7;background:#fff4f4;color:#8c1111;border-radius:5px;padding:12px 14px;margin-bottom:18px}
button{width:100%;margin-top:20px;font:inherit;font-size:17px;font-weight:600;color:#fff;background:#1773b0;border:0;border-radius:5px;padding:16px;cursor:pointer}
button:hover{background:#136295}
.note{color:#707070;font-size:12px;margin-top:14px;text-align:center}
.done{padding-top:28px;padding-bottom:48px}
.confirm{display:flex;align-items:center;gap:14px;margin-bottom:24px}
.check{flex:none;width:48px;height:48px;border-radius:50%;border:2px solid #1773b0;display:flex;align-items:center;justify-content:center;color:#1773b0}
.muted{color:#707070}
.card{border:1px solid #dedede;border-radius:8px;padding:18px;margin-bottom:16px}
.card p{margin:0 0 6px}
.card h3{font-size:14px;margin:14px 0 4px;font-weight:600}.card h3:first-of-type{margin-top:0}
.done .summary{margin:0 0 16px;border:1px solid #dedede;border-radius:8px}
.status{display:inline-block;border-radius:12px;padding:2px 10px;font-size:12px;font-weight:600;background:#e6f4ea;color:#1e6b34}
@media (min-width:900px){
  .layout{flex-direction:row-reverse;align-items:flex-start;gap:48px}
  .summary{flex:0 0 400px;margin:0;border:1px solid #dedede;border-radius:8px;margin-top:32px}
  .checkout{flex:1;padding-top:32px}
  .done{max-width:640px}
}
`;

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)} - ${CHECKOUT_SHOP_NAME}</title>
<style>${STYLE}</style>
</head>
<body>
<header class="top"><div class="wrap"><span class="brand">${CHECKOUT_SHOP_NAME}</span><span class="secure"><svg width="12" height="14" viewBox="0 0 12 14" aria-hidden="true"><path fill="currentColor" d="M10 6V4a4 4 0 1 0-8 0v2H1v8h10V6h-1ZM3.5 4a2.5 2.5 0 0 1 5 0v2h-5V4Z"/></svg>Secure checkout</span></div></header>
${body}
</body>
</html>
`;
}

function summary(view: InvoiceView): string {
  const { draft, lines, totals } = view;
  const items = lines.reduce((n, l) => n + l.quantity, 0);
  const rows = lines
    .map((l) => {
      const thumb = l.imageUrl
        ? `<img src="${escapeHtml(l.imageUrl)}" alt="" width="64" height="64">`
        : `<span class="ph" aria-hidden="true">${escapeHtml(l.title.slice(0, 1).toUpperCase())}</span>`;
      const variant = l.variantTitle ? `<span class="line-variant">${escapeHtml(l.variantTitle)}</span>` : '';
      return `<li class="line"><span class="thumb">${thumb}<span class="qty" aria-label="Quantity ${l.quantity}">${l.quantity}</span></span><span class="line-text"><span class="line-title">${escapeHtml(l.title)}</span>${variant}</span><span class="line-price">${formatUsd(l.totalCents)}</span></li>`;
    })
    .join('');
  const discountTitle = draft.appliedDiscount?.title ? ` <span class="muted">(${escapeHtml(draft.appliedDiscount.title)})</span>` : '';
  const discount =
    totals.discountsCents > 0 ? `<div><dt>Discount${discountTitle}</dt> <dd>-${formatUsd(totals.discountsCents)}</dd></div>` : '';
  const shippingTitle = draft.shippingLine?.title ? ` <span class="muted">(${escapeHtml(draft.shippingLine.title)})</span>` : '';
  return `<section class="summary" aria-labelledby="summary-heading">
<h2 id="summary-heading">Order summary</h2>
<ul class="lines">${rows}</ul>
<dl class="totals">
<div><dt>Subtotal · ${items} ${items === 1 ? 'item' : 'items'}</dt> <dd>${formatUsd(totals.lineItemsCents)}</dd></div>
${discount}
<div><dt>Shipping${shippingTitle}</dt> <dd>${totals.shippingCents === 0 ? 'Free' : formatUsd(totals.shippingCents)}</dd></div>
<div class="grand"><dt>Total</dt> <dd>${formatUsd(totals.totalCents)}</dd></div>
</dl>
</section>`;
}

function input(name: keyof CheckoutForm, label: string, form: CheckoutForm, errors: CheckoutErrors, attrs: string): string {
  const id = `checkout-${name}`;
  const error = errors[name];
  const required = label.endsWith('(optional)') ? '' : ' aria-required="true"';
  const described = error ? ` aria-invalid="true" aria-describedby="${id}-error"` : '';
  return `<div class="field${error ? ' invalid' : ''}"><label for="${id}">${escapeHtml(label)}</label><input id="${id}" name="${name}" value="${escapeHtml(form[name])}" ${attrs}${required}${described}>${error ? `<span class="error" id="${id}-error">${escapeHtml(error)}</span>` : ''}</div>`;
}

export function renderCheckoutPage(view: InvoiceView, form: CheckoutForm, errors: CheckoutErrors = {}): string {
  const invalid = Object.keys(errors).length > 0;
  const countries =
    CHECKOUT_COUNTRIES.includes(form.country) || !isCountryCode(form.country) ? CHECKOUT_COUNTRIES : [...CHECKOUT_COUNTRIES, form.country];
  const options = countries
    .map((code) => `<option value="${code}"${code === form.country ? ' selected' : ''}>${escapeHtml(countryName(code))}</option>`)
    .join('');
  const countryError = errors.country;
  // novalidate: the server checks the fields and answers with Shopify-style inline messages.
  return page(
    'Checkout',
    `<main class="wrap layout">
${summary(view)}
<section class="checkout">
<form method="post" novalidate>
${invalid ? '<div class="alert" role="alert">Some information is missing or invalid. Check the highlighted fields.</div>' : ''}
<h2>Contact</h2>
${input('email', 'Email', form, errors, 'type="email" autocomplete="email" inputmode="email"')}
<h2>Delivery</h2>
<div class="field${countryError ? ' invalid' : ''}"><label for="checkout-country">Country/Region</label><select id="checkout-country" name="country" autocomplete="country"${countryError ? ' aria-invalid="true" aria-describedby="checkout-country-error"' : ''}>${options}</select>${countryError ? `<span class="error" id="checkout-country-error">${escapeHtml(countryError)}</span>` : ''}</div>
<div class="row">${input('firstName', 'First name (optional)', form, errors, 'autocomplete="given-name"')}${input('lastName', 'Last name', form, errors, 'autocomplete="family-name"')}</div>
${input('address1', 'Address', form, errors, 'autocomplete="address-line1"')}
${input('address2', 'Apartment, suite, etc. (optional)', form, errors, 'autocomplete="address-line2"')}
<div class="row">${input('city', 'City', form, errors, 'autocomplete="address-level2"')}${input('zip', 'ZIP / Postal code', form, errors, 'autocomplete="postal-code"')}</div>
<button type="submit">Complete order</button>
<p class="note">${view.totals.totalCents === 0 ? 'Your order is already paid. No payment is needed.' : 'This emulated checkout takes no payment: completing marks the order as paid.'}</p>
</form>
</section>
</main>`,
  );
}

function addressLines(a: EmulatorAddress | null): string {
  if (!a) return '<p class="muted">No shipping address</p>';
  const cityLine = [a.city, a.province, a.zip].filter(Boolean).join(' ');
  return [addressName(a), a.company, a.address1, a.address2, cityLine, a.country]
    .filter((line): line is string => Boolean(line))
    .map((line) => `<p>${escapeHtml(line)}</p>`)
    .join('');
}

/** The order status page: shown after "Complete order" and whenever a completed invoice is opened. */
export function renderThankYouPage(view: InvoiceView, order: EmulatorOrder): string {
  const shipped = order.fulfillments.at(-1);
  const status = shipped
    ? `<section class="card"><h2>Your order is on its way <span class="status">Shipped</span></h2><p class="muted">Shipped ${escapeHtml(shipped.createdAt.slice(0, 10))}</p></section>`
    : `<section class="card"><h2>Your order is confirmed</h2><p class="muted">You’ll receive a confirmation email with your order number soon.</p></section>`;
  return page(
    `Thank you for your order ${order.name}`,
    `<main class="wrap done">
<div class="confirm"><span class="check"><svg width="22" height="22" viewBox="0 0 24 24" aria-hidden="true"><path fill="none" stroke="currentColor" stroke-width="2.5" d="m5 12.5 4.5 4.5L19 7.5"/></svg></span><div><p class="muted" style="margin:0">Confirmation #${escapeHtml(order.confirmationNumber)}</p><h1>Thank you, your order ${escapeHtml(order.name)} is confirmed</h1></div></div>
${status}
<section class="card"><h2>Order details</h2>
<h3>Contact information</h3><p>${escapeHtml(order.email ?? '')}</p>
<h3>Shipping address</h3>${addressLines(order.shippingAddress)}
<h3>Shipping method</h3><p>${escapeHtml(order.shippingLine?.title ?? 'Shipping')}</p>
</section>
${summary(view)}
</main>`,
  );
}

export function renderNotFoundPage(): string {
  return page(
    'Page not found',
    `<main class="wrap done"><h1>This checkout link isn’t valid</h1><p class="muted">It may have expired or been mistyped. Ask the store for a new link.</p></main>`,
  );
}
