import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from './fixtures/test';
import { inventoryGroups, type InventoryGroup, type InventoryItem } from '../common/admin';
import type { Product } from '../common/api';
import { formatPogPrice } from '../client/lib/format-pog-price';
import {
  clearCustomTitleByApi,
  fetchInventory,
  logInAsAdmin,
  patchInventoryItem,
  readAdminPassword,
  searchProducts,
} from './fixtures/admin';
import { closeToasts, expectToast } from './fixtures/ui';

// The admin area on the shop's fresh e2e server. The tablet (820×1180) drives every change and
// checks each on the shop home; the phone (Pixel 7) looks at the same screen. Requests a service
// worker handles cannot be watched, and the admin needs none.
test.use({ serviceWorkers: 'block' });

const groupCard = (page: Page, title: string) => page.locator(`[data-testid="group-card"][data-group-title=${JSON.stringify(title)}]`);
const shopCard = (page: Page, productId: string) => page.locator(`[data-testid="product-card"][data-product-id="${productId}"]`);

/** A group that is exactly one product's variants (so the shop card shows what the group sets), all for sale, no custom title. */
function pickGroup(items: InventoryItem[], products: Product[]): { group: InventoryGroup<InventoryItem>; product: Product } {
  const titles = new Map<string, number>();
  for (const item of items) titles.set(item.originalTitle, (titles.get(item.originalTitle) ?? 0) + 1);
  for (const group of inventoryGroups(items)) {
    const productId = group.base.productId;
    const product = products.find((p) => p.id === productId);
    const ofProduct = items.filter((i) => i.productId === productId);
    if (
      product &&
      group.variants.length > 1 &&
      group.variants.every((v) => v.productId === productId && v.forSale && v.customTitle === null) &&
      ofProduct.length === group.variants.length &&
      titles.get(group.base.originalTitle) === ofProduct.length &&
      product.variants.length === group.variants.length
    ) {
      return { group, product };
    }
  }
  throw new Error('no product in the demo catalogue is one group of several variants, all for sale');
}

async function goShopping(page: Page) {
  await page.getByTestId('home-link').click();
  await expect(page.getByTestId('product-card').first()).toBeVisible();
}

async function goToAdmin(page: Page) {
  await page.getByTestId('admin-link').click();
  await expect(page.getByRole('heading', { name: 'Product Management' })).toBeVisible();
}

