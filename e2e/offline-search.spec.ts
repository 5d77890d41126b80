import { expect, test, type Page } from './fixtures/test';
import type { Product } from '../common/api';
import { CATALOGUE_PAGE_SIZE, type CataloguePage } from '../common/catalogue-view';

// Offline (a train, a tunnel), the home's search, filters and sort work on the products the
// device saved: the saved matches show, in the server's order, counted as what can be shown, with
// a line saying where they come from; back online the server's answers return by themselves.
test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

const cards = (page: Page) => page.getByTestId('product-card');
const shownIds = (page: Page) => cards(page).evaluateAll((els) => els.map((el) => el.getAttribute('data-product-id')));
const itemsText = (n: number) => `${n} ${n === 1 ? 'item' : 'items'}`;
const SAVED_RESULTS = /^Results from the (\d+) products? saved on this device\. Connect to the internet to search the whole shop\.$/;

/** Every product id of a view, in its order, from the page route (following its cursors). */
async function wholeView(page: Page, query: URLSearchParams): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  do {
    const params = new URLSearchParams(query);
    if (cursor) params.set('cursor', cursor);
    const res = await page.request.get(`/api/catalogue/products?${params.toString()}`);
    expect(res.ok()).toBe(true);
    const answer = (await res.json()) as CataloguePage;
    ids.push(...answer.products.map((p) => p.id));
    cursor = answer.nextCursor;
  } while (cursor);
  return ids;
}

/** Whether the device saved the home's grid in IndexedDB (the persisted query cache). */
function savedGrid(page: Page): Promise<boolean> {
  return page.evaluate(
    () =>
      new Promise<boolean>((resolve) => {
        const open = indexedDB.open('pogs-shop');
        open.onerror = () => resolve(false);
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains('query-cache')) return resolve(false);
          const get = db.transaction('query-cache').objectStore('query-cache').get('pogs-shop:query-cache');
          get.onsuccess = () => resolve(typeof get.result === 'string' && get.result.includes('"catalogue","page",""'));
          get.onerror = () => resolve(false);
        };
      }),
  );
}

test('offline, a search and a filter show the saved products that match, counted so; back online the server answers again', async ({
  page,
  context,
}) => {
  test.setTimeout(90_000); // a visit, a reload offline, a search and a filter, and back online
  const products = (await (await page.request.get('/api/products')).json()) as Product[];
  const all = await wholeView(page, new URLSearchParams());
  expect(all.length).toBeGreaterThan(CATALOGUE_PAGE_SIZE);
  // The visit saves the home's first page: the featured order's first products.
  const saved = new Set(all.slice(0, CATALOGUE_PAGE_SIZE));

  // A title word some saved products match and some others too, so the server's count is not the device's.
  let word = '';
  let matches: string[] = [];
  for (const candidate of new Set(products.flatMap((p) => p.title.toLowerCase().split(/[^a-z]+/)).filter((w) => w.length >= 3))) {
    matches = await wholeView(page, new URLSearchParams({ q: candidate }));
    const savedMatches = matches.filter((id) => saved.has(id)).length;
    if (savedMatches > 1 && savedMatches < matches.length) {
      word = candidate;
      break;
    }
  }
  expect(word, 'a word that saved and unsaved products both have').not.toBe('');
  const savedMatches = matches.filter((id) => saved.has(id));
  // A type some of those saved matches have, others not.
  const typeOf = new Map(products.map((p) => [p.id, p.productType]));
  const type = [...new Set(savedMatches.map((id) => typeOf.get(id)!))].find((t) => t && savedMatches.some((id) => typeOf.get(id) !== t))!;
  expect(type, 'a type that narrows the saved matches').toBeTruthy();
  const filteredQuery = new URLSearchParams({ q: word, type });
  const filtered = await wholeView(page, filteredQuery);
  const savedFiltered = filtered.filter((id) => saved.has(id));
  expect(savedFiltered.length).toBeGreaterThan(0);

  await page.goto('/');
  await expect(cards(page)).toHaveCount(CATALOGUE_PAGE_SIZE);
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  await expect.poll(() => savedGrid(page)).toBe(true);

  // On the train: the shop opens from what the device saved.
  await context.setOffline(true);
  await page.reload();
  await expect(cards(page)).toHaveCount(CATALOGUE_PAGE_SIZE);
  await expect(page.getByTestId('product-count')).toHaveText(itemsText(saved.size));
  // The default view needs no second line: the notice above says it already.
  await expect(page.getByTestId('saved-results-note')).toHaveCount(0);
  const notice = page.getByTestId('saved-offline-notice');
  await expect(notice).toHaveCount(1);

  const search = page.getByRole('searchbox', { name: 'Search products' });
  await search.fill(word);
  await expect(page).toHaveURL(`/?q=${word}`);
  const note = page.getByTestId('saved-results-note');
  await expect(note).toHaveText(SAVED_RESULTS);
  expect(Number(SAVED_RESULTS.exec((await note.textContent()) ?? '')![1])).toBe(saved.size);
  // One line about the saved products, not two: the notice gives way to the results' own line.
  await expect(notice).toHaveCount(0);
  await expect(page.getByTestId('offline-notice')).toHaveCount(1);
  await expect(page.getByTestId('products-error')).toHaveCount(0);
  // The saved matches, in the server's order (the device's featured order is the saved pages' order).
  await expect.poll(() => shownIds(page)).toEqual(savedMatches);
  await expect(page.getByTestId('product-count')).toHaveText(itemsText(savedMatches.length));

  // The filter offers the saved products' values, counted among them; picking one narrows the matches.
  const typeSelect = page.getByRole('combobox', { name: 'Type' });
  const savedOfType = [...saved].filter((id) => typeOf.get(id) === type).length;
  await expect(typeSelect.locator('option', { hasText: `${type} (${savedOfType})` })).toHaveCount(1);
  await typeSelect.selectOption(type);
  await expect(page).toHaveURL(`/?${filteredQuery.toString()}`);
  await expect.poll(() => shownIds(page)).toEqual(savedFiltered);
  await expect(page.getByTestId('product-count')).toHaveText(itemsText(await cards(page).count()));
  await expect(note).toHaveText(SAVED_RESULTS);

  await typeSelect.selectOption('');
  await expect(page).toHaveURL(`/?q=${word}`);
  await expect.poll(() => shownIds(page)).toEqual(savedMatches);

  // Back online: the line goes and the server's answer returns (more matches), without a tap.
  await context.setOffline(false);
  await expect(note).toHaveCount(0);
  await expect(page.getByTestId('product-count')).toHaveText(itemsText(matches.length));
  await expect.poll(() => shownIds(page)).toEqual(matches.slice(0, CATALOGUE_PAGE_SIZE));
  await typeSelect.selectOption(type);
  await expect(page.getByTestId('product-count')).toHaveText(itemsText(filtered.length));
});
