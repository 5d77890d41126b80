import { expect, test, type Page } from './fixtures/test';
import { CATALOGUE_PAGE_SIZE, type CatalogueFacets, type CataloguePage } from '../common/catalogue-view';

// The home's grid for a catalogue of any size, on a phone: a page at a time as the shopper
// scrolls, a search that follows the typing, filters and a sort, all in the URL (shared, reloaded,
// Back), with the first page of the URL's view in the server's HTML.
test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

const cards = (page: Page) => page.getByTestId('product-card');
const shownIds = (page: Page) => cards(page).evaluateAll((els) => els.map((el) => el.getAttribute('data-product-id')));
const idsOf = (page: CataloguePage) => page.products.map((p) => p.id);

async function api<T>(page: Page, path: string): Promise<T> {
  const res = await page.request.get(path);
  expect(res.ok(), path).toBe(true);
  return (await res.json()) as T;
}

/** Every product of a view, from the page route (following its cursors). */
async function wholeView(page: Page, query: string): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  do {
    const params = new URLSearchParams(query);
    if (cursor) params.set('cursor', cursor);
    const answer: CataloguePage = await api<CataloguePage>(page, `/api/catalogue/products?${params.toString()}`);
    ids.push(...idsOf(answer));
    cursor = answer.nextCursor;
  } while (cursor);
  return ids;
}

