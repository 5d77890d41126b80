/**
 * A merchant's edit, from the edit to every place a shopper sees it, and the shop's memory, at
 * several catalogue sizes in one run (`npm run bench:edits`; needs `npm run build` and
 * TEST_DATABASE_URL).
 *
 * Each size gets the production shop as the live rehearsal starts it (e2e/rehearsal/world.ts:
 * `node dist-server/main.js` with NODE_ENV=production, Postgres, a chain, and the Shopify emulator
 * in a process of its own, its store grown to the size), synced through the admin API and priced
 * in the database (one statement, then a catalogue version that names no product). Then:
 *
 *  - a product update as Shopify sends it: the emulator's product edit (its control route), whose
 *    signed products/update webhook the shop receives, timed until the product's own answer, the
 *    list (`GET /api/products`), the home's first page (its HTML) and a search for the new title's
 *    word all show the new title;
 *  - the admin's price edit (`PATCH /api/inventory/:id/update`), timed until the same four show
 *    the new price;
 *  - the shop process's resident memory (VmRSS) just after the edits and once left alone for
 *    `BENCH_SETTLE_MS` (30 s), its peak (VmHWM, the sync's included), and its JavaScript heap and
 *    the memory outside it (its metrics).
 *
 * `BENCH_BEFORE_ROOT` names another checkout's build (main, say) measured the same way in the same
 * run, before this one, at each size. Knobs: `BENCH_SIZES` (1000,20000), `BENCH_RUNS` (3 edits of
 * each kind per shop).
 */
import { request } from 'node:https';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import knex from 'knex';
import { freePort } from '../server/chain/local-chain';
import { startWorld, SHOPPER_ACCOUNT, type World } from '../e2e/rehearsal/world';
import { adminClient, syncCatalogue } from './bench-shops';

const DATABASE = process.env.TEST_DATABASE_URL;
const SIZES = (process.env.BENCH_SIZES ?? '1000,20000').split(',').map(Number);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
/** How long the shop is left alone after the edits before its memory is read. */
const SETTLE_MS = Number(process.env.BENCH_SETTLE_MS ?? 30_000);
const SHOPS: Array<[label: string, root: string]> = [
  ...(process.env.BENCH_BEFORE_ROOT ? [['before', process.env.BENCH_BEFORE_ROOT] as [string, string]] : []),
  ['after', join(import.meta.dirname, '..')],
];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const loadAverage = () => readFileSync('/proc/loadavg', 'utf8').split(' ')[0]!;

/** A merchant's product edit in the emulator (its loopback control route, over its own CA's HTTPS). */
function editInShopify(world: World, body: Record<string, unknown>): Promise<void> {
  const ca = readFileSync(world.liveSettings.NODE_EXTRA_CA_CERTS!);
  const data = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      `${world.shopifyOrigin}/__emulator/products`,
      { method: 'POST', ca, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data) } },
      (res) => {
        res.resume();
        res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`the emulator answered ${res.statusCode}`))));
      },
    );
    req.on('error', reject);
    req.end(data);
  });
}

/**
 * The shop's process memory in MB: resident now and its peak (/proc), and what its metrics say of
 * its JavaScript heap (used and total) and the memory outside it (buffers).
 */
async function memory(pid: number, metricsPort: number): Promise<Omit<Figures['memory'], 'afterEdits'>> {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)![1]);
  const metrics = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
  const mb = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(metrics)?.[1] ?? NaN) / 1048576;
  return {
    rss: kb('VmRSS') / 1024,
    peak: kb('VmHWM') / 1024,
    heapUsed: mb('pogs_nodejs_heap_size_used_bytes'),
    heapTotal: mb('pogs_nodejs_heap_size_total_bytes'),
    external: mb('pogs_nodejs_external_memory_bytes'),
  };
}

/**
 * Seconds from `edit` until each of the four places shows `text` (each polled on its own), and
 * the last of them.
 */
async function timeToVisible(baseUrl: string, productId: string, word: string, text: string, edit: () => Promise<unknown>) {
  let listEtag = (await fetch(`${baseUrl}/api/products`, { method: 'HEAD' })).headers.get('etag') ?? '';
  const places: Record<string, () => Promise<boolean>> = {
    product: async () => (await (await fetch(`${baseUrl}/api/products/${productId}`)).text()).includes(text),
    list: async () => {
      const res = await fetch(`${baseUrl}/api/products`, { headers: { 'if-none-match': listEtag, 'accept-encoding': 'identity' } });
      if (res.status === 304) return false;
      listEtag = res.headers.get('etag') ?? '';
      return (await res.text()).includes(text);
    },
    home: async () => (await (await fetch(`${baseUrl}/`)).text()).includes(text),
    search: async () =>
      (await (await fetch(`${baseUrl}/api/catalogue/products?q=${encodeURIComponent(word)}&limit=5`)).text()).includes(text),
  };
  const started = performance.now();
  await edit();
  const seconds = await Promise.all(
    Object.values(places).map(async (shows) => {
      while (!(await shows())) {
        if (performance.now() - started > 120_000) throw new Error(`not shown within 120 s: ${text}`);
        await sleep(20);
      }
      return (performance.now() - started) / 1000;
    }),
  );
  return { each: Object.fromEntries(Object.keys(places).map((k, i) => [k, seconds[i]!])), all: Math.max(...seconds) };
}

