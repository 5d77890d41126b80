import { expect, test, type Page } from './fixtures/test';
import type { Product } from '../common/api';
import { CATALOGUE_PAGE_SIZE } from '../common/catalogue-view';
import { DEFAULT_IMAGE_WIDTH, sizedImageUrl } from '../common/product-image-url';
import { loadAllCards } from './fixtures/ui';

// The shop runs on a fresh embedded database with the emulator's demo catalogue (see
// playwright.config.ts). Tests pick their products from the live API rather than hard-coding them.
let products: Product[];

test.beforeAll(async ({ request }) => {
  const res = await request.get('/api/products');
  expect(res.ok()).toBe(true);
  products = await res.json();
  // More than one page of the grid.
  expect(products.length).toBeGreaterThan(CATALOGUE_PAGE_SIZE);
});

const card = (page: Page, product: Product) =>
  page.getByTestId('product-card').filter({ has: page.locator(`#product-${product.id}-title`) });

test('home shows the hero, the notices and every synced product, a page at a time', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByText('Curated Selection')).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: 'POGS Shop' })).toBeVisible();
  await expect(page.getByText('FLASH SALES: Will be open for 42 hours each')).toBeVisible();
  await expect(page.getByTestId('product-count')).toHaveText(/^\d+ items$/);
  await expect(page.getByTestId('product-card')).toHaveCount(CATALOGUE_PAGE_SIZE);
  expect(await loadAllCards(page)).toBeGreaterThan(CATALOGUE_PAGE_SIZE);
  await expect(page.getByTestId('load-more')).toHaveCount(0);
  for (const p of products.slice(0, 3)) await expect(card(page, p)).toContainText(p.title);
  // The FAQ's code loads as the shopper scrolls towards it (the community link is below it).
  await page.getByTestId('community-link').scrollIntoViewIfNeeded();
  await expect(page.getByTestId('faq')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Frequently Asked Questions' })).toBeVisible();
  await expect(page.getByTestId('community-link')).toHaveAttribute('href', /^https:\/\//);
});

test('tapping a card image cycles through its images, with 5 dots and +N beyond', async ({ page }) => {
  const many = products.find((p) => p.images.length > 5)!;
  await page.goto('/');
  await loadAllCards(page);
  const c = card(page, many);
  await c.scrollIntoViewIfNeeded();
  await expect(c.getByTestId('image-dot')).toHaveCount(5);
  await expect(c.getByTestId('image-more')).toHaveText(`+${many.images.length - 5}`);
  const image = c.getByTestId('card-image');
  await expect(image).toHaveAttribute('data-image-index', '0');
  await expect(image.locator('img')).toHaveAttribute('src', sizedImageUrl(many.images[0].url, DEFAULT_IMAGE_WIDTH));
  await image.locator('button').first().click();
  await expect(image).toHaveAttribute('data-image-index', '1');
  await expect(image.locator('img')).toHaveAttribute('src', sizedImageUrl(many.images[1].url, DEFAULT_IMAGE_WIDTH));
  // Wraps around after the last image.
  for (let i = 2; i <= many.images.length; i++) await image.locator('button').first().click();
  await expect(image).toHaveAttribute('data-image-index', '0');
});

