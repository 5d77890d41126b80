/**
 * The shops the browser benches measure, side by side (`BENCH_SHOPS`, comma-separated):
 *
 *  - `harness`: the built client served by the integration tests' harness (server/test/harness.ts)
 *    in this process: PGlite, the Shopify emulator, its log silent. What earlier runs measured.
 *  - `start`: the shop as `npm start` runs it: `node dist-server/main.js` in its own process, a
 *    fresh data folder, nothing configured (PGlite, the local chain, the bundled emulator, whose
 *    demo store `LOCAL_DEMO_PRODUCTS` grows), its log written as a terminal would get it.
 *  - `production`: the production build as the live rehearsal starts it (e2e/rehearsal/world.ts:
 *    NODE_ENV=production, Postgres, a chain, the emulator as a separate store), after an admin
 *    logged in, synced the catalogue and priced every variant through the admin API. Needs
 *    TEST_DATABASE_URL; measured at the demo's size only (the store is a separate process).
 *
 * Each answers the shop's address, the pages to open (the home and the first product's page) and
 * how to stop it. `npm run build` first.
 */
import { spawn } from 'node:child_process';
import { closeSync, copyFileSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEV_ACCOUNTS } from '../e2e/fixtures/test-wallet';
import { SHOPPER_ACCOUNT, startWorld } from '../e2e/rehearsal/world';
import { freePort } from '../server/chain/local-chain';
import { startHarness } from '../server/test/harness';
import { DIST } from './built-shop';
import { growCatalogue } from './grow-catalogue';

export type ShopKind = 'harness' | 'start' | 'production';
export const SHOP_KINDS = (process.env.BENCH_SHOPS ?? 'harness,start,production').split(',') as ShopKind[];

export interface BenchShop {
  kind: ShopKind;
  baseUrl: string;
  /** The home and the first product's page: [name, path]. */
  pages: ReadonlyArray<readonly [string, string]>;
  /** How many products the shop lists. */
  products: number;
  /** The first listed product's id. */
  productId: string;
  /** The process the shop's server runs in (this one for the harness). */
  pid: number;
  stop(): Promise<void>;
}

/** The checkout whose build `start` runs: this one, or `BENCH_ROOT` (another build, for a before/after in one run). */
const ROOT = process.env.BENCH_ROOT ?? join(import.meta.dirname, '..');

/** The first listed product and how many there are, from the catalogue's first page of one. */
async function firstProduct(baseUrl: string): Promise<{ id: string; total: number }> {
  const page = (await (await fetch(`${baseUrl}/api/catalogue/products?limit=1`)).json()) as {
    products: Array<{ id: string }>;
    total: number;
  };
  if (!page.products[0]) throw new Error(`${baseUrl} lists no product`);
  return { id: page.products[0].id, total: page.total };
}

const pagesOf = (id: string) => [['home', '/'] as const, ['product page', `/product/${encodeURIComponent(id)}`] as const];

async function harnessShop(products: number): Promise<BenchShop> {
  if (!existsSync(join(DIST, 'index.html'))) throw new Error('No dist/: run `npm run build` first.');
  const h = await startHarness('pglite', { staticDir: DIST, pageSize: 50, variantsFirst: 50 });
  growCatalogue(h, products);
  await h.catalogue.sync();
  await h.catalogue.seedDemoPrices();
  const first = await firstProduct(h.baseUrl);
  return {
    kind: 'harness',
    baseUrl: h.baseUrl,
    pages: pagesOf(first.id),
    products: first.total,
    productId: first.id,
    pid: process.pid,
    stop: () => h.close(),
  };
}

