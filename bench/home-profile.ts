/**
 * Where a page's main-thread time goes while it starts (`npx tsx bench/home-profile.ts`, after
 * `npm run build`): the home and a product page of each shop in `BENCH_SHOPS` (bench-shops.ts;
 * here `start,production` by default: the shop as `npm start` runs it and the production build) in
 * Chromium at 390×844 with a 4× CPU slowdown, a fresh context each (no service worker, no cache).
 * V8's sampling profiler runs from the navigation until `BENCH_SETTLE_MS` (6 s) after the load
 * event; printed are the long tasks (over 50 ms) with when they started, the main thread's time
 * by script (self time: the page's own chunks, the HTML's inline scripts, the browser's own work
 * as "(program)") and the functions that took most. Built code is minified: a function's name is
 * its minified one, its script and line say where. Nothing is asserted: the figures go in
 * bench/README.md.
 */
import { chromium, type Page } from '@playwright/test';
import { SHOP_KINDS, startBenchShop, type ShopKind } from './bench-shops';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './built-shop';

const SETTLE_MS = Number(process.env.BENCH_SETTLE_MS ?? 6000);
const SHOPS = (process.env.BENCH_SHOPS ? SHOP_KINDS : ['start', 'production']) as ShopKind[];

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

/** Long tasks from the page's start, recorded by the page itself (buffered). */
const LONG_TASKS = `
  window.__longTasks = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__longTasks.push([Math.round(e.startTime), Math.round(e.duration)]);
  }).observe({ type: 'longtask', buffered: true });
`;

async function profile(page: Page, url: string): Promise<string[]> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await page.addInitScript({ content: LONG_TASKS });
  await cdp.send('Profiler.start');
  await page.goto(url, { waitUntil: 'load' });
  await page.waitForTimeout(SETTLE_MS);
  const { profile } = (await cdp.send('Profiler.stop')) as unknown as {
    profile: { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };
  };
  const longTasks = await page.evaluate(() => (window as unknown as { __longTasks: Array<[number, number]> }).__longTasks);
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const byScript = new Map<string, number>();
  const byFunction = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const { functionName, url: scriptUrl, lineNumber } = nodes.get(id)!.callFrame;
    const ms = (profile.timeDeltas[i] ?? 0) / 1000;
    const script = scriptUrl
      ? scriptUrl.replace(/^.*\/assets\//, '').replace(/^https?:\/\/[^/]+\/(?!assets\/).*$/, '(the HTML)')
      : functionName;
    byScript.set(script, (byScript.get(script) ?? 0) + ms);
    if (scriptUrl)
      byFunction.set(
        `${functionName || '(anonymous)'} ${script}:${lineNumber}`,
        (byFunction.get(`${functionName || '(anonymous)'} ${script}:${lineNumber}`) ?? 0) + ms,
      );
  });
  const top = (m: Map<string, number>, n: number) =>
    [...m]
      .filter(([k]) => k !== '(idle)')
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([k, ms]) => `| ${k} | ${Math.round(ms)} ms |`);
  const busy = [...byScript].filter(([k]) => k !== '(idle)').reduce((t, [, ms]) => t + ms, 0);
  return [
    `long tasks (start ms, duration ms): ${longTasks.map(([s, d]) => `${s}+${d}`).join(', ') || 'none'}; main thread busy ${Math.round(busy)} ms`,
    '',
    '| script | self time |',
    '|---|---|',
    ...top(byScript, 12),
    '',
    '| function | self time |',
    '|---|---|',
    ...top(byFunction, 12),
  ];
}

const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
try {
  for (const kind of SHOPS) {
    const shop = await startBenchShop(kind);
    try {
      for (const [name, path] of shop.pages) {
        const context = await browser.newContext({ viewport: { width: 390, height: 844 }, serviceWorkers: 'block' });
        const lines = await profile(await context.newPage(), `${shop.baseUrl}${path}`);
        console.log(`\n### ${name}, ${kind}: 4× CPU, ${SETTLE_MS / 1000} s after load\n\n${lines.join('\n')}`);
        await context.close();
      }
    } finally {
      await shop.stop();
    }
  }
} finally {
  await browser.close();
}