test.describe('first paint from the page itself', () => {
  // In the page: when the first card (or the product) appeared, and whether the skeleton ever did.
  test.beforeEach(async ({ page }) => {
    await page.addInitScript(() => {
      const w = window as unknown as { __shownAt?: number; __skeleton?: boolean };
      new MutationObserver((_records, observer) => {
        if (document.querySelector('[data-testid="product-grid-loading"]')) w.__skeleton = true;
        if (w.__shownAt === undefined && document.querySelector('[data-testid="product-card"], [data-testid="product-page"]')) {
          w.__shownAt = performance.now();
          observer.disconnect();
        }
      }).observe(document, { childList: true, subtree: true });
    });
  });

  /** Request start times (page clock) of `pathname`, from Resource Timing. */
  const requestedAt = (page: Page, pathname: string) =>
    page.evaluate(
      (p) =>
        performance
          .getEntriesByType('resource')
          .filter((e) => new URL(e.name).pathname === p)
          .map((e) => e.startTime),
      pathname,
    );

  test('the home shows its grid with no request for its products before it (none, or only later) and no skeleton', async ({ page }) => {
    const apiCalls: string[] = [];
    const watched = ['/api/products', '/api/catalogue/products', '/api/config'];
    page.on('request', (request) => {
      const { pathname } = new URL(request.url());
      if (watched.includes(pathname)) apiCalls.push(pathname);
    });
    await page.goto('/');
    await expect(page.getByTestId('product-card')).toHaveCount(CATALOGUE_PAGE_SIZE);
    const shownAt = await page.evaluate(() => (window as unknown as { __shownAt?: number }).__shownAt);
    expect(shownAt).toBeGreaterThan(0);
    expect(await page.evaluate(() => (window as unknown as { __skeleton?: boolean }).__skeleton ?? false)).toBe(false);
    for (const pathname of watched) {
      for (const at of await requestedAt(page, pathname)) expect(at, pathname).toBeGreaterThan(shownAt!);
    }
    // Seeded as fresh: not asked for at once after the paint either.
    expect(apiCalls).toEqual([]);
  });

  test('photos: the first card eager and high priority (fetched once, with its preload), the rest lazy, all sized', async ({ page }) => {
    await page.goto('/');
    const imgs = page.getByTestId('card-image').locator('img');
    await expect(imgs.first()).toBeVisible();
    // The server sends the first cards; the rest of the first page follow once the page is hydrated.
    await expect(page.getByTestId('product-card')).toHaveCount(CATALOGUE_PAGE_SIZE);
    const first = imgs.first();
    await expect(first).toHaveAttribute('loading', 'eager');
    await expect(first).toHaveAttribute('fetchpriority', 'high');
    const all = await imgs.evaluateAll((els) =>
      (els as HTMLImageElement[]).map((img) => ({
        loading: img.getAttribute('loading'),
        decoding: img.getAttribute('decoding'),
        fetchpriority: img.getAttribute('fetchpriority'),
        width: img.getAttribute('width'),
        height: img.getAttribute('height'),
        srcset: img.srcset,
        sizes: img.sizes,
      })),
    );
    expect(all.length).toBeGreaterThan(10);
    for (const [i, img] of all.entries()) {
      expect(img.width, `card ${i}`).toBe('800');
      expect(img.height, `card ${i}`).toBe('800');
      expect(img.srcset, `card ${i}`).toMatch(/\?width=400 400w/);
      expect(img.sizes, `card ${i}`).not.toBe('');
      if (i > 0) expect(img, `card ${i}`).toMatchObject({ loading: 'lazy', decoding: 'async', fetchpriority: null });
    }
    // The server's preload is the very request the first card makes: one fetch of its photo.
    const preload = page.locator('head link[rel="preload"][as="image"]');
    await expect(preload).toHaveCount(1);
    await expect(preload).toHaveAttribute('fetchpriority', 'high');
    expect(await preload.getAttribute('imagesrcset')).toBe(all[0].srcset);
    const current = await first.evaluate(async (img: HTMLImageElement) => {
      await img.decode();
      return img.currentSrc;
    });
    expect(await preload.evaluate((link: HTMLLinkElement, src) => link.imageSrcset.includes(src), current)).toBe(true);
    const path = new URL(current).pathname;
    const fetches = await page.evaluate(
      (p) => performance.getEntriesByType('resource').filter((e) => new URL(e.name).pathname === p).length,
      path,
    );
    expect(fetches).toBe(1);
  });

  test('a product page shows its product without asking for it, its photo eager and preloaded', async ({ page }) => {
    const p = products.find((x) => x.images.length > 1)!;
    const asked: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname.startsWith('/api/products')) asked.push(request.url());
    });
    await page.goto(`/product/${p.id}`);
    await expect(page.getByTestId('product-page')).toContainText(p.title);
    expect(asked).toEqual([]);
    const photo = page.getByTestId('product-page').locator('img').first();
    await expect(photo).toHaveAttribute('loading', 'eager');
    await expect(photo).toHaveAttribute('fetchpriority', 'high');
    await expect(photo).toHaveAttribute('width', '800');
    expect(await page.locator('head link[rel="preload"][as="image"]').getAttribute('imagesrcset')).toBe(await photo.getAttribute('srcset'));
  });
});

