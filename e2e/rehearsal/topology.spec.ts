/**
 * The deploy topology (docker-compose: Postgres, two app instances, a TLS proxy), proven with
 * processes: two instances of the production set on one fresh database, each started with plain
 * node and the world's live settings, behind a proxy that checks their readiness (proxy.ts). The
 * world's chain, token and Shopify emulator are shared. Shoppers are plain HTTP clients with their
 * own cookies and addresses; no browser is needed.
 *
 *  - SIGTERM one instance with an admin login in flight: the login is answered, the instance stops
 *    being ready, exits 0 within its grace and says it shut down; the proxy keeps answering from
 *    the other instance, which takes over the chain watcher. Then it starts again.
 *  - SIGKILL the instance holding the chain watcher's lock while shoppers pay: every paid transfer
 *    makes exactly one order (read from the database), whether its shopper asked for the order or
 *    its tab died, and the survivor's log shows it settling what the dead one never saw.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { JsonRpcProvider, Wallet } from 'ethers';
import pg from 'pg';
import { expect, test } from '../fixtures/test';
import type { InventoryItem } from '../../common/admin';
import type { Checkout, Order, Product } from '../../common/api';
import { BASE_CHAIN_ID } from '../../common/chain';
import { freePort } from '../../server/chain/local-chain';
import { sendTokenTransfer } from '../../server/test/chain';
import { startProxy, type Proxy } from './proxy';
import { httpRequest, Visitor, type HttpAnswer } from './visitor';
import { createDatabase, keepLog, liveStartLine, readLog, SHOPPER_ACCOUNT, startShop, worldFacts, type ShopProcess } from './world';
import { receiptOf } from '../../server/chain/mined';

const world = worldFacts();
/** SHUTDOWN_GRACE_MS of both instances. */
const GRACE_MS = 10_000;
const PRICE = '7.25';
const SHOPPERS = 8;
/** The chain watcher's leader lock (WATCHER_LOCK in server/modules/payments/watcher.ts: "PAY!"), a two-key advisory lock. */
const WATCHER_LOCK_KEY = 0x50415921;

const say = (line: string) => console.log(`  · ${line}`);
const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Instance {
  name: string;
  port: number;
  log: string;
  process: ShopProcess | null;
}

/** A log's lines with this message. */
const linesOf = (instance: Instance, msg: string) => readLog(instance.log).filter((l) => l.msg === msg);

/** Polls `probe` every `everyMs` until it answers something other than undefined, or throws after `timeoutMs`. */
async function until<T>(what: string, timeoutMs: number, probe: () => Promise<T | undefined>, everyMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await probe();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await sleep(everyMs);
  }
}

function json<T>(answer: HttpAnswer, expected: number | number[]): T {
  const statuses = Array.isArray(expected) ? expected : [expected];
  expect(statuses, `HTTP ${answer.status}: ${answer.body}`).toContain(answer.status);
  return JSON.parse(answer.body) as T;
}

/** GETs through the proxy, one after another, until stopped: what a shopper browsing meanwhile would see. */
function keepBrowsing(proxy: Proxy) {
  const answers: Array<{ path: string; status: number | string }> = [];
  let going = true;
  const done = (async () => {
    const visitor = new Visitor(proxy.url, { localAddress: '127.0.0.9' });
    for (let i = 0; going; i++) {
      const route = ['/api/products', '/api/config', '/api/cart'][i % 3]!;
      const status = await visitor.get(route).then(
        (a) => a.status,
        (err: NodeJS.ErrnoException) => err.code ?? err.message,
      );
      answers.push({ path: route, status });
      await sleep(50);
    }
  })();
  return {
    async stop() {
      going = false;
      await done;
      return answers;
    },
  };
}

