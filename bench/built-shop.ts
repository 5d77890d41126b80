/**
 * What the browser benches (home-js.ts, lighthouse.ts) share: the built client served by the real
 * server on PGlite with the demo catalogue synced and priced, the pages they open, and how Debian's
 * Chromium is launched here (the flags playwright.config.ts uses too).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { startHarness, type Harness } from '../server/test/harness';

export const DIST = join(import.meta.dirname, '..', 'dist');
export const CHROMIUM_PATH = process.env.BENCH_CHROMIUM ?? '/usr/bin/chromium';
export { CHROMIUM_ARGS } from '../e2e/fixtures/chromium';
/** The shop from dist/, and the home and the first product's page to open (name, path). */
export async function startBuiltShop(): Promise<{ h: Harness; pages: ReadonlyArray<readonly [string, string]> }> {
  if (!existsSync(join(DIST, 'index.html'))) throw new Error('No dist/: run `npm run build` first.');
  const h = await startHarness('pglite', { staticDir: DIST });
  await h.catalogue.sync();
  await h.catalogue.seedDemoPrices();
  const product = (await h.catalogue.list()).products[0]!;
  return {
    h,
    pages: [
      ['home', '/'],
      ['product page', `/product/${encodeURIComponent(product.id)}`],
    ],
  };
}
