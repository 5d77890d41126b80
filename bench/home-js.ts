/**
 * How much JavaScript a phone downloads before the shop's first screens settle (issue 14's budget:
 * ≤ 130 KB gzip). Serves the built client (`npm run build` first) with the real server on PGlite
 * and the demo catalogue, opens the home and a product page in Debian's Chromium at 390×844, and
 * lists every script the page fetched until the network was idle (plus a short wait for what
 * starts late), with its size gzipped (level 9, as a CDN would send it) from `dist/`.
 * Printed as a Markdown table for bench/README.md. Nothing is asserted: the figures are recorded.
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
}

/** The scripts `page` fetches while it opens `url` and settles, sized from dist/. */
async function scriptsOf(page: Page, url: string): Promise<Script[]> {
  const seen = new Set<string>();
  const onResponse = (response: { url(): string; request(): { resourceType(): string } }) => {
    if (response.request().resourceType() === 'script') seen.add(new URL(response.url()).pathname);
  };
  page.on('response', onResponse);
  await page.goto(url, { waitUntil: 'networkidle' });
  await page.waitForTimeout(SETTLE_MS);
  page.off('response', onResponse);
  // Only files of the build (a blob: worker the page makes itself is not downloaded).
  return [...seen]
    .filter((path) => path.startsWith('/'))
    .map((path) => {
      const file = join(DIST, path);
      const bytes = existsSync(file) ? readFileSync(file) : Buffer.alloc(0);
      return { path, raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
    });
}

const kb = (n: number) => (n / 1024).toFixed(1);

function table(name: string, scripts: Script[]): string {
  const sorted = [...scripts].sort((a, b) => b.gzip - a.gzip);
  const total = sorted.reduce((sum, s) => sum + s.gzip, 0);
  const lines = [
    `### ${name}: ${sorted.length} scripts, ${kb(total)} KB gzip (budget ${BUDGET_KB} KB: ${total <= BUDGET_KB * 1024 ? 'within' : 'over'})`,
    '',
    '| script | raw KB | gzip KB |',
    '|---|---|---|',
    ...sorted.map((s) => `| \`${s.path.replace(/^\/assets\//, '')}\` | ${kb(s.raw)} | ${kb(s.gzip)} |`),
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
