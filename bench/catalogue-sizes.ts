/**
 * The shop at several catalogue sizes in one run (`npm run bench:sizes`, after `npm run build`):
 * for each shop of `BENCH_SHOPS` (bench-shops.ts; here `harness,start` by default: the harness and
 * the shop as `npm start` runs it, grown with LOCAL_DEMO_PRODUCTS) and each size in `BENCH_SIZES`
 * (default 27, 1000, 20000 products) that shop with that many products synced and priced, then
 *  - the home's and a product page's HTML, raw and gzip (the home's should not grow);
 *  - in Chromium at 390×844 under a 4× CPU slowdown: when the first product card is on screen,
 *    the longest task, and the DOM's element count once the page has settled;
 *  - Lighthouse's mobile preset on the home and the product page (medians of `BENCH_RUNS`, default 3).
 * Printed as Markdown with a growth ratio (largest size against the smallest) per measure, the
 * headline: flat is the goal. Nothing is asserted: the figures are recorded in bench/README.md.
 */
import { gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';
import * as chromeLauncher from 'chrome-launcher';
import { loadavg } from 'node:os';
import { startBenchShop, type ShopKind } from './bench-shops';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './built-shop';
import { runLighthouse } from './lighthouse-run';

const SIZES = (process.env.BENCH_SIZES ?? '27,1000,20000').split(',').map(Number);
const SHOPS = (process.env.BENCH_SHOPS ?? 'harness,start').split(',') as ShopKind[];
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const SETTLE_MS = Number(process.env.BENCH_SETTLE_MS ?? 3000);

interface Row {
  size: number;
  /** The machine's 1-minute load average when the size's measurements began and ended. */
  load: string;
  homeKb: number;
  homeGzipKb: number;
  productKb: number;
  firstCardMs: number;
  longestTaskMs: number;
  domElements: number;
  homeScore: number;
  homeTbtMs: number;
  productScore: number;
  productTbtMs: number;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/**
 * Records, from before the page's first byte, when a product card is first on screen and the
 * longest task. Plain JavaScript in a string: a function would be compiled by tsx, whose helpers
 * (it keeps function names with a `__name` call) do not exist in the page.
 */
const PROBE = `
  window.__bench = { firstCardMs: null, longestTaskMs: 0 };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.__bench.longestTaskMs = Math.max(window.__bench.longestTaskMs, entry.duration);
  }).observe({ type: 'longtask', buffered: true });
  const look = () => {
    const card = document.querySelector('[data-card-index]');
    const box = card && card.getBoundingClientRect();
    if (box && box.height > 0 && box.top < innerHeight) {
      // On screen from the next frame's paint.
      requestAnimationFrame(() => (window.__bench.firstCardMs = performance.now()));
      return;
    }
    requestAnimationFrame(look);
  };
  requestAnimationFrame(look);
`;

async function lighthouseRuns(port: number, url: string): Promise<{ score: number; tbtMs: number }> {
  const scores: number[] = [];
  const tbts: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const lhr = await runLighthouse(port, url);
    scores.push(Math.round((lhr.categories.performance?.score ?? 0) * 100));
    tbts.push(lhr.audits['total-blocking-time']?.numericValue ?? NaN);
  }
  return { score: median(scores), tbtMs: median(tbts) };
}

async function measure(kind: ShopKind, size: number): Promise<Row> {
  const shop = await startBenchShop(kind, size);
  const loadBefore = loadavg()[0]!.toFixed(1);
  try {
    const homeUrl = `${shop.baseUrl}${shop.pages[0]![1]}`;
    const productUrl = `${shop.baseUrl}${shop.pages[1]![1]}`;
    const home = Buffer.from(await (await fetch(homeUrl, { headers: { 'accept-encoding': 'identity' } })).arrayBuffer());
    const productHtml = Buffer.from(await (await fetch(productUrl, { headers: { 'accept-encoding': 'identity' } })).arrayBuffer());

    const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
    const firstCards: number[] = [];
    const longest: number[] = [];
    let domElements = 0;
    try {
      for (let i = 0; i < RUNS; i++) {
        const context = await browser.newContext({ viewport: { width: 390, height: 844 }, serviceWorkers: 'block' });
        const page = await context.newPage();
        const cdp = await context.newCDPSession(page);
        await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
        await page.addInitScript({ content: PROBE });
        await page.goto(homeUrl, { waitUntil: 'load' });
        await page.waitForFunction(
          () => (window as unknown as { __bench: { firstCardMs: number | null } }).__bench.firstCardMs !== null,
          null,
          {
            timeout: 120_000,
          },
        );
        await page.waitForTimeout(SETTLE_MS);
        const probe = await page.evaluate(() => ({
          ...(window as unknown as { __bench: { firstCardMs: number; longestTaskMs: number } }).__bench,
          elements: document.getElementsByTagName('*').length,
        }));
        firstCards.push(probe.firstCardMs);
        longest.push(probe.longestTaskMs);
        domElements = Math.max(domElements, probe.elements);
        await context.close();
      }
    } finally {
      await browser.close();
    }

    const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM_PATH, chromeFlags: ['--headless=new', ...CHROMIUM_ARGS] });
    let homeLh: { score: number; tbtMs: number };
    let productLh: { score: number; tbtMs: number };
    try {
      homeLh = await lighthouseRuns(chrome.port, homeUrl);
      productLh = await lighthouseRuns(chrome.port, productUrl);
    } finally {
      chrome.kill();
    }
    return {
      size: shop.products,
      load: `${loadBefore}–${loadavg()[0]!.toFixed(1)}`,
      homeKb: home.length / 1024,
      homeGzipKb: gzipSync(home).length / 1024,
      productKb: productHtml.length / 1024,
      firstCardMs: median(firstCards),
      longestTaskMs: median(longest),
      domElements,
      homeScore: homeLh.score,
      homeTbtMs: homeLh.tbtMs,
      productScore: productLh.score,
      productTbtMs: productLh.tbtMs,
    };
  } finally {
    await shop.stop();
  }
}

