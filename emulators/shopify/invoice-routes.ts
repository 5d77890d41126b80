import { bodyParser } from '@koa/bodyparser';
import { Router, type RouterContext } from '@koa/router';
import type { EmulatorProduct, EmulatorState } from './emulator-state';
import {
  initialForm,
  readCheckoutForm,
  renderCheckoutPage,
  renderNotFoundPage,
  renderThankYouPage,
  type InvoiceView,
} from './invoice-page';
import { totalsOf, type EmulatorDraftOrder, type EmulatorOrders } from './order-state';

// GET/POST /:shopId/invoices/:token — the hosted invoice page. Relative to wherever the emulator
// is mounted: the form posts back to its own URL (no `action`), so it works under /shopify-emulator
// as well as at a test server's root. Opening an invoice changes nothing; only a valid submission
// completes the draft.

interface InvoiceRouteDeps {
  shopId: string;
  state: EmulatorState;
  orders: EmulatorOrders;
  imageUrl(product: EmulatorProduct, position: number): string;
}

export function invoiceRoutes(deps: InvoiceRouteDeps): Router {
  const router = new Router();
  const parseForm = bodyParser({ enableTypes: ['form'], formLimit: '16kb' });

  const view = (draft: EmulatorDraftOrder): InvoiceView => ({
    draft,
    totals: totalsOf(draft),
    lines: draft.lineItems.map((l) => {
      const product = l.productLegacyId ? deps.state.getProduct(l.productLegacyId) : undefined;
      const position = product?.variants.find((v) => v.legacyId === l.variantLegacyId)?.imagePosition ?? 1;
      const image = product?.images[position - 1];
      return {
        title: l.title,
        variantTitle: l.variantTitle,
        quantity: l.quantity,
        totalCents: l.unitCents * l.quantity,
        imageUrl: product && image ? (image.url ?? deps.imageUrl(product, position)) : null,
      };
    }),
  });

  const html = (ctx: RouterContext, status: number, body: string) => {
    ctx.status = status;
    ctx.type = 'html';
    // A bearer link to a shopper's address: never cached by the browser or a proxy.
    ctx.set('Cache-Control', 'no-store');
    ctx.body = body;
  };

  const findDraft = (ctx: RouterContext): EmulatorDraftOrder | undefined =>
    ctx.params.shopId === deps.shopId ? deps.orders.getDraftOrderByToken(ctx.params.token ?? '') : undefined;

  const renderDraft = (ctx: RouterContext, draft: EmulatorDraftOrder) => {
    const order = deps.orders.orderOf(draft);
    html(ctx, 200, order ? renderThankYouPage(view(draft), order) : renderCheckoutPage(view(draft), initialForm(draft)));
  };

  router.get('/:shopId/invoices/:token', (ctx) => {
    const draft = findDraft(ctx);
    if (!draft) return html(ctx, 404, renderNotFoundPage());
    renderDraft(ctx, draft);
  });

  router.post('/:shopId/invoices/:token', async (ctx) => {
    const draft = findDraft(ctx);
    if (!draft) return html(ctx, 404, renderNotFoundPage());
    await parseForm(ctx, async () => {});
    // A second submit (double click, reload) shows the order instead of failing.
    if (draft.status === 'COMPLETED') return renderDraft(ctx, draft);
    const { form, errors } = readCheckoutForm((ctx.request.body ?? {}) as Record<string, unknown>);
    if (Object.keys(errors).length) return html(ctx, 422, renderCheckoutPage(view(draft), form, errors));
    const { order } = deps.orders.completeDraftOrder(draft.legacyId, {
      email: form.email,
      shippingAddress: {
        firstName: form.firstName,
        lastName: form.lastName,
        address1: form.address1,
        address2: form.address2,
        city: form.city,
        zip: form.zip,
        countryCode: form.country,
      },
    });
    html(ctx, 200, renderThankYouPage(view(draft), order));
  });

  return router;
}
