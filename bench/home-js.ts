/**
 * How much JavaScript a phone downloads before the shop's first screens settle (the first-screen
 * budget: ≤ 130 KB gzip). Serves the built client (`npm run build` first) with the real server on
 * PGlite and the demo catalogue, opens the home and a product page in Debian's Chromium at 390×844,
 * and lists every script the page fetched, with its size gzipped (level 9, as a CDN would send it)
 * from `dist/` and when it was asked for. The budget counts the scripts asked for until the network
 * went idle (Playwright's 'networkidle': no request for 500 ms), the first screen's; the scripts
 * asked for in the `BENCH_SETTLE_MS` after that (what starts on a timer, such as the home's
 * confetti 1.5 s after its list) are listed apart, with their total.
 * Printed as Markdown for bench/README.md. Nothing is asserted: the figures are recorded.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium, type Page } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH, DIST, startBuiltShop } from './built-shop';

const SETTLE_MS = Number(process.env.BENCH_SETTLE_MS ?? 2500);
const BUDGET_KB = 130;

interface Script {
  path: string;
  raw: number;
  gzip: number;
  /** When the page asked for it, in ms after the navigation started. */
  askedAtMs: number;
  /** Asked for after the network had gone idle. */
  later: boolean;
}

/** The scripts `page` fetches while it opens `url` and settles, sized from dist/. */
async function scriptsOf(page: Page, url: string): Promise<Script[]> {
  const asked = new Map<string, number>();
  let idle = false;
  const later = new Set<string>();
  let start = Date.now();
  const onRequest = (request: { url(): string; resourceType(): string }) => {
    if (request.resourceType() !== 'script') return;
    const path = new URL(request.url()).pathname;
    if (asked.has(path)) return;
    asked.set(path, Date.now() - start);
    if (idle) later.add(path);
  };
  page.on('request', onRequest);
  start = Date.now();
  await page.goto(url, { waitUntil: 'networkidle' });
  idle = true;
  await page.waitForTimeout(SETTLE_MS);
  page.off('request', onRequest);
  // Only files of the build (a blob: worker the page makes itself is not downloaded).
  return [...asked]
    .filter(([path]) => path.startsWith('/'))
    .map(([path, askedAtMs]) => {
      const file = join(DIST, path);
      const bytes = existsSync(file) ? readFileSync(file) : Buffer.alloc(0);
      return { path, raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length, askedAtMs, later: later.has(path) };
    });
}

const kb = (n: number) => (n / 1024).toFixed(1);

const sum = (scripts: Script[]) => scripts.reduce((total, s) => total + s.gzip, 0);

function table(name: string, scripts: Script[]): string {
  const sorted = [...scripts].sort((a, b) => Number(a.later) - Number(b.later) || b.gzip - a.gzip);
  const first = sorted.filter((s) => !s.later);
  const later = sorted.filter((s) => s.later);
  const total = sum(first);
  const lines = [
    `### ${name}: ${first.length} scripts, ${kb(total)} KB gzip until the network was idle (budget ${BUDGET_KB} KB: ${total <= BUDGET_KB * 1024 ? 'within' : 'over'}); then ${later.length} more, ${kb(sum(later))} KB`,
    '',
    '| script | raw KB | gzip KB | asked for at |',
    '|---|---|---|---|',
    ...sorted.map(
      (s) => `| \`${s.path.replace(/^\/assets\//, '')}\`${s.later ? ' (later)' : ''} | ${kb(s.raw)} | ${kb(s.gzip)} | ${s.askedAtMs} ms |`,
    ),
  ];
  return lines.join('\n');
}

async function main() {
  const { h, pages } = await startBuiltShop();
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    const out: string[] = [];
    for (const [name, path] of pages) {
      // A first visit each time: a fresh context has no service worker and no cache.
      const context = await browser.newContext({
        viewport: { width: 390, height: 844 },
        deviceScaleFactor: 3,
        isMobile: true,
        hasTouch: true,
        serviceWorkers: 'block',
      });
      const page = await context.newPage();
      out.push(table(name, await scriptsOf(page, `${h.baseUrl}${path}`)));
      await context.close();
    }
    console.log(out.join('\n\n'));
  } finally {
    await browser.close();
    await h.close();
  }
}

await main();