const measures: Array<[string, (r: Row) => number, (n: number) => string]> = [
  ['Lighthouse mobile, home', (r) => r.homeScore, String],
  ['Total blocking time, home', (r) => r.homeTbtMs, (n) => `${Math.round(n)} ms`],
  ['Lighthouse mobile, product page', (r) => r.productScore, String],
  ['Total blocking time, product page', (r) => r.productTbtMs, (n) => `${Math.round(n)} ms`],
  ['4× CPU: first card on screen', (r) => r.firstCardMs, (n) => `${(n / 1000).toFixed(2)} s`],
  ['4× CPU: longest task', (r) => r.longestTaskMs, (n) => `${Math.round(n)} ms`],
  ['DOM elements, home settled', (r) => r.domElements, (n) => n.toLocaleString('en')],
  ['home HTML', (r) => r.homeKb, (n) => `${n.toFixed(1)} KB`],
  ['home HTML, gzip', (r) => r.homeGzipKb, (n) => `${n.toFixed(1)} KB`],
  ['product page HTML', (r) => r.productKb, (n) => `${n.toFixed(1)} KB`],
];
for (const kind of SHOPS) {
  const rows: Row[] = [];
  for (const size of SIZES) {
    rows.push(await measure(kind, size));
    console.error(`measured ${kind} at ${size} products: ${JSON.stringify(rows.at(-1))}`);
  }
  const first = rows[0]!;
  const last = rows.at(-1)!;
  console.log(`\n${kind}: medians of ${RUNS} runs; growth = ${last.size} products against ${first.size}\n`);
  console.log(`| products | ${rows.map((r) => r.size.toLocaleString('en')).join(' | ')} | growth |`);
  console.log(`|---|${rows.map(() => '---|').join('')}---|`);
  for (const [name, pick, format] of measures) {
    const growth = pick(first) === 0 ? '—' : `${(pick(last) / pick(first)).toFixed(2)}×`;
    console.log(`| ${name} | ${rows.map((r) => format(pick(r))).join(' | ')} | ${growth} |`);
  }
  console.log(`| load average (1 min) | ${rows.map((r) => r.load).join(' | ')} | |`);
}