test('scrolling loads the next page; a search follows the typing; filter, sort, share, reload and Back keep the view', async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000); // many steps, each a round trip
  const all = await wholeView(page, '');
  expect(all.length).toBeGreaterThan(CATALOGUE_PAGE_SIZE);

  // The first page, then the next as the shopper scrolls to the end of the grid (no tap).
  await page.goto('/');
  await expect(page.getByTestId('product-count')).toHaveText(`${all.length} items`);
  await expect(cards(page)).toHaveCount(CATALOGUE_PAGE_SIZE);
  await expect(page.getByTestId('load-more').getByRole('button', { name: 'Load more' })).toBeAttached();
  await cards(page)
    .nth(CATALOGUE_PAGE_SIZE - 1)
    .scrollIntoViewIfNeeded();
  await expect(cards(page)).toHaveCount(all.length);
  expect(await shownIds(page)).toEqual(all);
  await expect(page.getByTestId('load-more')).toHaveCount(0);

  // Back from a product opened from the second page lands on it, with both pages shown.
  const far = cards(page).nth(CATALOGUE_PAGE_SIZE + 1);
  await far.scrollIntoViewIfNeeded();
  await far.getByTestId('details-button').click();
  await expect(page.getByTestId('detail-panel')).toBeVisible();
  const farAt = (await far.boundingBox())!.y;
  await page.getByTestId('detail-panel').getByRole('link', { name: 'Open full page' }).click();
  await expect(page.getByTestId('product-page')).toBeVisible();
  await page.goBack();
  await expect(cards(page)).toHaveCount(all.length);
  await expect.poll(async () => (await far.boundingBox())?.y ?? Number.NaN).toBeCloseTo(farAt, -1);

  // A search as one types: no submit, the URL follows (in place: Back is not every prefix).
  // A word of a title that some products have, not most.
  const titles = (await api<CataloguePage>(page, '/api/catalogue/products')).products.map((p) => p.title);
  let word = '';
  let searched: string[] = [];
  for (const candidate of new Set(titles.flatMap((t) => t.toLowerCase().split(/\s+/)).filter((w) => /^[a-z]{4,}$/.test(w)))) {
    searched = await wholeView(page, `q=${candidate}`);
    if (searched.length > 0 && searched.length <= all.length / 2) {
      word = candidate;
      break;
    }
  }
  expect(word).not.toBe('');
  const historyLength = await page.evaluate(() => history.length);
  await page.evaluate(() => window.scrollTo(0, 0));
  const search = page.getByRole('searchbox', { name: 'Search products' });
  await search.click();
  await search.pressSequentially(word, { delay: 60 });
  await expect(page).toHaveURL(`/?q=${word}`);
  await expect(page.getByTestId('product-count')).toHaveText(`${searched.length} ${searched.length === 1 ? 'item' : 'items'}`);
  await expect.poll(() => shownIds(page)).toEqual(searched.slice(0, CATALOGUE_PAGE_SIZE));
  expect(await page.evaluate(() => history.length)).toBe(historyLength);

  // Nothing matches: said so (not the empty catalogue's message), and one tap clears it.
  await search.fill('zzqqxx');
  await expect(page.getByTestId('products-no-match')).toContainText('No products match "zzqqxx"');
  await expect(page.getByText('No products yet')).toHaveCount(0);
  await page.getByTestId('products-no-match').getByRole('button', { name: 'Clear filters' }).click();
  await expect(page).toHaveURL('/');
  await expect(search).toHaveValue('');
  await expect(cards(page).first()).toBeVisible();

  // Filter by type (a type some but not all products have), then sort by price.
  const facets = await api<CatalogueFacets>(page, '/api/catalogue/facets');
  const type = facets.productTypes.find((t) => t.count > 1 && t.count < all.length)!.value;
  await page.getByRole('combobox', { name: 'Type' }).selectOption(type);
  const ofType = await wholeView(page, `type=${type}`);
  await expect(page).toHaveURL(`/?${new URLSearchParams({ type }).toString()}`);
  await expect.poll(() => shownIds(page)).toEqual(ofType.slice(0, CATALOGUE_PAGE_SIZE));
  await page.getByRole('combobox', { name: 'Sort by' }).selectOption({ label: 'Price: low to high' });
  const query = new URLSearchParams({ type, sort: 'price-asc' }).toString();
  await expect(page).toHaveURL(`/?${query}`);
  const sorted = await wholeView(page, query);
  expect(sorted).not.toEqual(ofType);
  expect([...sorted].sort()).toEqual([...ofType].sort());
  await expect.poll(() => shownIds(page)).toEqual(sorted.slice(0, CATALOGUE_PAGE_SIZE));

  // Shared: the link opens the same view, its first page in the server's HTML.
  const html = await (await page.request.get(`/?${query}`, { headers: { accept: 'text/html' } })).text();
  for (const id of sorted.slice(0, 4)) expect(html).toContain(`data-product-id="${id}"`);
  for (const id of all.filter((id) => !ofType.includes(id))) expect(html).not.toContain(`data-product-id="${id}"`);
  const other = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  try {
    const shared = await other.newPage();
    await shared.goto(page.url());
    await expect(shared.getByRole('combobox', { name: 'Type' })).toHaveValue(type);
    await expect(shared.getByRole('combobox', { name: 'Sort by' })).toHaveValue('price-asc');
    await expect.poll(() => shownIds(shared)).toEqual(sorted.slice(0, CATALOGUE_PAGE_SIZE));
  } finally {
    await other.close();
  }

  // A reload keeps the view; Back undoes the sort, then the filter.
  await page.reload();
  await expect(page.getByRole('combobox', { name: 'Sort by' })).toHaveValue('price-asc');
  await expect.poll(() => shownIds(page)).toEqual(sorted.slice(0, CATALOGUE_PAGE_SIZE));
  await page.goBack();
  await expect(page).toHaveURL(`/?${new URLSearchParams({ type }).toString()}`);
  await expect(page.getByRole('combobox', { name: 'Sort by' })).toHaveValue('featured');
  await expect.poll(() => shownIds(page)).toEqual(ofType.slice(0, CATALOGUE_PAGE_SIZE));
});

test('"Load more" is a button too: a keyboard or a screen reader reaches the next page without scrolling', async ({ page }) => {
  await page.goto('/');
  await expect(cards(page)).toHaveCount(CATALOGUE_PAGE_SIZE);
  const more = page.getByTestId('load-more').getByRole('button', { name: 'Load more' });
  await more.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('load-more')).toHaveCount(0);
  const total = Number(/^(\d+) items$/.exec((await page.getByTestId('product-count').textContent()) ?? '')?.[1]);
  expect(total).toBeGreaterThan(CATALOGUE_PAGE_SIZE);
  await expect(cards(page)).toHaveCount(total);
});