test('a product without images shows the package placeholder', async ({ page }) => {
  const none = products.find((p) => p.images.length === 0)!;
  await page.goto('/');
  await loadAllCards(page);
  const c = card(page, none);
  await c.scrollIntoViewIfNeeded();
  await expect(c.getByTestId('image-placeholder')).toContainText('📦');
});

test('variant select labels, sold-out options and the quantity stepper limits', async ({ page }) => {
  const multi = products.find((p) => p.variants.length > 3 && p.variants.some((v) => v.isSoldOut) && !p.variants[0].isSoldOut)!;
  await page.goto('/');
  await loadAllCards(page);
  const c = card(page, multi);
  await c.scrollIntoViewIfNeeded();
  const select = c.getByTestId('variant-select');
  await expect(select.locator('option:not([value=""])')).toHaveCount(multi.variants.length);
  const soldOut = multi.variants.find((v) => v.isSoldOut)!;
  const soldOption = select.locator(`option[value="${soldOut.id}"]`);
  await expect(soldOption).toBeDisabled();
  await expect(soldOption).toHaveText(/ - SOLD OUT$/);
  const inStock = multi.variants.find((v) => !v.isSoldOut && v.availableStock > 0)!;
  await expect(select.locator(`option[value="${inStock.id}"]`)).toHaveText(new RegExp(` - ${inStock.availableStock} left$`));

  const minus = c.getByTestId('qty-minus');
  const plus = c.getByTestId('qty-plus');
  const qty = c.getByTestId('qty-input');
  await expect(qty).toHaveValue('1');
  await expect(minus).toBeDisabled();
  for (let i = 0; i < 12; i++) if (await plus.isEnabled()) await plus.click();
  await expect(qty).toHaveValue('10');
  await expect(plus).toBeDisabled();
  await qty.fill('abc');
  await qty.blur();
  await expect(qty).toHaveValue('1');
  await qty.fill('25');
  await qty.blur();
  await expect(qty).toHaveValue('10');
});

/** The closed variant select shows its chosen label whole: same text as the option, nothing cut. */
async function expectWholeVariantLabel(page: Page, product: Product) {
  const c = card(page, product);
  await c.scrollIntoViewIfNeeded();
  const select = c.getByTestId('variant-select');
  const label = c.getByTestId('variant-select-label');
  const chosen = await select.evaluate((el: HTMLSelectElement) => el.selectedOptions[0]?.textContent ?? '');
  expect(chosen).toMatch(/ - (SOLD OUT|\d+ left)$/);
  await expect(label).toHaveText(chosen);
  const fit = await label.evaluate((el) => {
    const box = el.getBoundingClientRect();
    const frame = el.parentElement!.getBoundingClientRect();
    const chevron = el.parentElement!.querySelector('svg')!.getBoundingClientRect();
    return {
      cut: el.scrollWidth > el.clientWidth + 1,
      inside: box.left >= frame.left && box.right <= chevron.left + 0.5,
      lines: Math.round(box.height / parseFloat(getComputedStyle(el).lineHeight)),
    };
  });
  expect(fit.cut).toBe(false);
  expect(fit.inside).toBe(true);
  expect(fit.lines).toBeLessThanOrEqual(3);
  // The select itself still covers the whole control (inside its 1 px border), so a tap anywhere opens the picker.
  const selectBox = (await select.boundingBox())!;
  const frameBox = (await label.locator('..').boundingBox())!;
  expect(Math.abs(selectBox.width - frameBox.width)).toBeLessThanOrEqual(2);
  expect(Math.abs(selectBox.height - frameBox.height)).toBeLessThanOrEqual(2);
}

