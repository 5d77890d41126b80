import { chromium } from 'playwright';
import { writeFileSync } from 'node:fs';
import { CHROMIUM_ARGS, CHROMIUM_PATH, startBuiltShop } from './built-shop';
const { h, pages } = await startBuiltShop();
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
const which = Number(process.env.PAGE ?? 0);
const [name, path] = pages[which]!;
const ctx = await browser.newContext({ viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75, isMobile: true });
const page = await ctx.newPage();
if (process.env.NOIMG) await page.route('**/cdn/images/**', (r) => r.abort());
await fetch(`${h.baseUrl}${path}`, { headers: { accept: 'text/html' } });
await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute', 'blink.user_timing', 'loading'] });
await page.goto(`${h.baseUrl}${path}`, { waitUntil: 'networkidle' });
await page.waitForTimeout(2000);
const buf = await browser.stopTracing();
writeFileSync(`/tmp/prof/${name.replace(/ /g, '-')}.trace.json`, buf);
const { traceEvents } = JSON.parse(buf.toString());
const main = traceEvents.find((e: any) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain' && traceEvents.some((x: any) => x.pid === e.pid && x.name === 'ParseHTML'));
const ev = traceEvents.filter((e: any) => e.pid === main.pid && e.tid === main.tid && e.ph === 'X');
const nav = traceEvents.find((e: any) => e.name === 'navigationStart' && e.pid === main.pid)?.ts ?? ev[0].ts;
const paints = traceEvents.filter((e: any) => (e.name === 'firstContentfulPaint' || e.name === 'largestContentfulPaint::Candidate' || e.name === 'firstPaint' || e.name === 'ResourceReceiveResponse' || e.name === 'ResourceFinish') && e.pid === main.pid);
for (const p of paints) console.log(p.name, ((p.ts - nav) / 1000).toFixed(0), JSON.stringify(p.args?.data ?? {}).slice(0, 150));
const tasks = ev.filter((e: any) => e.name === 'RunTask' && e.dur > Number(process.env.MINDUR ?? 15000));
for (const t of tasks) {
  const kids = ev.filter((e: any) => e.ts >= t.ts && e.ts + e.dur <= t.ts + t.dur && e !== t && ['EvaluateScript', 'v8.evaluateModule', 'FunctionCall', 'ParseHTML', 'Layout', 'UpdateLayoutTree', 'Paint', 'TimerFire', 'EventDispatch', 'ParseAuthorStyleSheet', 'v8.compileModule', 'RunMicrotasks', 'Decode Image', 'ImageDecodeTask'].includes(e.name));
  const sum = new Map<string, number>();
  for (const k of kids) {
    const key = k.name + (k.args?.data?.url ? ' ' + String(k.args.data.url).split('/').pop() : k.args?.data?.functionName ? ' ' + k.args.data.functionName : '');
    sum.set(key, (sum.get(key) ?? 0) + k.dur);
  }
  console.log(`task @${((t.ts - nav) / 1000).toFixed(0)} ${(t.dur / 1000).toFixed(0)}ms :: ` + [...sum].sort((a, b) => b[1] - a[1]).slice(0, 6).map(([k, d]) => `${k}=${(d / 1000).toFixed(0)}`).join(', '));
}
await browser.close();
await h.close();