test('topology: two instances behind a proxy survive a SIGTERM and a SIGKILL, every payment one order', async () => {
  test.setTimeout(180_000);
  const cleanups: Array<() => Promise<void>> = [];
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'pogs-topology-'));
  cleanups.push(async () => fs.rmSync(tmp, { recursive: true, force: true }));
  try {
    const databaseUrl = await createDatabase(world.databaseServerUrl, cleanups);
    const db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    cleanups.push(() => db.end());

    const [proxyPort, portA, portB] = [await freePort(), await freePort(), await freePort()];
    const proxy = await startProxy({
      port: proxyPort,
      upstreams: [
        { name: 'a', port: portA },
        { name: 'b', port: portB },
      ],
    });
    cleanups.push(() => proxy.stop());
    const instances: Instance[] = [
      { name: 'a', port: portA, log: path.join(tmp, 'a.log'), process: null },
      { name: 'b', port: portB, log: path.join(tmp, 'b.log'), process: null },
    ];
    const byName = (name: string) => instances.find((i) => i.name === name)!;
    /** The proxy's view of an instance (its health, the requests it answered). */
    const upstreamOf = (instance: Instance) => proxy.upstreams.find((u) => u.name === instance.name)!;
    for (const instance of instances) {
      cleanups.push(async () => {
        await instance.process?.stop();
        keepLog(instance.log, `rehearsal-topology-${instance.name}.log`);
      });
    }
    // A deployment of its own: its own store wallet (a fresh address), since the world's shop
    // watches the world's store wallet on the same chain and would record these payments too.
    const storeWallet = Wallet.createRandom().address;
    const launch = async (instance: Instance) => {
      // Each instance's connections say which it is (application_name), so the holder of the
      // watcher's lock can be named; every other setting but PORT is the same.
      const url = new URL(databaseUrl);
      url.searchParams.set('application_name', `pogs-${instance.name}`);
      instance.process = await startShop(world.stageDir, {
        env: {
          ...world.liveSettings,
          PORT: String(instance.port),
          PUBLIC_URL: proxy.url,
          TRUSTED_PROXY_HOPS: '1',
          DATABASE_URL: url.toString(),
          STORE_WALLET_ADDRESS: storeWallet,
          SHUTDOWN_GRACE_MS: String(GRACE_MS),
        },
        logFile: instance.log,
      });
    };
    /** The instance whose connection holds the chain watcher's lock, if any holds it. */
    const leader = async (): Promise<string | undefined> => {
      const { rows } = await db.query<{ name: string }>(
        `select a.application_name as name from pg_locks l join pg_stat_activity a on a.pid = l.pid
          where l.locktype = 'advisory' and l.granted and l.objsubid = 2 and l.objid = $1::oid
            and l.database = (select oid from pg_database where datname = current_database())`,
        [WATCHER_LOCK_KEY],
      );
      return rows[0]?.name.replace(/^pogs-/, '');
    };
    const leaderIs = (name: string, timeoutMs: number) =>
      until(`the chain watcher's lock held by ${name}`, timeoutMs, async () => ((await leader()) === name ? true : undefined));

    await test.step('two production instances start together on one fresh database, behind a proxy checking their readiness', async () => {
      const began = Date.now();
      await Promise.all(instances.map(launch));
      await Promise.all(instances.map((i) => proxy.waitFor(i.name, true)));
      say(`database: ${new URL(databaseUrl).pathname.slice(1)}, shared by both instances (dropped at the end)`);
      say(`instances a (:${portA}) and b (:${portB}) started together and are ready in ${Date.now() - began} ms, behind ${proxy.url}`);
      for (const instance of instances) expect(liveStartLine(instance.log), `instance ${instance.name}'s start line`).toBeTruthy();
      // One of them migrated the fresh database; the other waited for it and found nothing to do.
      const migrated = instances.filter((i) => linesOf(i, 'database migrated').length > 0);
      expect(migrated.map((i) => i.name)).toHaveLength(1);
      say(`instance ${migrated[0]!.name} migrated the database; the other waited for the migration lock`);
      for (let i = 0; i < 6; i++) expect(json<{ mode: string }>(await httpRequest(`${proxy.url}/api/config`), 200).mode).toBe('live');
      for (const instance of instances) expect(upstreamOf(instance).answered, `requests answered by ${instance.name}`).toBeGreaterThan(0);
      const lead = await until("a holder of the chain watcher's lock", 15_000, leader);
      say(`instance ${lead} holds the chain watcher's lock (one watcher per database)`);
    });

    const first = byName((await leader())!);
    const second = instances.find((i) => i !== first)!;

    await test.step(`SIGTERM instance ${first.name} (the watcher's leader) with an admin login in flight: answered, unready, exits 0, the proxy answers from ${second.name}`, async () => {
      const browsing = keepBrowsing(proxy);
      await sleep(300);
      const sentAt = Date.now();
      const login = httpRequest(`http://127.0.0.1:${first.port}/api/admin/login`, {
        method: 'POST',
        json: { password: world.adminPassword },
        headers: { origin: proxy.url },
      }).then(
        (answer) => ({ answer, at: Date.now() }),
        (err: NodeJS.ErrnoException) => ({ error: err.code ?? err.message, at: Date.now() }),
      );
      await sleep(100 + Math.floor(Math.random() * 200));
      const answeredBefore = upstreamOf(first).answered;
      const termAt = Date.now();
      process.kill(first.process!.pid, 'SIGTERM');
      const exited = first.process!.exited.then((result) => ({ ...result, at: Date.now() }));

      // Readiness from outside: the first answer (or refusal) that is not "ready".
      const unready = await until(
        'readiness other than 200',
        2_000,
        async () => {
          const outcome = await httpRequest(`http://127.0.0.1:${first.port}/api/health/ready`, { timeoutMs: 2_000 }).then(
            (a) => a.status,
            (err: NodeJS.ErrnoException) => err.code ?? err.message,
          );
          return outcome === 200 ? undefined : { outcome, at: Date.now() };
        },
        20,
      );
      // Not ready: a 503, or no connection at all (a refused or reset one).
      expect([503, 'ECONNREFUSED', 'ECONNRESET']).toContain(unready.outcome);
      say(
        `SIGTERM sent ${termAt - sentAt} ms after the login; ${first.name}'s readiness answered ${unready.outcome} ${unready.at - termAt} ms later`,
      );

      const answered = await login;
      expect('answer' in answered ? answered.answer.status : answered.error, 'the login in flight is answered').toBe(200);
      const { answer } = answered as { answer: HttpAnswer };
      expect(JSON.parse(answer.body)).toMatchObject({ authenticated: true });
      expect(answer.headers.connection).toBe('close');
      say(`the login in flight was answered 200 ${answered.at - termAt} ms after the SIGTERM, with Connection: close`);

      const { code, signal, at } = await Promise.race([
        exited,
        sleep(GRACE_MS + 5_000).then(() => ({ code: null, signal: null, at: NaN })),
      ]);
      expect({ code, signal }, `instance ${first.name}'s exit`).toEqual({ code: 0, signal: null });
      expect(at - termAt).toBeLessThan(GRACE_MS);
      expect(linesOf(first, 'shut down'), `instance ${first.name}'s log says it shut down`).toHaveLength(1);
      say(`instance ${first.name} exited 0 ${at - termAt} ms after the SIGTERM (grace ${GRACE_MS} ms); its log says "shut down"`);

      await leaderIs(second.name, 10_000);
      say(`instance ${second.name} took over the chain watcher's lock`);
      await sleep(500);
      const browsed = await browsing.stop();
      expect(browsed.filter((b) => b.status !== 200)).toEqual([]);
      // The instance shutting down answers what reaches it until the proxy's health check takes it
      // out (it stays open, unready, for SHUTDOWN_DELAY_MS); nothing meets a closed or reset door.
      say(
        `${browsed.length} requests through the proxy meanwhile, all answered 200 (${upstreamOf(first).answered - answeredBefore} by ${first.name} while it was unready, the rest by ${second.name})`,
      );
    });

    await test.step(`instance ${first.name} starts again and the proxy sends it requests again`, async () => {
      await launch(first);
      await proxy.waitFor(first.name, true);
      const before = upstreamOf(first).answered;
      for (let i = 0; i < 4; i++) json(await httpRequest(`${proxy.url}/api/config`), 200);
      expect(upstreamOf(first).answered).toBeGreaterThan(before);
      expect(await leader(), 'the watcher stays where it is').toBe(second.name);
    });

    let variant!: InventoryItem;
    await test.step(`an admin prices a variant at ${PRICE} POG through the admin API, behind the proxy`, async () => {
      const admin = new Visitor(proxy.url, { localAddress: '127.0.0.10' });
      json(await admin.post('/api/admin/login', { password: world.adminPassword }), 200);
      variant = await until('a synced catalogue', 30_000, async () => {
        const inventory = json<InventoryItem[]>(await admin.get('/api/inventory'), 200);
        const singles = inventory.filter((v) => inventory.filter((o) => o.productId === v.productId).length === 1);
        return singles.find((v) => v.sku && v.productStatus === 'ACTIVE' && (v.quantity ?? 0) > 5 && !v.isActive);
      });
      json(
        await admin.patch(`/api/inventory/${encodeURIComponent(variant.id)}/update`, {
          pogPrice: PRICE,
          isActive: true,
          availableStock: 100,
        }),
        200,
      );
      // Both instances list it (each asks the database again after its catalogue changed).
      await until('the product listed by both instances', 15_000, async () => {
        for (let i = 0; i < 2; i++) {
          const products = json<Product[]>(await httpRequest(`${proxy.url}/api/products`), 200);
          if (!products.some((p) => p.variants.some((v) => v.id === variant.id))) return undefined;
        }
        return true;
      });
      say(`${variant.title} (${variant.sku}) is for sale at ${PRICE} POG, 100 in stock`);
    });

    // Shoppers come from their own addresses (127.0.0.11 …), each writing an X-Forwarded-For of its
    // own that the instances must not believe: they trust only the entry the proxy appends.
    const payers = world.tokenHolders.filter((a) => a !== SHOPPER_ACCOUNT);
    const shoppers = Array.from({ length: SHOPPERS }, (_, i) => ({
      visitor: new Visitor(proxy.url, { localAddress: `127.0.0.${11 + i}`, headers: { 'x-forwarded-for': `203.0.113.${1 + i}` } }),
      address: `127.0.0.${11 + i}`,
      payer: payers[i % payers.length]!,
      // Every other shopper's tab dies once the wallet has sent: it never asks for its order.
      asks: i % 2 === 0,
      checkout: null as Checkout | null,
      txHash: null as string | null,
      order: null as Promise<{ order: Order; gatewayErrors: number }> | null,
    }));
    const wave1 = shoppers.slice(0, SHOPPERS / 2);
    const wave2 = shoppers.slice(SHOPPERS / 2);
    const provider = new JsonRpcProvider(world.chainRpc, BASE_CHAIN_ID, { staticNetwork: true, cacheTimeout: -1 });
    provider.pollingInterval = 200;
    cleanups.push(async () => provider.destroy());

    /** What a tab that stays open does: asks for the order until it is made (202: not deep enough yet). */
    const askForOrder = async (shopper: (typeof shoppers)[number]) => {
      let gatewayErrors = 0;
      const deadline = Date.now() + 90_000;
      for (;;) {
        const answer = await shopper.visitor.post('/api/orders/create', {
          checkoutId: shopper.checkout!.id,
          transactionHash: shopper.txHash,
          customerWallet: shopper.payer,
        });
        if (answer.status === 200 || answer.status === 201) return { order: JSON.parse(answer.body) as Order, gatewayErrors };
        if (answer.status === 502 || answer.status === 503) gatewayErrors++;
        else expect(answer.status, answer.body).toBe(202);
        if (Date.now() > deadline) throw new Error(`no order for ${shopper.txHash} within 90 s`);
        await sleep(1_000);
      }
    };
    const pay = async (group: typeof shoppers) => {
      await Promise.all(
        group.map(async (shopper) => {
          const tx = await sendTokenTransfer(provider, shopper.payer, {
            token: world.tokenAddress,
            to: storeWallet,
            value: BigInt(shopper.checkout!.amountWei),
          });
          shopper.txHash = tx.hash.toLowerCase();
          await receiptOf(provider, tx.hash);
          if (shopper.asks) shopper.order = askForOrder(shopper);
        }),
      );
    };

    await test.step(`${SHOPPERS} shoppers open checkouts through the proxy`, async () => {
      await Promise.all(
        shoppers.map(async (shopper) => {
          json(await shopper.visitor.post('/api/cart/add', { variantId: variant.id, quantity: 1 }), 200);
          shopper.checkout = json<Checkout>(await shopper.visitor.post('/api/checkout', { customerWallet: shopper.payer }), 201);
        }),
      );
      expect(new Set(shoppers.map((s) => s.checkout!.amountWei)).size).toBe(SHOPPERS);
    });

    const killed = second;
    const survivor = first;
    await test.step(`half of them pay; instance ${killed.name}, the watcher's leader, is killed (SIGKILL) before their transfers are deep enough`, async () => {
      expect(await leader(), `the watcher's leader before the kill`).toBe(killed.name);
      await pay(wave1);
      process.kill(-killed.process!.pid, 'SIGKILL');
      const head = await provider.getBlockNumber();
      const { signal } = await killed.process!.exited;
      expect(signal).toBe('SIGKILL');
      const mined = await Promise.all(wave1.map(async (s) => (await provider.getTransactionReceipt(s.txHash!))!.blockNumber));
      const depths = [...new Set(mined.map((block) => head - block + 1))].sort().join(' or ');
      const asking = wave1.filter((s) => s.asks).length;
      say(
        `instance ${killed.name} killed with ${wave1.length} transfers ${depths} blocks deep (a live shop counts them at 3 confirmations); ${asking} of those tabs ask for their order, ${wave1.length - asking} died`,
      );
    });

    await test.step(`the other half pay; instance ${survivor.name}'s watcher takes over`, async () => {
      const killedAt = Date.now();
      await proxy.waitFor(killed.name, false);
      await leaderIs(survivor.name, 15_000);
      say(`instance ${survivor.name} holds the chain watcher's lock ${Date.now() - killedAt} ms after the kill`);
      await pay(wave2);
    });

    await test.step('every paid transfer made exactly one order: none twice, none lost', async () => {
      const began = Date.now();
      const hashes = shoppers.map((s) => s.txHash!);
      await until(
        'an order for every paid transfer',
        60_000,
        async () => {
          const { rows } = await db.query('select count(distinct tx_hash)::int as n from orders where tx_hash = any($1)', [hashes]);
          return rows[0].n === SHOPPERS ? true : undefined;
        },
        250,
      );
      say(`all ${SHOPPERS} orders were in the database ${Date.now() - began} ms after the last transfer was mined`);

      const { rows: orders } = await db.query('select id, intent_id, tx_hash, amount_paid_wei, status from orders');
      const { rows: transfers } = await db.query('select tx_hash, status, intent_id, order_id from chain_transfers');
      expect(orders, 'orders in the database: one per paying shopper, nothing else').toHaveLength(SHOPPERS);
      expect(transfers, 'transfers recorded: one per payment').toHaveLength(SHOPPERS);
      for (const shopper of shoppers) {
        const mine = orders.filter((o) => o.tx_hash === shopper.txHash);
        expect(mine, `orders paid by ${shopper.txHash}`).toHaveLength(1);
        expect(mine[0]).toMatchObject({ intent_id: shopper.checkout!.id, amount_paid_wei: shopper.checkout!.amountWei });
        const transfer = transfers.filter((t) => t.tx_hash === shopper.txHash);
        expect(transfer).toEqual([{ tx_hash: shopper.txHash, status: 'matched', intent_id: shopper.checkout!.id, order_id: mine[0].id }]);
      }
      const asked = await Promise.all(shoppers.filter((s) => s.asks).map(async (s) => ({ shopper: s, ...(await s.order!) })));
      for (const { shopper, order } of asked) expect(order.id).toBe(orders.find((o) => o.tx_hash === shopper.txHash).id);
      const lost = asked.reduce((n, a) => n + a.gatewayErrors, 0);
      say(
        `${asked.length} open tabs got their orders (${count(lost, 'request')} died with instance ${killed.name} and asked again); ${SHOPPERS - asked.length} orders were made for tabs that died`,
      );
    });

    await test.step(`instance ${survivor.name}'s log shows it settling the transfers ${killed.name} never saw`, async () => {
      const settled = (instance: Instance) => linesOf(instance, 'payment settled');
      const seenByKilled = new Set(settled(killed).map((l) => l.txHash));
      const unseen = shoppers.filter((s) => !seenByKilled.has(s.txHash));
      expect(unseen.length, `transfers instance ${killed.name} never judged`).toBeGreaterThanOrEqual(wave2.length);
      for (const shopper of shoppers) {
        const judged = [...settled(killed), ...settled(survivor)].filter((l) => l.txHash === shopper.txHash);
        expect(judged, `judgements of ${shopper.txHash} in both logs`).toHaveLength(1);
      }
      for (const shopper of unseen) {
        const line = settled(survivor).find((l) => l.txHash === shopper.txHash);
        expect(line, `instance ${survivor.name} settled ${shopper.txHash}`).toMatchObject({ outcome: 'paid' });
        if (!shopper.asks) expect(line!.via, 'a tab that died: the watcher found it').toBe('watcher');
      }
      const via = unseen.map((s) => settled(survivor).find((l) => l.txHash === s.txHash)!.via);
      say(
        `instance ${survivor.name} settled ${unseen.length} transfers ${killed.name} never saw: ${via.filter((v) => v === 'watcher').length} found by its watcher, ${via.filter((v) => v === 'shopper').length} presented by a shopper`,
      );

      // The rate limits counted each shopper by the address the proxy saw, never by what it wrote.
      const { rows } = await db.query(`select key from rate_limits where key like 'checkout:ip:60:%' order by key`);
      expect(rows.map((r) => r.key.split(':').pop())).toEqual(shoppers.map((s) => s.address).sort());
      say(`the instances counted each shopper by the address the proxy appended to X-Forwarded-For (TRUSTED_PROXY_HOPS=1)`);
      const incidents = proxy.incidents.map((i) => `${i.upstream} ${i.method} ${i.path}: ${i.error} → ${i.outcome}`);
      say(`requests an instance failed to answer through the proxy: ${incidents.length ? incidents.join('; ') : 'none'}`);
    });

    await test.step('Shopify holds one draft order per order, and its signed webhook reaches an instance through the proxy', async () => {
      const ca = fs.readFileSync(world.liveSettings.NODE_EXTRA_CA_CERTS!);
      const emulator = (route: string, body?: unknown) =>
        httpRequest(`${world.shopifyOrigin}/__emulator${route}`, { method: body === undefined ? 'GET' : 'POST', json: body, ca });
      const began = Date.now();
      await until(
        'every order handed to Shopify',
        60_000,
        async () => {
          const { rows } = await db.query('select count(*)::int as n from orders where shopify_draft_order_id is not null');
          return rows[0].n === SHOPPERS ? true : undefined;
        },
        250,
      );
      const { rows: orders } = await db.query('select id from orders order by paid_at');
      const { draftOrders } = json<{ draftOrders: Array<{ id: string; tags: string[] }> }>(await emulator('/draft-orders'), 200);
      for (const { id } of orders)
        expect(
          draftOrders.filter((d) => d.tags.includes(`pogs-order-${id}`)),
          `draft orders of order ${id}`,
        ).toHaveLength(1);
      say(`every order was handed to Shopify ${Date.now() - began} ms later, one draft order each`);

      // Both instances subscribed the proxy's address when they started: Shopify holds it once a topic.
      const webhookUri = `${proxy.url}/api/webhooks/shopify`;
      const hooks = () =>
        emulator('/webhooks').then((a) =>
          json<{ subscriptions: Array<{ topic: string; uri: string }>; deliveries: Array<{ url: string; topic: string; status: string }> }>(
            a,
            200,
          ),
        );
      const subscribed = (await hooks()).subscriptions.filter((sub) => sub.uri === webhookUri).map((sub) => sub.topic);
      expect(subscribed.length, `topics subscribed to ${webhookUri}`).toBeGreaterThan(0);
      expect(new Set(subscribed).size).toBe(subscribed.length);

      // The shopper gives the shipping details on Shopify's page (the emulator's control route does what its form does).
      const order = orders[0].id as string;
      const draft = draftOrders.find((d) => d.tags.includes(`pogs-order-${order}`))!;
      json(await emulator(`/draft-orders/${draft.id.split('/').pop()}/complete`, {}), 200);
      await until(
        'the order confirmed by the webhook',
        20_000,
        async () =>
          (await db.query('select status from orders where id = $1', [order])).rows[0].status === 'confirmed' ? true : undefined,
        250,
      );
      const moved = instances.filter((i) => linesOf(i, 'order moved by a Shopify webhook').some((l) => l.orderId === order));
      expect(moved, 'the instance the webhook reached logged it').toHaveLength(1);
      const deliveries = (await hooks()).deliveries.filter((d) => d.url === webhookUri);
      expect(deliveries.filter((d) => d.status !== 'delivered')).toEqual([]);
      for (const instance of instances)
        expect(
          readLog(instance.log)
            .filter((l) => Number(l.level) >= 50)
            .map((l) => l.msg),
          `errors in ${instance.name}'s log`,
        ).toEqual([]);
      say(
        `Shopify's ${deliveries.map((d) => d.topic).join(' and ')} webhooks reached instance ${moved[0]!.name} through the proxy; the order is confirmed`,
      );
    });
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup().catch((err: unknown) => say(`cleanup failed: ${String(err)}`));
  }
});
