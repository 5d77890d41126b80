/**
 * Another site's page cannot make a shopper's (or the admin's) browser change anything: every
 * route that writes answers `403 cross-site-request` to a request the browser marks as another
 * site's (`Origin`, `Sec-Fetch-Site`), with the victim's cookies and without, and nothing in the
 * database (or, for the Demo Wallet, on the chain) changes; the same request from the shop's own
 * page goes through. The routes are read from the app's own routers, so a route added without a
 * row here fails the first test: it must say how to send it and what it changes, or be allowed
 * from other sites with a reason (CROSS_SITE_WRITES_ALLOWED in server/lib/cross-site.ts).
 */
import { createECDH, randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import webpush from 'web-push';
import { checkoutSchema, siweNonceSchema } from '../common/api';
import { ErrorCode } from '../common/errors';
import { createApp } from './app';
import { demoWalletRoutes } from './chain/demo-wallet';
import { DEMO_WALLET_ACCOUNT, DEV_ACCOUNTS } from './chain/local-chain';
import { CROSS_SITE_READS_REFUSED, CROSS_SITE_WRITES_ALLOWED } from './lib/cross-site';
import { makeSignInLink } from './modules/admin';
import { testDatabaseKinds } from './test/databases';
import { adminSession, startHarness, TEST_ADMIN_PASSWORD, type Harness } from './test/harness';
import { Shopper } from './test/shopper';
import { useTestChain } from './test/use-test-chain';

const ALICE = DEV_ACCOUNTS[2]!;
const testChain = useTestChain();

/** How a browser marks another site's request: an Origin that is not the shop's, or Sec-Fetch-Site. */
const FOREIGN: Array<Record<string, string>> = [
  { origin: 'https://evil.example' },
  { 'sec-fetch-site': 'cross-site' },
  // A sibling subdomain: same-site, so SameSite=Lax (and Strict) cookies go along.
  { 'sec-fetch-site': 'same-site', origin: 'https://evil.pogs.example' },
  // A sandboxed frame or a data: URL.
  { origin: 'null' },
];

interface Sent {
  path: string;
  body?: unknown;
}

interface World {
  h: Harness;
  victim: Shopper;
  adminCookie: string;
  /** A variant on sale. */
  variantId: string;
  sameSite: Record<string, string>;
}

/**
 * Every route that may change something, as the routers declare it: how to send it (after
 * `prepare` made what it needs), what the shop's own page gets, and whether that answer changed
 * something (so the refused request would have).
 */
interface Write {
  prepare?: (w: World) => Promise<void>;
  send: (w: World) => Promise<Sent> | Sent;
  sameSiteStatus: number;
  /** The same-site request changed the database (or the chain): what the refused one must not do. */
  changes: boolean;
}

const randomHash = () => `0x${randomBytes(32).toString('hex')}`;

/** The victim's first cart line, made when there is none. */
function adminPasswordHash(w: World): string {
  const password = w.h.services.config.adminPassword;
  if (!password.hash) throw new Error('the harness has no admin password hash');
  return password.hash;
}

async function cartLine(w: World): Promise<string> {
  const cart = await w.victim.cart();
  if (cart.items[0]) return cart.items[0].id;
  expect((await w.victim.add({ variantId: w.variantId, quantity: 1 })).status).toBe(200);
  return (await w.victim.cart()).items[0]!.id;
}

async function openCheckout(w: World): Promise<string> {
  await cartLine(w);
  const res = await w.victim.post('/api/checkout', { customerWallet: null });
  expect(res.status, await res.clone().text()).toBe(201);
  return checkoutSchema.parse(await res.json()).id;
}

async function signedSiweMessage(w: World): Promise<{ message: string; signature: string }> {
  const res = await w.victim.request(`/api/auth/nonce?address=${ALICE}`, { headers: w.sameSite });
  expect(res.status).toBe(200);
  const { message } = siweNonceSchema.parse(await res.json());
  return { message, signature: await (await testChain.provider.getSigner(ALICE)).signMessage(message) };
}

async function anyInventoryItem(w: World): Promise<{ id: string; originalTitle: string }> {
  // A sync started by an earlier write runs in the background: let it end before comparing.
  await expect
    .poll(
      async () => {
        const status = await w.h.api('/api/inventory/sync', { headers: { cookie: w.adminCookie } });
        return ((await status.json()) as { job: { status: string } | null }).job?.status ?? 'none';
      },
      { timeout: 30_000 },
    )
    .not.toBe('running');
  const res = await w.h.api('/api/inventory', { headers: { cookie: w.adminCookie } });
  expect(res.status).toBe(200);
  const [item] = (await res.json()) as Array<{ id: string; originalTitle: string }>;
  return item!;
}

async function adminLogin(w: World): Promise<string> {
  return await adminSession(w.h, w.sameSite);
}

const state: { checkoutId?: string; item?: { id: string; originalTitle: string }; endpoint?: string } = {};

/** A browser's push subscription of `endpoint` (its keys the right sizes; nothing is ever sent to it here). */
const pushSubscription = (endpoint: string) => ({
  endpoint,
  keys: { p256dh: createECDH('prime256v1').generateKeys().toString('base64url'), auth: randomBytes(16).toString('base64url') },
});
const vapid = webpush.generateVAPIDKeys();

const WRITES: Record<string, Write> = {
  'POST /api/cart/add': {
    send: (w) => ({ path: '/api/cart/add', body: { variantId: w.variantId, quantity: 1 } }),
    sameSiteStatus: 200,
    changes: true,
  },
  'DELETE /api/cart/:itemId': {
    send: async (w) => ({ path: `/api/cart/${await cartLine(w)}` }),
    sameSiteStatus: 200,
    changes: true,
  },
  'POST /api/checkout': {
    prepare: async (w) => void (await cartLine(w)),
    send: () => ({ path: '/api/checkout', body: { customerWallet: null } }),
    sameSiteStatus: 201,
    changes: true,
  },
  'POST /api/checkout/:id/transaction': {
    prepare: async (w) => void (state.checkoutId = await openCheckout(w)),
    send: () => ({ path: `/api/checkout/${state.checkoutId}/transaction`, body: { transactionHash: randomHash() } }),
    sameSiteStatus: 200,
    changes: true,
  },
  'POST /api/checkout/:id/swap-quote': {
    prepare: async (w) => void (state.checkoutId = await openCheckout(w)),
    // The configured route has no quoter on this chain: the same-site request gets through to be told so.
    send: () => ({ path: `/api/checkout/${state.checkoutId}/swap-quote`, body: { payWith: 'ETH' } }),
    sameSiteStatus: 503,
    changes: false,
  },
  'POST /api/orders/create': {
    prepare: async (w) => void (state.checkoutId = await openCheckout(w)),
    // The chain knows no such transaction: the same-site request gets through to be told so.
    send: () => ({ path: '/api/orders/create', body: { checkoutId: state.checkoutId, transactionHash: randomHash() } }),
    sameSiteStatus: 404,
    changes: false,
  },
  'POST /api/auth/verify': {
    send: async (w) => ({ path: '/api/auth/verify', body: await signedSiweMessage(w) }),
    sameSiteStatus: 200,
    changes: true,
  },
  'POST /api/auth/logout': {
    prepare: async (w) => void (await w.victim.signIn(testChain.provider, ALICE)),
    send: () => ({ path: '/api/auth/logout' }),
    sameSiteStatus: 200,
    changes: true,
  },
  'POST /api/admin/login': {
    send: () => ({ path: '/api/admin/login', body: { password: TEST_ADMIN_PASSWORD } }),
    sameSiteStatus: 200,
    changes: true,
  },
  'POST /api/admin/login/link': {
    // A fresh operator's link each time: signed with the shop's admin password hash, at the shop's time.
    send: (w) => ({ path: '/api/admin/login/link', body: { link: makeSignInLink(adminPasswordHash(w), new Date(w.h.clock.now)) } }),
    sameSiteStatus: 200,
    changes: true,
  },
  'POST /api/admin/logout': {
    prepare: async (w) => void (w.adminCookie = await adminLogin(w)),
    send: () => ({ path: '/api/admin/logout' }),
    sameSiteStatus: 200,
    changes: true,
  },
  'POST /api/inventory/sync': {
    send: () => ({ path: '/api/inventory/sync' }),
    sameSiteStatus: 202,
    changes: true,
  },
  'PATCH /api/inventory/:id/update': {
    prepare: async (w) => void (state.item = await anyInventoryItem(w)),
    send: () => ({ path: `/api/inventory/${encodeURIComponent(state.item!.id)}/update`, body: { pogPrice: '7.77' } }),
    sameSiteStatus: 200,
    changes: true,
  },
  'PUT /api/products/:originalTitle/custom-title': {
    prepare: async (w) => void (state.item = await anyInventoryItem(w)),
    send: () => ({
      path: `/api/products/${encodeURIComponent(state.item!.originalTitle)}/custom-title`,
      body: { customTitle: 'Made elsewhere' },
    }),
    sameSiteStatus: 200,
    changes: true,
  },
  'DELETE /api/products/:originalTitle/custom-title': {
    prepare: async (w) => {
      state.item = await anyInventoryItem(w);
      const res = await w.h.api(`/api/products/${encodeURIComponent(state.item.originalTitle)}/custom-title`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json', cookie: w.adminCookie },
        body: JSON.stringify({ customTitle: 'To be cleared' }),
      });
      expect(res.status).toBe(200);
    },
    send: () => ({ path: `/api/products/${encodeURIComponent(state.item!.originalTitle)}/custom-title` }),
    sameSiteStatus: 200,
    changes: true,
  },
  // The desk's writes on a transfer that does not exist: the shop's page is told so, past the guard.
  'POST /api/admin/payments/:transferId/resolve': {
    send: () => ({ path: `/api/admin/payments/${randomUUID()}/resolve`, body: { note: 'refunded off-shop' } }),
    sameSiteStatus: 404,
    changes: false,
  },
  'POST /api/admin/payments/:transferId/prepare-refund': {
    send: () => ({ path: `/api/admin/payments/${randomUUID()}/prepare-refund`, body: { amount: '1' } }),
    sameSiteStatus: 404,
    changes: false,
  },
  'POST /api/admin/payments/:transferId/refund': {
    send: () => ({ path: `/api/admin/payments/${randomUUID()}/refund`, body: { transactionHash: randomHash(), amount: '1' } }),
    sameSiteStatus: 404,
    changes: false,
  },
  'POST /api/admin/payments/:transferId/attach': {
    send: () => ({ path: `/api/admin/payments/${randomUUID()}/attach`, body: { checkoutId: randomUUID() } }),
    sameSiteStatus: 404,
    changes: false,
  },
  'POST /api/admin/orders/:id/retry-handoff': {
    send: () => ({ path: `/api/admin/orders/${randomUUID()}/retry-handoff` }),
    sameSiteStatus: 404,
    changes: false,
  },
  // The merchant's webhook endpoints: a new one is kept; the others on an endpoint or a delivery
  // that does not exist are told so past the guard.
  'POST /api/admin/webhooks': {
    send: () => ({ path: '/api/admin/webhooks', body: { url: 'http://127.0.0.1:9/hooks', events: ['order.paid'] } }),
    sameSiteStatus: 201,
    changes: true,
  },
  'PATCH /api/admin/webhooks/:id': {
    send: () => ({ path: `/api/admin/webhooks/ep_${randomBytes(12).toString('hex')}`, body: { enabled: false } }),
    sameSiteStatus: 404,
    changes: false,
  },
  'POST /api/admin/webhooks/:id/rotate-secret': {
    send: () => ({ path: `/api/admin/webhooks/ep_${randomBytes(12).toString('hex')}/rotate-secret` }),
    sameSiteStatus: 404,
    changes: false,
  },
  'POST /api/admin/webhooks/:id/redeliver-failed': {
    send: () => ({
      path: `/api/admin/webhooks/ep_${randomBytes(12).toString('hex')}/redeliver-failed`,
      body: { since: '2026-11-01T00:00:00Z' },
    }),
    sameSiteStatus: 404,
    changes: false,
  },
  'POST /api/admin/webhooks/deliveries/:deliveryId/redeliver': {
    send: () => ({ path: '/api/admin/webhooks/deliveries/987654321/redeliver' }),
    sameSiteStatus: 404,
    changes: false,
  },
  // Order updates: the signed-in wallet's browser subscribes, and unsubscribes.
  'PUT /api/notifications/subscription': {
    prepare: async (w) => void (await w.victim.signIn(testChain.provider, ALICE)),
    send: () => ({ path: '/api/notifications/subscription', body: pushSubscription(`http://127.0.0.1:9/push/${randomUUID()}`) }),
    sameSiteStatus: 200,
    changes: true,
  },
  'DELETE /api/notifications/subscription': {
    prepare: async (w) => {
      await w.victim.signIn(testChain.provider, ALICE);
      state.endpoint = `http://127.0.0.1:9/push/${randomUUID()}`;
      const res = await w.victim.request('/api/notifications/subscription', {
        method: 'PUT',
        headers: { 'content-type': 'application/json', ...w.sameSite },
        body: JSON.stringify(pushSubscription(state.endpoint)),
      });
      expect(res.status).toBe(200);
    },
    send: () => ({ path: '/api/notifications/subscription', body: { endpoint: state.endpoint } }),
    sameSiteStatus: 200,
    changes: true,
  },
  // The Demo Wallet (local mode) sends a transaction from its unlocked account.
  'POST /api/dev/wallet': {
    send: () => ({
      path: '/api/dev/wallet',
      body: { jsonrpc: '2.0', id: 1, method: 'eth_sendTransaction', params: [{ to: ALICE, value: '0x1' }] },
    }),
    sameSiteStatus: 200,
    changes: true,
  },
};