for (const viewport of [
  { name: '390 px phone', width: 390, height: 844 },
  { name: '4-column desktop', width: 1440, height: 900 },
]) {
  test(`the closed variant select shows the whole label, " - {n} left" and " - SOLD OUT" included, on a ${viewport.name}`, async ({
    browser,
    baseURL,
  }) => {
    const context = await browser.newContext({ viewport, baseURL });
    try {
      const page = await context.newPage();
      await page.goto('/');
      await loadAllCards(page);
      if (viewport.width >= 1280) {
        const columns = await page.getByTestId('product-grid').evaluate((el) => getComputedStyle(el).gridTemplateColumns.split(' ').length);
        expect(columns).toBe(4);
      }
      // The longest " - {n} left" label among multi-variant products whose first variant is in stock.
      const withStock = products
        .filter((p) => p.variants.length > 1 && !p.variants[0].isSoldOut && p.variants[0].availableStock > 0)
        .sort((a, b) => b.variants[0].title.length - a.variants[0].title.length)[0]!;
      await expectWholeVariantLabel(page, withStock);
      // A sold-out choice reads " - SOLD OUT" whole too.
      const soldOut = products.find((p) => p.variants.length > 1 && p.variants[0].isSoldOut);
      if (soldOut) await expectWholeVariantLabel(page, soldOut);
    } finally {
      await context.close();
    }
  });
}

test('a sold-out product shows the overlay and cannot be added', async ({ page }) => {
  const soldOut = products.find((p) => p.variants.every((v) => v.isSoldOut))!;
  await page.goto('/');
  await loadAllCards(page);
  const c = card(page, soldOut);
  await c.scrollIntoViewIfNeeded();
  await expect(c.getByTestId('sold-out-overlay')).toHaveText('SOLD OUT');
  await expect(c.getByTestId('add-to-cart')).toBeDisabled();
  await expect(c.getByTestId('add-to-cart')).toHaveText(/SOLD OUT/);
});

test('the detail panel shows both tables and the product facts', async ({ page }) => {
  const p = products.find((x) => x.images.length > 5 && x.tags.length > 0)!;
  await page.goto('/');
  await loadAllCards(page);
  const c = card(page, p);
  await c.scrollIntoViewIfNeeded();
  await c.getByTestId('details-button').click();
  const panel = page.getByTestId('detail-panel');
  await expect(panel).toBeVisible();
  await expect(panel).toContainText('Product Details and Specifications');
  await expect(panel).toContainText('Exclusive POGS pricing');
  await expect(panel.getByTestId('detail-thumbnail')).toHaveCount(4);
  await expect(panel.getByTestId('detail-more-images')).toHaveText(`+${p.images.length - 4} more images`);
  const heritage = panel.getByTestId('heritage-table');
  await expect(heritage).toContainText('POGS Only');
  await expect(heritage).toContainText('Base Blockchain');
  await expect(heritage).toContainText('Heritage Members');
  const details = panel.getByTestId('product-details-table');
  await expect(details).toContainText(p.id);
  await expect(details).toContainText('Worldwide Available');
  await expect(panel.getByTestId('add-to-cart')).toHaveText(/Add 1 to Cart/);
  await panel.getByTestId('qty-plus').click();
  await expect(panel.getByTestId('add-to-cart')).toHaveText(/Add 2 to Cart/);
  await page.keyboard.press('Escape');
  await expect(panel).toBeHidden();
});

test('/product/:id is the full detail page; /products/:id the simple page', async ({ page }) => {
  const p = products[1];
  await page.goto(`/product/${p.id}`);
  await expect(page.getByTestId('product-page')).toContainText(p.title);
  await expect(page.getByTestId('heritage-table')).toBeVisible();

  await page.goto(`/products/${p.id}`);
  const simple = page.getByTestId('simple-product');
  await expect(simple).toContainText(p.title);
  await expect(simple).toContainText('$POGS');
  await expect(simple.getByRole('button', { name: /Add to Cart/ })).toBeVisible();
});

