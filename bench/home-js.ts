/**
 * How much JavaScript a phone downloads for the shop's first screens (the first-screen budget:
 * ≤ 130 KB gzip). On the shop as `npm start` runs it (`npm run build` first; bench-shops.ts), opens the home and a product page in Debian's Chromium at 390×844, and
 * lists every script the page fetched, with its size gzipped (level 9, as a CDN would send it)
 * from `dist/` and when it was asked for. The budget counts the scripts asked for until the first
 * screen committed (e2e/fixtures/first-screen-js.ts says how); what the page asked for later, until
 * the network was idle plus `BENCH_SETTLE_MS`, is listed apart with its total. `npm test` holds the
 * same budget (e2e/first-screen-js.spec.ts); this prints the table for bench/README.md.
 */
import { chromium } from '@playwright/test';
import { scriptLoads, scriptTable } from '../e2e/fixtures/first-screen-js';
import { startBenchShop } from './bench-shops';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './built-shop';

const SETTLE_MS = Number(process.env.BENCH_SETTLE_MS ?? 2500);

async function main() {
  const shop = await startBenchShop('start');
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    const out: string[] = [];
    for (const [name, path] of shop.pages) {
      // A first visit each time: a fresh context has no service worker and no cache.
      const context = await browser.newContext({
        viewport: { width: 390, height: 844 },
        deviceScaleFactor: 3,
        isMobile: true,
        hasTouch: true,
        serviceWorkers: 'block',
      });
      const page = await context.newPage();
      out.push(scriptTable(name, await scriptLoads(page, `${shop.baseUrl}${path}`, SETTLE_MS)));
      await context.close();
    }
    console.log(out.join('\n\n'));
  } finally {
    await browser.close();
    await shop.stop();
  }
}

await main();