test('tablet: log in, set a group price, deactivate a variant, edit and clear a title, each seen on the shop', async ({
  page,
}, testInfo) => {
  test.skip(testInfo.project.name !== 'tablet', 'the tablet project drives the changes');
  test.setTimeout(120_000);

  // A wrong password first: the server's attempts count, after its delay (shown as progress).
  await page.goto('/admin');
  await expect(page.getByRole('heading', { name: 'Admin Access' })).toBeVisible();
  await page.getByTestId('admin-password').fill(`${readAdminPassword()}-wrong`);
  await page.getByTestId('admin-login').click();
  await expect(page.getByTestId('admin-login-progress')).toBeVisible();
  await expect(page.getByTestId('admin-login-notice')).toHaveText('Access Denied — Invalid password. 4 attempts remaining.', {
    timeout: 15_000,
  });
  await page.screenshot({ path: testInfo.outputPath('admin-access-tablet.png') });

  await logInAsAdmin(page);
  const items = await fetchInventory(page);
  const products: Product[] = await (await page.request.get('/api/products')).json();
  const { group, product } = pickGroup(items, products);
  const variant = group.variants[1];
  await expect(page.getByTestId('variant-total')).toHaveText(String(items.length));
  await expect(page.getByTestId('group-count')).toHaveText(String(inventoryGroups(items).length));

  try {
    // A group's price, through the bulk input (Update is disabled while it is blank, and it clears once sent).
    await searchProducts(page, group.title);
    const card = groupCard(page, group.title);
    await expect(card).toBeVisible();
    await expect(card.getByTestId('variant-count')).toHaveText(`${group.variants.length} variants`);
    await expect(card.getByTestId('group-status')).toHaveText('All Active');
    await expect(card.getByTestId('bulk-price-update')).toBeDisabled();
    await card.getByTestId('bulk-price-input').fill('123.45');
    await card.getByTestId('bulk-price-update').click();
    await expectToast(page, 'Success', `Updated all ${group.variants.length} variants`);
    await expect(card.getByTestId('bulk-price-input')).toHaveValue('');
    await card.getByTestId('group-expand').click();
    await expect(card.getByTestId('variant-price')).toHaveText(Array(group.variants.length).fill(formatPogPrice('123.45')));
    await page.screenshot({ path: testInfo.outputPath('admin-tablet.png'), fullPage: true });

    // A custom title, with its counter.
    await card.getByTestId('edit-title-button').click();
    const dialog = page.getByTestId('edit-title-dialog');
    await expect(dialog.getByRole('heading', { name: 'Edit Product Title' })).toBeVisible();
    await dialog.getByTestId('custom-title-input').fill('E2E Custom Title');
    await expect(dialog.getByTestId('custom-title-counter')).toHaveText('16/200 characters');
    await dialog.getByTestId('save-custom-title').click();
    await expectToast(page, 'Custom Title Updated', '');
    await expect(dialog).toBeHidden();
    await searchProducts(page, 'E2E Custom Title');
    await expect(groupCard(page, 'E2E Custom Title')).toBeVisible();

    // The shop shows both at once.
    await goShopping(page);
    const onShop = shopCard(page, product.id);
    await onShop.scrollIntoViewIfNeeded();
    await expect(onShop.locator(`#product-${product.id}-title`)).toHaveText('E2E Custom Title');
    await expect(onShop.getByTestId('product-price')).toHaveText(formatPogPrice('123.45'));
    await expect(onShop.locator(`option[value="${variant.id}"]`)).toHaveCount(1);

    // Deactivate one variant in the Individual View.
    await goToAdmin(page);
    await page.getByTestId('view-individual').click();
    await searchProducts(page, variant.sku ?? variant.title);
    const variantCard = page.locator(`[data-testid="variant-card"][data-variant-id="${variant.id}"]`);
    await expect(variantCard.getByTestId('variant-status')).toHaveText('Active');
    await expect(variantCard.getByTestId('variant-save')).toBeDisabled();
    await variantCard.getByTestId('variant-active-switch').click();
    await variantCard.getByTestId('variant-save').click();
    await expectToast(page, 'Success', 'Product updated successfully');
    await expect(variantCard.getByTestId('variant-status')).toHaveText('Inactive');

    await goShopping(page);
    await shopCard(page, product.id).scrollIntoViewIfNeeded();
    await expect(shopCard(page, product.id).locator(`option[value="${variant.id}"]`)).toHaveCount(0);

    // Clear the title: the shop shows Shopify's again. The group now reads 'Mixed Status'.
    await goToAdmin(page);
    await page.getByTestId('view-grouped').click();
    await searchProducts(page, 'E2E Custom Title');
    const renamed = groupCard(page, 'E2E Custom Title');
    await expect(renamed.getByTestId('group-status')).toHaveText('Mixed Status');
    await renamed.getByTestId('edit-title-button').click();
    await page.getByTestId('clear-custom-title').click();
    await expectToast(page, 'Custom Title Cleared', '');
    await closeToasts(page);

    await goShopping(page);
    await shopCard(page, product.id).scrollIntoViewIfNeeded();
    await expect(shopCard(page, product.id).locator(`#product-${product.id}-title`)).toHaveText(product.title);

    // Each change is in the audit trail.
    await goToAdmin(page);
    await page.getByTestId('audit-button').click();
    const audit = page.getByTestId('audit-sheet');
    for (const action of ['login-failed', 'login-succeeded', 'inventory-updated', 'custom-title-set', 'custom-title-cleared']) {
      await expect(audit.locator(`[data-testid="audit-entry"][data-action="${action}"]`).first()).toBeVisible();
    }
    await page.screenshot({ path: testInfo.outputPath('admin-audit-tablet.png') });
  } finally {
    // Leave the catalogue as the other specs expect it.
    for (const v of group.variants) await patchInventoryItem(page, v.id, { pogPrice: v.pogPrice, isActive: v.isActive });
    await clearCustomTitleByApi(page, group.base.originalTitle);
  }
});

