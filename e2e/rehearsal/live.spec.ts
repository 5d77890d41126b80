/**
 * The live rehearsal: the production shop, started with only live settings (world.ts), run the
 * way a merchant and a shopper use it. The admin logs in with the configured password hash, syncs
 * the catalogue from Shopify (the emulator, reached over HTTPS with client-credentials tokens that
 * live a few seconds) and prices a product; a shopper on a phone buys it with a browser wallet,
 * gives the shipping details on Shopify's page, and the signed webhook confirms the order. The
 * token expires several times meanwhile: it must be renewed without anyone seeing an error.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '../fixtures/test';
import type { InventoryItem } from '../../common/admin';
import type { Order, Product, PublicConfig } from '../../common/api';
import { formatPogAmount } from '../../client/lib/format-pog-price';
import { searchProducts } from '../fixtures/admin';
import { TestWallet } from '../fixtures/test-wallet';
import { closeToasts, completeShopifyShippingForm, expectToast, pickTestWallet } from '../fixtures/ui';
import { createDatabase, readLog, startShop, worldFacts } from './world';
import { freePort } from '../../server/chain/local-chain';

const world = worldFacts();
const PRICE = '42.5';

test.use({ baseURL: world.shopUrl, ignoreHTTPSErrors: true, serviceWorkers: 'block' });

interface Grants {
  count: number;
}

async function grantsSoFar(page: Page): Promise<number> {
  const res = await page.request.get(`${world.shopifyOrigin}/__emulator/access-tokens`);
  expect(res.ok(), await res.text()).toBe(true);
  return ((await res.json()) as Grants).count;
}

/** Whatever a person was shown as an error: a destructive toast or an uncaught page error. */
function watchForErrors(page: Page, seen: string[]) {
  page.on('pageerror', (err) => seen.push(`page error on ${page.url()}: ${err.message}`));
  page.on('response', (res) => {
    if (res.status() >= 500 && new URL(res.url()).origin === world.shopUrl) seen.push(`HTTP ${res.status()} from ${res.url()}`);
  });
}