/** GET routes that write (CROSS_SITE_READS_REFUSED): refused from other sites like the writes. */
const READS_THAT_WRITE: Record<string, Write> = {
  'GET /api/auth/nonce': { send: () => ({ path: `/api/auth/nonce?address=${ALICE}` }), sameSiteStatus: 200, changes: true },
};

/**
 * GET routes other sites may not read: the admin's (its SameSite=Strict cookie already stays home)
 * and the nonce (it writes).
 */
const sameOriginRead = (route: string) =>
  route in READS_THAT_WRITE || (/^GET \/api\/(admin|inventory)(\/|$)/.test(route) && route !== 'GET /api/admin/session');

/** Query strings the reads need to get past their validation (so the sweep reaches what they do). */
const READ_QUERIES: Record<string, string> = {
  'GET /api/auth/nonce': `?address=${ALICE}`,
  'GET /api/orders': `?wallet=${ALICE}`,
  'GET /api/refunds': `?wallet=${ALICE}`,
  'GET /api/admin/payments/export.csv': '?from=2026-01-01&to=2026-12-31',
};

/** Every route of the app's routers, as `METHOD /path` (a GET route's automatic HEAD left out). */
function declaredRoutes(h: Harness): string[] {
  const app = createApp(h.services.app);
  const routes = new Set<string>();
  for (const middleware of app.middleware) {
    // A router's middleware carries its router (@koa/router).
    const { router } = middleware as { router?: { stack: Array<{ methods: string[]; path: string | RegExp }> } };
    for (const layer of router?.stack ?? []) {
      for (const method of layer.methods) if (method !== 'HEAD') routes.add(`${method} ${layer.path}`);
    }
  }
  return [...routes];
}