test('phone: the same screen fits, its controls are touch-sized, and search, a group and the title dialog work', async ({
  page,
}, testInfo) => {
  test.skip(testInfo.project.name !== 'phone', 'the phone pass looks at the screen the tablet changes');
  test.setTimeout(60_000);

  await page.goto('/admin');
  await expect(page.getByRole('heading', { name: 'Admin Access' })).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('admin-access-phone.png') });
  await logInAsAdmin(page);
  const items = await fetchInventory(page);
  const [first] = inventoryGroups(items);

  const noOverflow = async () =>
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  await expect(page.getByTestId('group-card').first()).toBeVisible();
  await noOverflow();
  // One column on a phone.
  const lefts = await page
    .getByTestId('group-card')
    .evaluateAll((cards) => cards.slice(0, 3).map((c) => Math.round(c.getBoundingClientRect().left)));
  expect(new Set(lefts).size).toBe(1);

  await searchProducts(page, first.title);
  const card = groupCard(page, first.title);
  await expect(card).toBeVisible();
  await card.getByTestId('group-expand').click();
  await expect(card.getByTestId('group-variant')).toHaveCount(first.variants.length);
  // Every control on the card is a 44 px touch target.
  for (const button of await card.locator('button, input').all()) {
    const box = await button.boundingBox();
    if (box) expect(box.height, await button.evaluate((el) => el.outerHTML.slice(0, 80))).toBeGreaterThanOrEqual(44);
  }
  await noOverflow();
  await page.screenshot({ path: testInfo.outputPath('admin-phone.png'), fullPage: true });

  // The title dialog (a bottom sheet on phones) with its counter; cancelling changes nothing.
  await card.getByTestId('edit-title-button').click();
  const dialog = page.getByTestId('edit-title-dialog');
  await dialog.getByTestId('custom-title-input').fill('');
  await expect(dialog.getByTestId('save-custom-title')).toBeDisabled();
  await dialog.getByTestId('custom-title-input').fill('Phone title');
  await expect(dialog.getByTestId('custom-title-counter')).toHaveText('11/200 characters');
  // The field sits in the top half of the screen, above where the on-screen keyboard opens.
  const field = await dialog.getByTestId('custom-title-input').boundingBox();
  expect(field!.y + field!.height).toBeLessThanOrEqual(page.viewportSize()!.height / 2);
  await page.screenshot({ path: testInfo.outputPath('admin-title-dialog-phone.png') });
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(card.getByTestId('group-title')).toHaveText(first.title);

  // Individual View and the filters.
  await searchProducts(page, '');
  await page.getByTestId('view-individual').click();
  await expect(page.getByTestId('variant-card').first()).toBeVisible();
  await page.getByTestId('filter-active').click();
  await expect(page).toHaveURL(/[?&]status=active/);
  const active = items.filter((i) => i.isActive);
  const activeGroups = new Set(active.map((i) => i.productId)).size;
  await expect(page.getByTestId('filter-summary')).toHaveText(
    `${activeGroups} of ${inventoryGroups(items).length} products match (${active.length} of ${items.length} variants)`,
  );
  // The headline keeps the shop's totals while a filter narrows the list.
  await expect(page.getByTestId('variant-total')).toHaveText(String(items.length));
  await noOverflow();

  await page.getByTestId('admin-logout').click();
  await expect(page.getByRole('heading', { name: 'Admin Access' })).toBeVisible();
});

test('the built client holds neither the admin password nor its hash', async () => {
  test.skip(test.info().project.name !== 'phone', 'the build is the same for every viewport');
  const dataDir = process.env.E2E_DATA_DIR!;
  const { password, hash } = JSON.parse(fs.readFileSync(path.join(dataDir, 'admin-password.json'), 'utf8')) as {
    password: string;
    hash: string;
  };
  const salt = hash.split('$')[4]!;
  const files = fs.readdirSync('dist', { recursive: true, encoding: 'utf8' }).filter((f) => /\.(js|html|json|webmanifest)$/.test(f));
  expect(files.some((f) => f.endsWith('.js'))).toBe(true);
  for (const file of files) {
    const text = fs.readFileSync(path.join('dist', file), 'utf8');
    for (const secret of [password, hash, salt]) expect(text.includes(secret), `${file} holds an admin secret`).toBe(false);
    // No hash of any password either: the check is the server's.
    expect(/scrypt\$\d+\$/.test(text), `${file} holds a password hash`).toBe(false);
  }
});