test('an unknown product and an unknown route get their not-found screens', async ({ page }) => {
  await page.goto('/product/12345');
  await expect(page.getByTestId('product-not-found')).toBeVisible();
  await page.goto('/no/such/page');
  await expect(page.getByText('404 Page Not Found')).toBeVisible();
  await expect(page.getByText('Did you forget to add the page to the router?')).toBeVisible();
});

test('the shop still browses offline after one visit', async ({ page, context }) => {
  await page.goto('/');
  await expect(page.getByTestId('product-card')).toHaveCount(CATALOGUE_PAGE_SIZE);
  await page.evaluate(async () => navigator.serviceWorker?.ready);
  await page.waitForTimeout(1500); // the persister writes at most once a second
  await context.setOffline(true);
  await page.reload();
  await expect(page.getByTestId('product-card')).toHaveCount(CATALOGUE_PAGE_SIZE);
  await context.setOffline(false);
});

test.describe('the cards fade in staggered by 0.03 s × index', () => {
  test.use({ reducedMotion: 'no-preference' });
  const delayOf = (page: Page, index: number) =>
    page.locator(`[data-testid="product-card"][data-card-index="${index}"]`).evaluate((el) => getComputedStyle(el).animationDelay);

  test('on screen at once, the stagger keeps growing past card 21 to the first page’s last', async ({ browser, baseURL }) => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 6000 }, reducedMotion: 'no-preference', baseURL });
    try {
      const page = await context.newPage();
      await page.goto('/');
      const cards = page.getByTestId('product-card');
      await expect(cards.nth(CATALOGUE_PAGE_SIZE - 1)).toHaveAttribute('data-revealed', 'true');
      expect(await delayOf(page, 0)).toBe('0s');
      expect(await delayOf(page, 1)).toBe('0.03s');
      expect(await delayOf(page, 20)).toBe('0.6s');
      expect(await delayOf(page, 21)).toBe('0.63s');
      expect(await delayOf(page, 23)).toBe('0.69s');
    } finally {
      await context.close();
    }
  });

  test('on a 390 px phone a card scrolled into view fades in at once, not after its place in the grid', async ({ browser, baseURL }) => {
    const context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
      reducedMotion: 'no-preference',
      baseURL,
    });
    try {
      const page = await context.newPage();
      await page.goto('/');
      await expect(page.getByTestId('product-card').first()).toHaveAttribute('data-revealed', 'true');
      const far = page.locator('[data-testid="product-card"][data-card-index="22"]');
      await expect(far).not.toHaveAttribute('data-revealed');
      await far.scrollIntoViewIfNeeded();
      await expect(far).toHaveAttribute('data-revealed', 'true');
      // It counts from the first card revealed with it: at most a few steps, never 0.66 s.
      expect(parseFloat(await delayOf(page, 22))).toBeLessThanOrEqual(0.09);
      await expect.poll(() => far.evaluate((el) => getComputedStyle(el).opacity), { timeout: 2_000 }).toBe('1');
    } finally {
      await context.close();
    }
  });

  test('cards a "Load more" brings fade in too, as they are scrolled into view', async ({ browser, baseURL }) => {
    const context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
      reducedMotion: 'no-preference',
      baseURL,
    });
    try {
      const page = await context.newPage();
      await page.goto('/');
      const cards = page.getByTestId('product-card');
      await expect(cards).toHaveCount(CATALOGUE_PAGE_SIZE);
      // Pressed from the keyboard: scrolling to it would load the next page by itself.
      await page.getByTestId('load-more').getByRole('button', { name: 'Load more' }).focus();
      await page.keyboard.press('Enter');
      await expect(page.getByTestId('load-more')).toHaveCount(0);
      // The first card of the next page, and the last (the same card when earlier tests left the
      // catalogue with one product more than a page).
      const last = (await cards.count()) - 1;
      expect(last).toBeGreaterThanOrEqual(CATALOGUE_PAGE_SIZE);
      for (const index of new Set([CATALOGUE_PAGE_SIZE, last])) {
        const card = page.locator(`[data-testid="product-card"][data-card-index="${index}"]`);
        await card.scrollIntoViewIfNeeded();
        await expect(card).toHaveAttribute('data-revealed', 'true');
        expect(await card.evaluate((el) => getComputedStyle(el).animationName)).not.toBe('none');
        expect(parseFloat(await delayOf(page, index))).toBeLessThanOrEqual(0.09);
        await expect.poll(() => card.evaluate((el) => getComputedStyle(el).opacity), { timeout: 2_000 }).toBe('1');
      }
    } finally {
      await context.close();
    }
  });

  test('with reduced motion the cards do not animate and show at once', async ({ browser, baseURL }) => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, reducedMotion: 'reduce', baseURL });
    try {
      const page = await context.newPage();
      await page.goto('/');
      const cards = page.getByTestId('product-card');
      await expect(cards.first()).toBeVisible();
      const styles = await cards.evaluateAll((els) =>
        els.map((el) => `${getComputedStyle(el).animationName}/${getComputedStyle(el).opacity}`),
      );
      expect(new Set(styles)).toEqual(new Set(['none/1']));
    } finally {
      await context.close();
    }
  });
});

