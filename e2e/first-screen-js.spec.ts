import { expect, test } from './fixtures/test';
import type { Product } from '../common/api';
import { FIRST_SCREEN_BUDGET_KB, firstScreenBytes, scriptLoads, scriptTable } from './fixtures/first-screen-js';

// The first screen's JavaScript stays within its budget on the two pages a visit starts on. Bytes,
// not timings: they are the same on any machine. bench/home-js.ts prints the same table.
let product: Product;

test.beforeAll(async ({ request }) => {
  [product] = (await (await request.get('/api/products')).json()) as Product[];
  expect(product).toBeDefined();
});

test.use({ serviceWorkers: 'block' });

for (const [name, path] of [
  ['home', () => '/'],
  ['product page', () => `/product/${encodeURIComponent(product.id)}`],
] as const) {
  test(`the ${name}'s first screen loads at most ${FIRST_SCREEN_BUDGET_KB} KB of JavaScript (gzip)`, async ({ page, baseURL }) => {
    const scripts = await scriptLoads(page, `${baseURL}${path()}`, 500);
    const table = scriptTable(name, scripts);
    // The count is of the page's real scripts: React DOM alone is more than 50 KB gzip.
    expect(firstScreenBytes(scripts), table).toBeGreaterThan(50 * 1024);
    expect(firstScreenBytes(scripts), table).toBeLessThanOrEqual(FIRST_SCREEN_BUDGET_KB * 1024);
  });
}