describe.each(testDatabaseKinds)('requests from other sites on %s', (kind) => {
  const w = {} as World;

  beforeAll(async () => {
    w.h = await startHarness(kind, {
      chain: testChain.chain,
      demoWallet: demoWalletRoutes({ rpcUrl: testChain.chain.rpcUrl, account: DEMO_WALLET_ACCOUNT }),
      // The paymaster's routes exist only when it is configured (no contract is needed to list them).
      env: {
        PAYMASTER_ADDRESS: DEV_ACCOUNTS[3]!,
        PAYMASTER_SIGNER_KEY: `0x${'42'.repeat(32)}`,
        // Order updates on, so their routes take a subscription.
        VAPID_PUBLIC_KEY: vapid.publicKey,
        VAPID_PRIVATE_KEY: vapid.privateKey,
        VAPID_SUBJECT: 'mailto:orders@pogs-shop.example',
        // Paying with ETH on, so its quote's route exists (no pool is needed to list it).
        SWAP_ETH_PATH: `${DEV_ACCOUNTS[3]!}:3000`,
      },
    });
    await w.h.catalogue.sync();
    await w.h.catalogue.seedDemoPrices();
    w.variantId = (await w.h.catalogue.list()).products.flatMap((p) => p.variants).find((v) => !v.isSoldOut && v.availableStock !== 0)!.id;
    w.sameSite = { origin: w.h.baseUrl, 'sec-fetch-site': 'same-origin' };
    w.victim = new Shopper(w.h);
    await cartLine(w);
    w.adminCookie = await adminLogin(w);
  });
  afterAll(async () => {
    await w.h?.close();
  });

  /**
   * Every row of every table: what a refused request must leave as it was. `counted`: with the
   * rate limits' counters (a refused request is not counted; an accepted one always is).
   */
  async function snapshot(counted: boolean): Promise<Record<string, string[]>> {
    const db = w.h.database.db;
    const { rows } = (await db.raw(
      "select table_name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE' order by table_name",
    )) as { rows: Array<{ table_name: string }> };
    const all: Record<string, string[]> = {};
    for (const { table_name: table } of rows) {
      if (table.startsWith('knex_') || (!counted && table === 'rate_limits')) continue;
      all[table] = ((await db(table).select()) as unknown[]).map((row) => JSON.stringify(row)).sort();
    }
    return all;
  }
  /** What a request could change: the database, and the Demo Wallet account's transactions. */
  const everything = async (counted = true) => ({
    db: await snapshot(counted),
    demoWalletTransactions: await testChain.provider.getTransactionCount(DEMO_WALLET_ACCOUNT),
  });

  const send = (method: string, sent: Sent, headers: Record<string, string>) =>
    w.h.api(sent.path, {
      method,
      headers: { ...(sent.body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      body: sent.body === undefined ? undefined : JSON.stringify(sent.body),
    });
  const victimCookies = () => ({ cookie: [w.victim.cookie, w.adminCookie].filter(Boolean).join('; ') });

  it('knows every route that may change something: each is refused from other sites, or allowed with a reason', () => {
    const routes = declaredRoutes(w.h);
    // OPTIONS changes nothing (a CORS preflight): like GET, never refused for where it comes from.
    const writes = routes.filter((r) => !r.startsWith('GET ') && !r.startsWith('OPTIONS '));
    const allowed = CROSS_SITE_WRITES_ALLOWED.map((a) => `${a.method} ${a.path}`);
    expect(
      writes.filter((r) => !(r in WRITES) && !allowed.includes(r)),
      'routes with no row in WRITES',
    ).toEqual([]);
    // And nothing here is stale: each row is a route the app has.
    expect(
      [...Object.keys(WRITES), ...allowed].filter((r) => !writes.includes(r)),
      'rows of no route',
    ).toEqual([]);
    expect(Object.keys(READS_THAT_WRITE)).toEqual(CROSS_SITE_READS_REFUSED.map((r) => `GET ${r.path}`));
    expect(Object.keys(READS_THAT_WRITE).filter((r) => !routes.includes(r))).toEqual([]);
    for (const a of [...CROSS_SITE_WRITES_ALLOWED, ...CROSS_SITE_READS_REFUSED]) expect(a.why.length).toBeGreaterThan(20);
  });

  it.each(Object.entries({ ...WRITES, ...READS_THAT_WRITE }))(
    '%s: refused from another site, with the cookies or without, changing nothing; the shop’s own page gets through',
    async (route, write) => {
      const method = route.split(' ')[0]!;
      await write.prepare?.(w);
      const sent = await write.send(w);
      const before = await everything();
      for (const headers of FOREIGN) {
        for (const cookies of [victimCookies(), {}]) {
          const res = await send(method, sent, { ...cookies, ...headers });
          expect(res.status, `${JSON.stringify(headers)} ${JSON.stringify(cookies)}`).toBe(403);
          expect((await res.json()).code).toBe(ErrorCode.crossSiteRequest);
          expect(res.headers.get('set-cookie')).toBeNull();
        }
      }
      expect(await everything()).toEqual(before);

      const uncounted = await everything(false);
      const res = await send(method, sent, { ...victimCookies(), ...w.sameSite });
      expect(res.status, await res.clone().text()).toBe(write.sameSiteStatus);
      if (write.changes) expect(await everything(false)).not.toEqual(uncounted);
      else expect(await everything(false)).toEqual(uncounted);
      // A request with neither header (curl, another server) is not a browser's: it passes too.
      const bare = await send(method, sent, victimCookies());
      expect(bare.status).not.toBe(403);
      if (route === 'POST /api/admin/logout') w.adminCookie = await adminLogin(w);
    },
  );

  it("lets other sites read what is not the admin's, changing nothing; the admin's reads and the nonce are refused", async () => {
    await w.victim.signIn(testChain.provider, ALICE);
    const params: Record<string, string> = { id: (await w.h.catalogue.list()).products[0]!.id, transferId: randomUUID() };
    const reads = declaredRoutes(w.h).filter((r) => r.startsWith('GET '));
    expect(reads.length).toBeGreaterThan(20);
    const before = await everything();
    for (const route of reads) {
      const path =
        route.slice('GET '.length).replace(/:(\w+)/g, (_m, name: string) => params[name] ?? randomUUID()) + (READ_QUERIES[route] ?? '');
      for (const headers of FOREIGN) {
        const res = await w.h.api(path, { headers: { ...victimCookies(), ...headers } });
        if (sameOriginRead(route)) {
          expect(res.status, `${route} ${JSON.stringify(headers)}`).toBe(403);
          expect((await res.json()).code).toBe(ErrorCode.crossSiteRequest);
        } else {
          expect(res.status, `${route} ${JSON.stringify(headers)}`).not.toBe(403);
          await res.arrayBuffer();
        }
      }
    }
    expect(await everything()).toEqual(before);
  });

  it('takes Shopify’s webhooks from anywhere: server to server, each checked against its signature', async () => {
    const res = await send(
      'POST',
      { path: '/api/webhooks/shopify', body: { id: 1 } },
      { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' },
    );
    expect(res.status).toBe(401);
    expect((await res.json()).code).toBe(ErrorCode.webhookUnauthorized);
  });

  it('refuses other sites whatever the method or the spelling of the path', async () => {
    for (const [method, path] of [
      ['POST', '/API/Cart/Add/'],
      ['PUT', '/api/cart/add'],
      ['PROPFIND', '/api/cart'],
      ['POST', '/api/no-such-route'],
    ] as const) {
      const res = await send(method, { path, body: { variantId: w.variantId, quantity: 1 } }, { 'sec-fetch-site': 'cross-site' });
      expect(res.status, `${method} ${path}`).toBe(403);
    }
    // Typed in or bookmarked (Sec-Fetch-Site: none) is the shopper's own doing.
    const typed = await send(
      'POST',
      { path: '/api/cart/add', body: { variantId: w.variantId, quantity: 1 } },
      {
        ...victimCookies(),
        'sec-fetch-site': 'none',
      },
    );
    expect(typed.status).toBe(200);
  });
});