test.describe('with motion', () => {
  test.use({ reducedMotion: 'no-preference' });

  test('confetti once per session: 1.5 s after the list loads, drawn off the main thread, gone after 2.5 s', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByTestId('product-card').first()).toBeVisible();
    const canvas = page.getByTestId('celebration');
    await expect(canvas).toBeAttached({ timeout: 5_000 });
    // Drawn by canvas-confetti's worker: the canvas was handed over to an OffscreenCanvas, so the
    // page can no longer draw on it itself.
    const transferred = await canvas.evaluate((el: HTMLCanvasElement) => {
      try {
        el.getContext('2d');
        return false;
      } catch {
        return true;
      }
    });
    expect(transferred).toBe(true);
    await expect(canvas).toHaveCSS('pointer-events', 'none');
    await expect(canvas).not.toBeAttached({ timeout: 6_000 });
    expect(await page.evaluate(() => sessionStorage.getItem('pogs-shop:celebrated'))).not.toBeNull();
    // The same session: no second celebration.
    await page.reload();
    await expect(page.getByTestId('product-card').first()).toBeVisible();
    await page.waitForTimeout(2_500);
    await expect(canvas).not.toBeAttached();
  });
});

test('a new page starts at the top; back returns to where the shop was scrolled, also after a reload', async ({ page }) => {
  await page.goto('/');
  const shown = await loadAllCards(page);
  // A card of the second page: back shows the pages loaded; a reload brings the first page in its
  // HTML and the next one loads as the position is restored.
  const far = page.getByTestId('product-card').nth(shown - 2);
  await far.scrollIntoViewIfNeeded();
  // The FAQ's code arrives as the page nears it; once it has replaced its placeholder the page below is final.
  await expect(page.getByTestId('faq')).toBeVisible();
  expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(1000);
  await far.getByTestId('details-button').click();
  await expect(page.getByTestId('detail-panel')).toBeVisible();
  // Where that card sits on the screen as the shopper leaves (Playwright's click may have
  // scrolled to reach the button): back (and a reload) show it there again.
  const shownAt = (await far.boundingBox())!.y;
  const farShownAt = async () => (await far.boundingBox())?.y ?? Number.NaN;
  await page.getByTestId('detail-panel').getByRole('link', { name: 'Open full page' }).click();
  await expect(page.getByTestId('product-page')).toBeVisible();
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);

  await page.goBack();
  await expect(page.getByTestId('product-card')).toHaveCount(shown);
  await expect.poll(farShownAt).toBeCloseTo(shownAt, -1);

  await page.reload();
  await expect(page.getByTestId('product-card')).toHaveCount(shown);
  await expect.poll(farShownAt).toBeCloseTo(shownAt, -1);
});
