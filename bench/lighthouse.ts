/**
 * Lighthouse's mobile preset (simulated slow 4G, 4× CPU slowdown, Moto G Power screen) on the home
 * and a product page, measuring their performance score, First and Largest Contentful Paint, Total
 * Blocking Time, Cumulative Layout Shift, Speed Index and the JavaScript transferred. On each shop
 * of `BENCH_SHOPS` (bench-shops.ts: the harness, the shop as `npm start` runs it, the production
 * build), one after the other, with the demo catalogue; `npm run build` first. Drives Debian's
 * Chromium through chrome-launcher. Each page is run `BENCH_RUNS` times (default 3) on a cold start
 * (Lighthouse clears storage and the service worker each run); the median of each figure is
 * printed as a Markdown table for bench/README.md, with the range of the score and the machine's
 * load average before and after each shop. Nothing is asserted: the figures are recorded.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import { loadavg } from 'node:os';
import { SHOP_KINDS, startBenchShop } from './bench-shops';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './built-shop';
import { runLighthouse } from './lighthouse-run';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
/** When set, each run's full report is written there as JSON (long tasks, bootup time, the trace's breakdown). */
const REPORT_DIR = process.env.BENCH_LHR_DIR;
let reportCount = 0;

interface Figures {
  score: number;
  fcpMs: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  siMs: number;
  scriptKb: number;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

async function runOnce(port: number, url: string): Promise<Figures> {
  const lhr = await runLighthouse(port, url);
  if (REPORT_DIR) {
    mkdirSync(REPORT_DIR, { recursive: true });
    writeFileSync(join(REPORT_DIR, `lhr-${++reportCount}.json`), JSON.stringify(lhr));
  }
  const numeric = (id: string) => {
    const value = lhr.audits[id]?.numericValue;
    if (typeof value !== 'number') throw new Error(`Lighthouse gave no ${id} for ${url}`);
    return value;
  };
  const items = (lhr.audits['resource-summary']?.details as { items?: Array<{ resourceType: string; transferSize: number }> })?.items;
  const script = items?.find((i) => i.resourceType === 'script')?.transferSize ?? 0;
  return {
    score: Math.round((lhr.categories.performance?.score ?? 0) * 100),
    fcpMs: numeric('first-contentful-paint'),
    lcpMs: numeric('largest-contentful-paint'),
    tbtMs: numeric('total-blocking-time'),
    cls: numeric('cumulative-layout-shift'),
    siMs: numeric('speed-index'),
    scriptKb: script / 1024,
  };
}

const load = () => loadavg()[0]!.toFixed(1);

async function main() {
  const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM_PATH, chromeFlags: ['--headless=new', ...CHROMIUM_ARGS] });
  const rows: string[] = [];
  try {
    for (const kind of SHOP_KINDS) {
      const shop = await startBenchShop(kind);
      const loadBefore = load();
      try {
        for (const [name, path] of shop.pages) {
          const runs: Figures[] = [];
          for (let i = 0; i < RUNS; i++) runs.push(await runOnce(chrome.port, `${shop.baseUrl}${path}`));
          const m = (pick: (f: Figures) => number) => median(runs.map(pick));
          const scores = runs.map((r) => r.score);
          rows.push(
            `| ${name} | ${kind} | ${m((f) => f.score)} (${Math.min(...scores)}–${Math.max(...scores)}) | ` +
              `${(m((f) => f.fcpMs) / 1000).toFixed(2)} s | ${(m((f) => f.lcpMs) / 1000).toFixed(2)} s | ` +
              `${Math.round(m((f) => f.tbtMs))} ms | ${m((f) => f.cls).toFixed(3)} | ${(m((f) => f.siMs) / 1000).toFixed(2)} s | ` +
              `${m((f) => f.scriptKb).toFixed(1)} KB | ${loadBefore}–${load()} |`,
          );
        }
      } finally {
        await shop.stop();
      }
    }
  } finally {
    chrome.kill();
  }
  console.log(
    [
      `Lighthouse mobile preset, medians of ${RUNS} cold runs (score range in brackets)`,
      '',
      '| page | shop | performance | FCP | LCP | TBT | CLS | Speed Index | JS transferred | load average |',
      '|---|---|---|---|---|---|---|---|---|---|',
      ...rows.sort(),
    ].join('\n'),
  );
}

await main();