test.describe('at phone and tablet size', () => {
  /** Chromium headless never offers the install: the event the browser would fire (as in pwa.spec.ts). */
  const offerInstall = (page: Page) =>
    page.evaluate(() => {
      const event = new Event('beforeinstallprompt', { cancelable: true });
      Object.assign(event, { prompt: async () => undefined, userChoice: Promise.resolve({ outcome: 'dismissed', platform: 'web' }) });
      window.dispatchEvent(event);
    });
  const intersects = (a: { x: number; y: number; width: number; height: number }, b: typeof a) =>
    a.y < b.y + b.height && b.y < a.y + a.height && a.x < b.x + b.width && b.x < a.x + a.width;

  test("the install bar hides neither the page's end nor a toast; images show whole; a plain-text refusal is shown", async ({
    page,
  }, testInfo) => {
    test.setTimeout(60_000);
    const phone = testInfo.project.name === 'phone';
    if (phone) {
      // An iPhone's home indicator: the bar grows by the bottom safe area.
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('Emulation.setSafeAreaInsetsOverride', { insets: { top: 0, left: 0, right: 0, bottom: 34 } });
    }
    await logInAsAdmin(page);

    // Product photos are shown whole in the card's box (their corners carry marks), not cropped to it.
    const image = page.getByTestId('group-carousel').first().locator('img');
    await expect(image).toBeVisible();
    expect(await image.evaluate((img) => getComputedStyle(img).objectFit)).toBe('contain');

    await offerInstall(page);
    const bar = page.getByTestId('install-offer');
    await expect(bar).toBeVisible();
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await expect
      .poll(
        async () => {
          const main = (await page.locator('main').boundingBox())!;
          const barBox = (await bar.boundingBox())!;
          return Math.round(main.y + main.height - barBox.y);
        },
        { message: 'the end of the page sits above the install bar' },
      )
      .toBeLessThanOrEqual(0);

    // A title save refused in plain text (a proxy's answer, say): the toast says what the server said, above the bar.
    await page.route('**/api/products/*/custom-title*', (route) =>
      route.request().method() === 'PUT'
        ? route.fulfill({ status: 503, contentType: 'text/plain', body: 'Titles are frozen while the flash sale runs' })
        : route.fallback(),
    );
    const card = page.getByTestId('group-card').last();
    await card.getByTestId('edit-title-button').click();
    const dialog = page.getByTestId('edit-title-dialog');
    await dialog.getByTestId('custom-title-input').fill('Refused title');
    await dialog.getByTestId('save-custom-title').click();
    await expectToast(page, 'Error', 'Titles are frozen while the flash sale runs', 'destructive');
    const toast = page.getByTestId('toast');
    await expect.poll(() => toast.evaluate((el) => el.getAnimations().filter((a) => a.playState === 'running').length)).toBe(0);
    const toastBox = (await toast.boundingBox())!;
    expect(intersects(toastBox, (await bar.boundingBox())!), 'the toast sits on the install bar').toBe(false);
    // On a phone the dialog is at the top: the toast shows below it, not over the field being edited.
    expect(intersects(toastBox, (await dialog.getByTestId('custom-title-input').boundingBox())!), 'the toast covers the title field').toBe(
      false,
    );
    await closeToasts(page);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  });

  test("a toast takes its own room below the header: the admin's tabs and the Sync button stay in the open", async ({ page }, testInfo) => {
    await logInAsAdmin(page);
    await page.route('**/api/inventory/sync', (route) =>
      route.request().method() === 'POST'
        ? route.fulfill({ status: 503, json: { code: 'shopify-unavailable', message: 'Shopify is not answering. Try again in a minute.' } })
        : route.fallback(),
    );
    const tabs = page.getByTestId('admin-nav').getByRole('link');
    const sync = page.getByTestId('sync-button');
    // Where the tabs are on the page (not on the screen: a tap's scrolling must not count).
    const tabsTop = () => tabs.first().evaluate((el) => Math.round(el.getBoundingClientRect().top + window.scrollY));
    const before = await tabsTop();
    await sync.click();
    await expectToast(page, 'Error', 'Shopify is not answering. Try again in a minute.', 'destructive');
    const toast = page.getByTestId('toast');
    await expect.poll(() => toast.evaluate((el) => el.getAnimations().filter((a) => a.playState === 'running').length)).toBe(0);
    const toastBox = (await toast.boundingBox())!;
    // On a phone the toast is at the top, and the page moved down to make room for it; wider, it
    // sits at the bottom left and the page stays where it was.
    const during = await tabsTop();
    if (testInfo.project.name === 'phone') expect(during).toBeGreaterThanOrEqual(before + toastBox.height);
    else expect(during).toBe(before);
    for (const target of [...(await tabs.all()), sync]) {
      expect(intersects(toastBox, (await target.boundingBox())!), `the toast covers ${await target.innerText()}`).toBe(false);
      await target.click({ timeout: 2_000, trial: true });
    }
    await closeToasts(page);
    await expect.poll(tabsTop).toBe(before);
  });

  test('Product Management: a page of groups and Load more, and a search as one types that a reload keeps', async ({ page }, testInfo) => {
    test.setTimeout(60_000);
    const size = testInfo.project.name === 'phone' ? { width: 390, height: 844 } : { width: 820, height: 1180 };
    await page.setViewportSize(size);
    await logInAsAdmin(page);
    const items = await fetchInventory(page);
    const groups = inventoryGroups(items);
    const noOverflow = async () =>
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    const listedIds = () => page.getByTestId('group-card').evaluateAll((cards) => cards.map((c) => c.getAttribute('data-product-id')));

    // The first page: 24 groups, the headline counting the whole inventory; Load more brings the rest, each once.
    expect(groups.length).toBeGreaterThan(24);
    await expect(page.getByTestId('group-card')).toHaveCount(24);
    await expect(page.getByTestId('group-count')).toHaveText(String(groups.length));
    await expect(page.getByTestId('variant-total')).toHaveText(String(items.length));
    await expect(page.getByTestId('shown-count')).toHaveText(`Showing 24 of ${groups.length} products`);
    await page.getByTestId('load-more').scrollIntoViewIfNeeded();
    await noOverflow();
    await page.screenshot({ path: testInfo.outputPath(`admin-load-more-${size.width}.png`) });
    await page.getByTestId('load-more').click();
    await expect(page.getByTestId('group-card')).toHaveCount(groups.length);
    await expect(page.getByTestId('load-more')).toBeHidden();
    expect(await listedIds()).toEqual(groups.map((g) => g.productId));

    // Typing searches once the typing pauses; the search goes into the address, the counts are the server's.
    const words = ['hoodie'];
    const hits = items.filter((i) =>
      words.every((w) => [i.originalTitle, i.customTitle, i.variantTitle, i.sku].some((f) => f?.toLowerCase().includes(w))),
    );
    const hitGroups = inventoryGroups(hits).map((g) => g.productId);
    expect(hitGroups.length).toBeGreaterThan(1);
    await page.getByTestId('admin-search').pressSequentially('HOODIE', { delay: 40 });
    await expect(page).toHaveURL(/[?&]q=HOODIE/);
    await expect(page.getByTestId('group-count')).toHaveText(String(groups.length));
    await expect(page.getByTestId('variant-total')).toHaveText(String(items.length));
    await expect(page.getByTestId('filter-summary')).toHaveText(
      `${hitGroups.length} of ${groups.length} products match (${hits.length} of ${items.length} variants)`,
    );
    expect(await listedIds()).toEqual(hitGroups);
    await noOverflow();
    await page.screenshot({ path: testInfo.outputPath(`admin-search-${size.width}.png`), fullPage: true });

    // A reload keeps the search.
    await page.reload();
    await expect(page.getByTestId('admin-search')).toHaveValue('HOODIE');
    await expect(page.getByTestId('group-card')).toHaveCount(hitGroups.length);

    // A search that finds nothing says so (the store is not empty), and clearing it shows everything again.
    await searchProducts(page, 'zzqx no such thing');
    await expect(page.getByTestId('admin-no-match')).toContainText('No products match “zzqx no such thing”');
    await expect(page.getByTestId('admin-empty')).toHaveCount(0);
    await page.getByTestId('clear-search').click();
    await expect(page.getByTestId('admin-search')).toHaveValue('');
    await expect(page.getByTestId('group-card')).toHaveCount(24);
    await expect(page).not.toHaveURL(/[?&]q=/);
  });

  test('the orders search shows its whole placeholder, and the orders are not read again when the tab regains focus', async ({
    page,
  }, testInfo) => {
    if (testInfo.project.name === 'phone') await page.setViewportSize({ width: 390, height: 844 });
    await logInAsAdmin(page);
    const lists: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname === '/api/admin/orders') lists.push(url.search);
    });
    const firstList = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/admin/orders');
    await page.getByTestId('admin-nav').getByRole('link', { name: 'Orders' }).click();
    await firstList;

    const search = page.getByTestId('orders-search');
    const fit = await search.evaluate((el) => {
      const input = el as HTMLInputElement;
      const style = getComputedStyle(input);
      const context = document.createElement('canvas').getContext('2d')!;
      context.font = style.font;
      const room = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      return { text: Math.ceil(context.measureText(input.placeholder).width), room: Math.floor(room) };
    });
    expect(fit.text, `the placeholder needs ${fit.text} px, the field has ${fit.room}`).toBeLessThanOrEqual(fit.room);
    await expect(page.getByRole('button', { name: 'Search' })).toBeVisible();

    // Coming back to the tab reads nothing (only the cart is read again on focus); a filter does.
    await page.evaluate(() => window.dispatchEvent(new Event('visibilitychange')));
    const paid = page.waitForResponse((r) => r.url().includes('/api/admin/orders?status=paid'));
    await page.getByTestId('orders-filter-paid').click();
    await paid;
    expect(lists).toEqual(['', '?status=paid']);
  });
});