test('live: a merchant prices, a shopper pays and ships, Shopify confirms', async ({ browser }) => {
  test.setTimeout(300_000);
  const errorsSeen: string[] = [];
  const grantsAtStart = await (async () => {
    const ctx = await browser.newContext({ ignoreHTTPSErrors: true });
    const n = await grantsSoFar(await ctx.newPage());
    await ctx.close();
    return n;
  })();

  // The admin works on a tablet.
  const adminContext = await browser.newContext({
    baseURL: world.shopUrl,
    viewport: { width: 820, height: 1180 },
    hasTouch: true,
    ignoreHTTPSErrors: true,
    serviceWorkers: 'block',
  });
  const admin = await adminContext.newPage();
  watchForErrors(admin, errorsSeen);
  let product!: Product;

  await test.step('the production shop is live, with no demo surface', async () => {
    const config = (await (await admin.request.get('/api/config')).json()) as PublicConfig;
    expect(config).toMatchObject({
      mode: 'live',
      demoWallet: false,
      chainId: 8453,
      tokenAddress: world.tokenAddress,
      storeWallet: world.storeWallet,
    });
    const demoSurfaces = [
      ['GET', '/shopify-emulator/__emulator/products'],
      ['POST', '/shopify-emulator/admin/oauth/access_token'],
      ['POST', '/api/dev/wallet'],
    ];
    for (const [method, path] of demoSurfaces)
      expect((await admin.request.fetch(path!, { method })).status(), `${method} ${path}`).toBe(404);
  });

  await test.step('the admin logs in with the password whose hash is ADMIN_PASSWORD_HASH', async () => {
    await admin.goto('/admin');
    await expect(admin.getByRole('heading', { name: 'Admin Access' })).toBeVisible();
    await admin.getByTestId('admin-password').fill(world.adminPassword);
    await admin.getByTestId('admin-login').click();
    await expect(admin.getByRole('heading', { name: 'Product Management' })).toBeVisible({ timeout: 15_000 });
  });

  await test.step('the admin syncs the catalogue from Shopify', async () => {
    await admin.getByTestId('sync-button').click();
    // The sync runs in the background: the button is busy until it ends, then the toast says so.
    await expect(admin.getByTestId('sync-button')).toBeEnabled({ timeout: 120_000 });
    await expectToast(admin, 'Inventory synced with Shopify', /products/);
    await closeToasts(admin);
    await expect(admin.getByTestId('variant-total')).not.toHaveText('0');
  });

  await test.step(`the admin prices one product at ${PRICE} POG and puts it on sale`, async () => {
    const inventory = (await (await admin.request.get('/api/inventory', { headers: { Origin: world.shopUrl } })).json()) as InventoryItem[];
    // A product ACTIVE in Shopify, of one variant with stock: what the shop may sell once priced.
    const singles = inventory.filter((v) => inventory.filter((o) => o.productId === v.productId).length === 1);
    const candidate = singles.find((v) => v.sku && v.productStatus === 'ACTIVE' && (v.quantity ?? 0) > 5 && !v.isActive);
    expect(candidate, 'a variant with a SKU and stock').toBeTruthy();
    await admin.getByTestId('view-individual').click();
    await searchProducts(admin, candidate!.sku!);
    const card = admin.locator(`[data-testid="variant-card"][data-variant-id="${candidate!.id}"]`);
    await card.getByTestId('variant-price-input').fill(PRICE);
    await card.getByTestId('variant-active-switch').click();
    await card.getByTestId('variant-save').click();
    await expect(card.getByTestId('variant-status')).toHaveText('Active');
    await expect
      .poll(async () => {
        const products = (await (await admin.request.get('/api/products')).json()) as Product[];
        product = products.find((p) => p.variants.some((v) => v.id === candidate!.id))!;
        return product?.variants.length ?? 0;
      })
      .toBeGreaterThan(0);
  });

  // The shopper is on a phone.
  const shopperContext = await browser.newContext({
    baseURL: world.shopUrl,
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
    deviceScaleFactor: 2,
    ignoreHTTPSErrors: true,
    serviceWorkers: 'block',
  });
  const page = await shopperContext.newPage();
  watchForErrors(page, errorsSeen);
  const wallet = await TestWallet.install(page);
  let order!: Order;

  await test.step('a shopper connects a browser wallet and adds the product to the cart', async () => {
    await page.goto(`/product/${product.id}`);
    await expect(page.getByTestId('product-page')).toBeVisible();
    await page.getByTestId('wallet-button').click();
    await pickTestWallet(page, wallet);
    await closeToasts(page);
    await page.getByTestId('product-page').getByTestId('add-to-cart').click();
    await expectToast(page, 'Added to cart', 'Added 1 item(s) to your cart.');
    await closeToasts(page);
  });

  await test.step('the shopper pays with a token transfer to the store wallet', async () => {
    const drawer = page.getByTestId('cart-drawer');
    if (!(await drawer.isVisible())) await page.getByTestId('cart-button').click();
    await expect(drawer.getByTestId('cart-total')).toHaveText(`${formatPogAmount(PRICE)} POG`);
    // With 3 confirmations the shop first answers 202 (ask again) until the transfer is deep enough.
    const created = page.waitForResponse(
      (r) => new URL(r.url()).pathname === '/api/orders/create' && (r.status() === 200 || r.status() === 201),
      { timeout: 120_000 },
    );
    await drawer.getByTestId('pay-button').click();
    order = (await (await created).json()) as Order;
    const sent = wallet.calls.find((c) => c.method === 'eth_sendTransaction');
    expect((sent?.params[0] as { to: string }).to.toLowerCase()).toBe(world.tokenAddress.toLowerCase());
    await expectToast(page, 'Order Created', 'Payment confirmed! Redirecting to shipping...');
  });

  await test.step("the shopper is sent to Shopify's page and gives the shipping details", async () => {
    await page.waitForURL((url) => url.origin === world.shopifyOrigin, { timeout: 60_000 });
    await completeShopifyShippingForm(page);
  });

  await test.step("Shopify's signed webhook confirms the order, and the shopper sees it", async () => {
    await page.goto(`/order-confirmation?id=${order.id}`);
    const confirmation = page.getByTestId('order-confirmation');
    await expect(confirmation.getByRole('heading', { name: 'Payment Successful!' })).toBeVisible();
    await expect(confirmation.getByTestId('order-status')).toHaveAttribute('data-status', 'confirmed', { timeout: 30_000 });
    const moved = readLog(world.shopLog).find((l) => l.msg === 'order moved by a Shopify webhook' && l.orderId === order.id);
    expect(moved, 'the shop logged the webhook that moved the order').toBeTruthy();
  });

  await test.step('the admin syncs again, after the first token expired', async () => {
    expect(await grantsSoFar(admin)).toBeGreaterThanOrEqual(2);
    await admin.getByTestId('sync-button').click();
    // The sync runs in the background: the button is busy until it ends, then the toast says so.
    await expect(admin.getByTestId('sync-button')).toBeEnabled({ timeout: 120_000 });
    await expectToast(admin, 'Inventory synced with Shopify', /products/);
  });

  await test.step('the access token was granted again during the run, and nobody saw an error', async () => {
    const grants = await grantsSoFar(page);
    console.log(
      `  · Shopify granted the shop ${grants} access tokens (${grants - grantsAtStart} during the run); each lived ${world.tokenTtlSeconds} s`,
    );
    expect(grants - grantsAtStart, 'grants during the run').toBeGreaterThanOrEqual(1);
    expect(grants, 'grants since the shop started').toBeGreaterThanOrEqual(2);
    expect(errorsSeen).toEqual([]);
    const log = readLog(world.shopLog);
    expect(log.filter((l) => Number(l.level) >= 50).map((l) => l.msg)).toEqual([]);
    const raw = JSON.stringify(log);
    expect(raw).not.toContain(world.clientSecret);
    expect(raw).not.toMatch(/shpat_[0-9a-f]{8}/);
  });

  await test.step('the restore drill: a dump, restored into a fresh database, starts a shop that has the order', async () => {
    const drill = fs.mkdtempSync(path.join(os.tmpdir(), 'pogs-restore-drill-'));
    const cleanups: Array<() => Promise<void>> = [];
    try {
      // What docs/backups-and-upgrades.md says to run ("Backups and restores").
      const dump = path.join(drill, 'pogs.dump');
      execFileSync('pg_dump', ['-Fc', '--no-owner', '-d', world.databaseUrl, '-f', dump], { stdio: 'pipe' });
      const restoredDatabase = await createDatabase(world.databaseServerUrl, cleanups);
      execFileSync('pg_restore', ['--no-owner', '--exit-on-error', '-d', restoredDatabase, dump], { stdio: 'pipe' });
      const port = await freePort();
      const url = `http://localhost:${port}`;
      const log = path.join(drill, 'shop.log');
      const shop = await startShop(world.stageDir, {
        env: { ...world.liveSettings, PORT: String(port), PUBLIC_URL: url, TRUSTED_PROXY_HOPS: '0', DATABASE_URL: restoredDatabase },
        logFile: log,
      });
      cleanups.push(() => shop.stop());
      const call = (route: string, init: RequestInit = {}) =>
        fetch(url + route, { ...init, headers: { Origin: url, ...init.headers }, signal: AbortSignal.timeout(30_000) });
      expect((await call('/api/health/ready')).status).toBe(200);
      const login = await call('/api/admin/login', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ password: world.adminPassword }),
      });
      expect(login.ok, await login.text()).toBe(true);
      const cookie = login.headers
        .getSetCookie()
        .map((c) => c.split(';')[0])
        .join('; ');
      const restored = await call(`/api/admin/orders/${encodeURIComponent(order.id)}`, { headers: { Cookie: cookie } });
      expect(restored.ok, await restored.clone().text()).toBe(true);
      expect(await restored.json()).toMatchObject({ id: order.id });
      // Nothing was migrated again: the dump had every migration.
      expect(readLog(log).filter((l) => l.msg === 'database migrated')).toEqual([]);
      console.log(
        `  · restore drill: pg_dump, pg_restore into ${new URL(restoredDatabase).pathname.slice(1)}, a shop started on it has order ${order.id}`,
      );
    } finally {
      for (const cleanup of cleanups.reverse()) await cleanup();
      fs.rmSync(drill, { recursive: true, force: true });
    }
  });

  await adminContext.close();
  await shopperContext.close();
});