interface Figures {
  products: number;
  webhook: number[];
  price: number[];
  /** Left alone after the edits; `afterEdits`: the RSS just after them. */
  memory: { rss: number; peak: number; heapUsed: number; heapTotal: number; external: number; afterEdits?: number };
  load: string[];
}

async function measure(label: string, root: string, size: number): Promise<Figures> {
  const say = (line: string) => console.error(`${label} ${size}: ${line}`);
  const metricsPort = await freePort();
  const world = await startWorld({
    databaseUrl: DATABASE!,
    tokenTtlSeconds: 3600,
    tokenHolders: [SHOPPER_ACCOUNT],
    say,
    demoProducts: size,
    shopRoot: root,
    shopEnv: { METRICS_PORT: String(metricsPort), METRICS_HOST: '127.0.0.1' },
  });
  try {
    const load = [loadAverage()];
    const admin = adminClient(world.shopUrl, 600_000);
    await admin('/api/admin/login', { method: 'POST', json: { password: world.adminPassword } });
    await syncCatalogue(admin, 1000);
    say('synced');
    // Every variant priced and activated at once, then a version that says nothing of what it changed.
    const db = knex({ client: 'pg', connection: world.databaseUrl });
    try {
      await db.raw(`update variants set pog_price = coalesce(shopify_price, 1) * 10, is_active = true where removed_at is null`);
      const { rows } = await db.raw(
        `update app_state set value = to_jsonb((value)::text::bigint + 1) where key = 'catalogue_version' returning value`,
      );
      await db.raw(`select pg_notify('catalogue_changed', current_schema() || ':' || ?)`, [String(rows[0].value)]);
    } finally {
      await db.destroy();
    }
    let first: { products: Array<{ id: string; title: string; variants: Array<{ id: string }> }>; total: number };
    for (;;) {
      first = (await (await fetch(`${world.shopUrl}/api/catalogue/products?limit=1`)).json()) as typeof first;
      if (first.total >= size - 1) break;
      await sleep(500);
    }
    const product = first.products[0]!;
    // Loaded: the home, the list in each coding, a search, the product.
    for (const path of ['/', '/api/products', `/api/products/${product.id}`, '/api/catalogue/products?q=pog'])
      for (const coding of ['br', 'gzip', 'identity'])
        await (await fetch(`${world.shopUrl}${path}`, { headers: { 'accept-encoding': coding } })).arrayBuffer();
    await sleep(5000);
    const webhook: number[] = [];
    const price: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const word = `edit${label}${run}x${Date.now().toString(36)}`;
      const title = `Edited ${word}`;
      const shown = await timeToVisible(world.shopUrl, product.id, word, title, () =>
        editInShopify(world, { legacyId: product.id, title }),
      );
      webhook.push(shown.all);
      say(`webhook edit shown in ${shown.all.toFixed(2)} s ${JSON.stringify(shown.each)}`);
      const amount = `${700 + run}.25`;
      const priced = await timeToVisible(world.shopUrl, product.id, word, amount, () =>
        admin(`/api/inventory/${product.variants[0]!.id}/update`, { method: 'PATCH', json: { pogPrice: amount } }),
      );
      price.push(priced.all);
      say(`price edit shown in ${priced.all.toFixed(2)} s ${JSON.stringify(priced.each)}`);
    }
    const afterEdits = await memory(world.shopPid, metricsPort);
    // Then left alone for a while: what it keeps, once the garbage of the edits is collected.
    await sleep(SETTLE_MS);
    load.push(loadAverage());
    return {
      products: first.total,
      webhook,
      price,
      memory: { ...(await memory(world.shopPid, metricsPort)), afterEdits: afterEdits.rss },
      load,
    };
  } finally {
    await world.stop();
  }
}

async function main(): Promise<void> {
  if (!DATABASE) throw new Error('TEST_DATABASE_URL: a Postgres where a database may be created');
  const results: Array<{ label: string; size: number; figures: Figures }> = [];
  for (const size of SIZES) {
    for (const [label, root] of SHOPS) results.push({ label, size, figures: await measure(label, root, size) });
  }
  const s = (x: number) => `${x.toFixed(2)} s`;
  console.log(
    `\n| shop | products | webhook edit → shown (median of ${RUNS}) | price edit → shown | RSS after the edits | RSS settled | RSS peak | JS heap used / total | outside the heap | load average |`,
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|');
  for (const { label, figures: f } of results) {
    console.log(
      `| ${label} | ${f.products.toLocaleString('en')} | ${s(median(f.webhook))} (${f.webhook.map((x) => x.toFixed(2)).join(', ')}) | ${s(median(f.price))} (${f.price.map((x) => x.toFixed(2)).join(', ')}) | ${f.memory.afterEdits?.toFixed(0)} MB | ${f.memory.rss.toFixed(0)} MB | ${f.memory.peak.toFixed(0)} MB | ${f.memory.heapUsed.toFixed(0)} / ${f.memory.heapTotal.toFixed(0)} MB | ${f.memory.external.toFixed(0)} MB | ${f.load.join('–')} |`,
    );
  }
  for (const [label] of SHOPS) {
    const mine = results.filter((r) => r.label === label);
    if (mine.length < 2) continue;
    const [small, large] = [mine[0]!, mine.at(-1)!];
    const ratio = (pick: (f: Figures) => number[]) => (median(pick(large.figures)) / median(pick(small.figures))).toFixed(2);
    console.log(
      `${label}: growth ${large.size} vs ${small.size} products: webhook edit ${ratio((f) => f.webhook)}×, price edit ${ratio((f) => f.price)}×`,
    );
  }
}

await main();
