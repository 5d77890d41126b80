import { expect, test } from './fixtures/test';
import type { Order, Product } from '../common/api';
import { decryptPush, newPushBrowser, startPushService } from '../server/test/push-service';
import { TestWallet } from './fixtures/test-wallet';
import { closeToasts, completeShopifyShippingForm, holdShippingRedirect, mostStocked, pickTestWallet } from './fixtures/ui';

// Order news by Web Push, on a phone: the shopper turns updates on from the orders page, the
// warehouse ships with a tracking link, and the shop's message reaches the service worker, which
// shows it. Chromium here cannot reach its own push service (Google's, on the internet), so the
// page's PushManager hands out a subscription at a stand-in push service the test runs
// (server/test/push-service.ts): the shop encrypts and sends to it as to any push service, the
// test decrypts with the subscription's keys as the browser would, and the DevTools protocol
// delivers the message to the service worker as the push service would.

const BUYER = 2;

let products: Product[];

test.beforeAll(async ({ request }) => {
  products = await (await request.get('/api/products')).json();
});

test('updates turned on at the orders page: "shipped" arrives with the tracking link and shows as a notification', async ({
  page,
  context,
}) => {
  test.setTimeout(180_000);
  const push = await startPushService();
  try {
    const subscription = newPushBrowser(push.origin);
    await context.grantPermissions(['notifications']);
    await page.addInitScript((json: { endpoint: string; keys: { p256dh: string; auth: string } }) => {
      const bytes = (s: string) =>
        Uint8Array.from(
          atob(
            s
              .replace(/-/g, '+')
              .replace(/_/g, '/')
              .padEnd(Math.ceil(s.length / 4) * 4, '='),
          ),
          (c) => c.charCodeAt(0),
        ).buffer;
      let current: object | null = null;
      PushManager.prototype.subscribe = async function (options?: PushSubscriptionOptionsInit) {
        current = {
          endpoint: json.endpoint,
          expirationTime: null,
          options: { userVisibleOnly: true, applicationServerKey: options?.applicationServerKey ?? null },
          getKey: (name: string) => bytes(name === 'p256dh' ? json.keys.p256dh : json.keys.auth),
          toJSON: () => ({ endpoint: json.endpoint, expirationTime: null, keys: json.keys }),
          unsubscribe: async () => ((current = null), true),
        };
        return current as PushSubscription;
      };
      PushManager.prototype.getSubscription = async () => current as PushSubscription | null;
    }, subscription.json);

    // A purchase, its shipping details given on Shopify's form: the order is confirmed.
    const wallet = await TestWallet.install(page, { account: BUYER });
    const { variant } = mostStocked(products);
    const releaseRedirect = await holdShippingRedirect(page);
    await page.goto('/');
    await page.getByTestId('wallet-button').click();
    await pickTestWallet(page, wallet);
    await closeToasts(page);
    expect((await page.request.post('/api/cart/add', { data: { variantId: variant.id, quantity: 1 } })).ok()).toBe(true);
    await page.getByTestId('cart-button').click();
    const created = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/orders/create' && r.status() < 300);
    await page.getByTestId('cart-drawer').getByTestId('pay-button').click();
    const order = (await (await created).json()) as Order;
    await releaseRedirect();
    await page.waitForURL(/\/shopify-emulator\//, { timeout: 60_000 });
    await completeShopifyShippingForm(page);
    await expect
      .poll(async () => ((await (await page.request.get(`/api/orders/${order.id}`)).json()) as Order).status, { timeout: 30_000 })
      .toBe('confirmed');

    // The orders page, signed in: updates are off until the shopper turns them on.
    await page.goto('/orders');
    await page.getByTestId('orders-sign-in').getByTestId('orders-sign-in-button').click();
    const toggle = page.getByTestId('order-updates').first();
    await expect(toggle).toHaveAttribute('data-state', 'off', { timeout: 15_000 });
    await toggle.getByRole('button', { name: 'Turn on order updates' }).click();
    await expect(toggle).toHaveAttribute('data-state', 'on');
    await expect(toggle).toContainText('Order updates are on');
    await page.screenshot({ path: 'test-results/screens/phone/order-updates-on.png', fullPage: true });

    // The warehouse ships it with a tracking link (the emulator's fulfilment and its webhooks).
    const drafts = (await (await page.request.get('/shopify-emulator/__emulator/draft-orders')).json()) as {
      draftOrders: Array<{ note: string | null; orderId: string | null }>;
    };
    const shopifyOrderId = drafts.draftOrders
      .find((d) => d.note?.includes(order.id))!
      .orderId!.split('/')
      .pop()!;
    const tracking = 'https://parcels.example/track/PG123';
    expect(
      (await page.request.post(`/shopify-emulator/__emulator/orders/${shopifyOrderId}/fulfill`, { data: { trackingUrl: tracking } })).ok(),
    ).toBe(true);

    // One message saying "shipped" reaches this browser's push service, encrypted to its keys. (The
    // "confirmed" news may come too: the order was confirmed just before updates were turned on, and
    // its message may still have been on its way.)
    type Message = { web_push: number; notification: { title: string; body: string; navigate: string } };
    const path = new URL(subscription.endpoint).pathname;
    const ours = () =>
      push.received
        .filter((r) => r.path === path)
        .map((r) => {
          expect(r.headers['content-encoding']).toBe('aes128gcm');
          const text = decryptPush(subscription, r.body);
          return { text, message: JSON.parse(text) as Message };
        });
    const isShipped = (m: Message) => m.notification.title.toLowerCase().includes('shipped');
    await expect.poll(() => ours().filter((r) => isShipped(r.message)).length, { timeout: 30_000 }).toBe(1);
    expect(
      ours()
        .filter((r) => !isShipped(r.message))
        .map((r) => r.message.notification.title.toLowerCase()),
    ).toEqual(ours().length === 2 ? [expect.stringContaining('confirmed')] : []);
    const { text, message } = ours().find((r) => isShipped(r.message))!;
    expect(message.web_push).toBe(8030);
    expect(message.notification.title).toContain(order.id);
    expect(message.notification.title.toLowerCase()).toContain('shipped');
    expect(JSON.stringify(message)).toContain(tracking);

    // The push service hands it to the service worker, which shows it (the page is not on that order).
    await page.evaluate(async () => void (await navigator.serviceWorker.ready));
    const cdp = await context.newCDPSession(page);
    const activated = new Promise<string>((resolve) =>
      cdp.on('ServiceWorker.workerVersionUpdated', ({ versions }) => {
        const active = versions.find((v) => v.status === 'activated' && new URL(v.scriptURL).origin === new URL(page.url()).origin);
        if (active) resolve(active.registrationId);
      }),
    );
    await cdp.send('ServiceWorker.enable');
    const registrationId = await activated;
    const shown = () =>
      page.evaluate(async () =>
        (await (await navigator.serviceWorker.ready).getNotifications()).map((n) => ({ title: n.title, tag: n.tag })),
      );
    // Delivered again if the worker was not listening yet: the message's tag makes a second copy replace the first.
    await expect
      .poll(
        async () => {
          if ((await shown()).length === 0)
            await cdp.send('ServiceWorker.deliverPushMessage', { origin: new URL(page.url()).origin, registrationId, data: text });
          return shown();
        },
        { timeout: 15_000, intervals: [1_000] },
      )
      .toEqual([expect.objectContaining({ title: message.notification.title })]);
    expect(await page.request.get(`/api/orders/${order.id}`).then(async (r) => ((await r.json()) as Order).trackingUrl)).toBe(tracking);

    // Off again from the same place: the shop forgets this browser.
    await toggle.getByRole('button', { name: /Turn off/ }).click();
    await expect(toggle).toHaveAttribute('data-state', 'off');
  } finally {
    await push.close();
  }
});