/** Waits until `url` answers 200, or the process has exited, or `timeoutMs` passed. */
async function waitForHealth(url: string, exited: () => boolean, log: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const ok = await fetch(url, { signal: AbortSignal.timeout(2_000) })
      .then((r) => r.ok)
      .catch(() => false);
    if (ok) return;
    if (exited()) throw new Error(`the shop exited before it answered:\n${readFileSync(log, 'utf8').slice(-3000)}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`the shop did not answer within ${timeoutMs / 1000} s:\n${readFileSync(log, 'utf8').slice(-3000)}`);
}

async function startedShop(products: number, root = ROOT): Promise<BenchShop> {
  if (!existsSync(join(root, 'dist-server', 'main.js'))) throw new Error(`No ${root}/dist-server/: run \`npm run build\` there first.`);
  const dataDir = mkdtempSync(join(tmpdir(), 'pogs-bench-start-'));
  const port = await freePort();
  const logFile = join(dataDir, 'shop.log');
  const log = openSync(logFile, 'a');
  // What `npm start` runs once the build is current (scripts/start.ts), with nothing configured
  // but where it listens, its data folder and the demo store's size.
  const child = spawn(process.execPath, [join(root, 'dist-server', 'main.js')], {
    cwd: root,
    detached: true,
    stdio: ['ignore', log, log],
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? dataDir,
      PORT: String(port),
      DATA_DIR: dataDir,
      LOCAL_DEMO_PRODUCTS: String(products),
    },
  });
  closeSync(log);
  let gone = false;
  const exited = new Promise<void>((resolve) => child.once('exit', () => ((gone = true), resolve())));
  const stop = async () => {
    if (!gone) {
      process.kill(-child.pid!, 'SIGTERM');
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  // The address it prints (its PUBLIC_URL by default): the demo photos are served under it.
  const baseUrl = `http://localhost:${port}`;
  try {
    // It listens at once; its first start then syncs and prices the demo store (minutes at 20,000 products).
    await waitForHealth(`${baseUrl}/api/health`, () => gone, logFile, 30 * 60_000);
    const first = await listedOnceSynced(baseUrl, () => gone, 30 * 60_000);
    return { kind: 'start', baseUrl, pages: pagesOf(first.id), products: first.total, productId: first.id, pid: child.pid!, stop };
  } catch (err) {
    // Its log outlives it, for whoever reads the failure.
    copyFileSync(logFile, join(tmpdir(), 'pogs-bench-start-failed.log'));
    await stop();
    throw err;
  }
}

/**
 * The shop listens before its first sync ends: the first product once the sync has finished and
 * the demo prices are in (the count listed the same on two reads a second apart).
 */
async function listedOnceSynced(baseUrl: string, exited: () => boolean, timeoutMs: number): Promise<{ id: string; total: number }> {
  const deadline = Date.now() + timeoutMs;
  let last = -1;
  while (Date.now() < deadline && !exited()) {
    // A first sync of thousands of products keeps the shop busy: an unanswered ask is asked again.
    const health = (await fetch(`${baseUrl}/api/health`, { signal: AbortSignal.timeout(30_000) })
      .then((r) => r.json())
      .catch(() => null)) as { catalogue: { lastSyncAt: string | null } } | null;
    if (health?.catalogue.lastSyncAt) {
      const first = await firstProduct(baseUrl).catch(() => null);
      if (first && first.total === last) return first;
      last = first?.total ?? -1;
    }
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
  throw new Error(`${baseUrl} listed no synced catalogue within ${timeoutMs / 1000} s`);
}

/** A cookie-keeping admin of a shop, speaking JSON with the shop's own Origin; each call ends after `timeoutMs`. */
export function adminClient(baseUrl: string, timeoutMs = 120_000) {
  let cookie = '';
  return async (path: string, init: { method?: string; json?: unknown } = {}) => {
    const res = await fetch(`${baseUrl}${path}`, {
      method: init.method ?? 'GET',
      headers: { Origin: baseUrl, Cookie: cookie, ...(init.json === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: init.json === undefined ? undefined : JSON.stringify(init.json),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const set = res.headers.getSetCookie().map((c) => c.split(';')[0]!);
    if (set.length)
      cookie = [...new Map([...cookie.split('; '), ...set].filter(Boolean).map((c) => [c.split('=')[0], c])).values()].join('; ');
    if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${path}: ${res.status} ${await res.text()}`);
    return res.status === 204 ? null : ((await res.json()) as unknown);
  };
}

/** Starts the admin's catalogue sync and waits for its job to succeed (`admin`: a logged-in adminClient). */
export async function syncCatalogue(admin: ReturnType<typeof adminClient>, pollMs = 500): Promise<void> {
  await admin('/api/inventory/sync', { method: 'POST' });
  for (;;) {
    const { job } = (await admin('/api/inventory/sync')) as { job: { status: string } | null };
    if (job?.status === 'failed') throw new Error('the admin sync failed');
    if (job?.status === 'succeeded') return;
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}

async function productionShop(): Promise<BenchShop> {
  const databaseUrl = process.env.TEST_DATABASE_URL;
  if (!databaseUrl) throw new Error('the production shop needs TEST_DATABASE_URL (a Postgres where a database may be created)');
  const world = await startWorld({
    databaseUrl,
    tokenTtlSeconds: 3600,
    tokenHolders: [SHOPPER_ACCOUNT, DEV_ACCOUNTS[3]!],
    say: (line) => console.error(`production: ${line}`),
  });
  try {
    // The shop's own address (its PUBLIC_URL): the admin's writes must come from it.
    const admin = adminClient(world.shopUrl);
    await admin('/api/admin/login', { method: 'POST', json: { password: world.adminPassword } });
    await syncCatalogue(admin);
    const inventory = (await admin('/api/inventory')) as Array<{ id: string }>;
    for (const variant of inventory) {
      await admin(`/api/inventory/${encodeURIComponent(variant.id)}/update`, {
        method: 'PATCH',
        json: { pogPrice: '100', isActive: true },
      });
    }
    const first = await firstProduct(world.shopUrl);
    return {
      kind: 'production',
      baseUrl: world.shopUrl,
      pages: pagesOf(first.id),
      products: first.total,
      productId: first.id,
      pid: world.shopPid,
      stop: () => world.stop(),
    };
  } catch (err) {
    await world.stop();
    throw err;
  }
}

/**
 * The shop of `kind` with `products` products (the production shop has the demo's 27); `root`: the
 * checkout whose build the `start` shop runs (BENCH_ROOT, else this one).
 */
export function startBenchShop(kind: ShopKind, products = 27, root?: string): Promise<BenchShop> {
  if (kind === 'harness') return harnessShop(products);
  if (kind === 'start') return startedShop(products, root);
  if (kind === 'production') return productionShop();
  throw new Error(`BENCH_SHOPS: unknown shop '${String(kind)}' (harness, start or production)`);
}
