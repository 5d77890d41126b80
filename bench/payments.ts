/**
 * Payment benchmarks (`npm run bench:payments`), on a local anvil chain and loopback HTTP:
 *  1. latency from a transfer's block to its order row, when the shopper's tab died (the chain
 *     watcher finds it, polling every CHAIN_POLL_INTERVAL_MS) and when the shopper's browser
 *     reports it (POST /api/orders/create right after the receipt);
 *  2. orders per second when many shoppers pay at once: N checkouts, N transfers mined in one
 *     block, then (a) the watcher settling them all, (b) N concurrent POST /api/orders/create.
 * Printed as Markdown rows for bench/README.md.
 */
import { performance } from 'node:perf_hooks';
import { startHarness, type Harness } from '../server/test/harness';
import { Shopper } from '../server/test/shopper';
import { DEV_ACCOUNTS } from '../server/chain/local-chain';
import { sendTokenTransfer, startTestChain } from '../server/test/chain';
import { bumpCatalogueVersion } from '../server/modules/catalogue';
import { checkoutSchema, type Checkout } from '../common/api';
import { mined } from '../server/chain/mined';

const DB = (process.env.BENCH_DB ?? 'pglite') as 'pglite' | 'postgres';
const LATENCY_SAMPLES = Number(process.env.BENCH_LATENCY_SAMPLES ?? 10);
const SHOPPERS = Number(process.env.BENCH_SHOPPERS ?? 100);
const POLL_MS = Number(process.env.CHAIN_POLL_INTERVAL_MS ?? 1000);
const BUYER = DEV_ACCOUNTS[2]!;

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!.toFixed(0);
};

async function main() {
  const testChain = await startTestChain();
  const { chain, provider } = testChain;
  let h: Harness | undefined;
  try {
    h = await startHarness(DB, { chain, env: { CHAIN_POLL_INTERVAL_MS: String(POLL_MS), REQUIRED_CONFIRMATIONS: '1' } });
    const harness = h;
    await harness.catalogue.sync();
    await harness.catalogue.seedDemoPrices();
    const variant = (await harness.catalogue.list()).products.flatMap((p) => p.variants).find((v) => !v.isSoldOut)!;
    await harness.database.db('variants').where({ shopify_id: variant.id }).update({ available_stock: null, inventory_quantity: null });
    await bumpCatalogueVersion(harness.database.db);
    const payments = harness.payments!;
    let nonce = await provider.getTransactionCount(BUYER, 'pending');

    const newCheckout = async (): Promise<{ s: Shopper; c: Checkout }> => {
      const s = new Shopper(harness);
      await s.add({ variantId: variant.id, quantity: 1 });
      const res = await s.post('/api/checkout', { customerWallet: BUYER });
      if (res.status !== 201) throw new Error(`checkout failed: ${res.status} ${await res.text()}`);
      return { s, c: checkoutSchema.parse(await res.json()) };
    };
    const pay = (c: Checkout) =>
      sendTokenTransfer(provider, BUYER, { token: c.tokenAddress, to: c.storeWallet, value: BigInt(c.amountWei), nonce: nonce++ });
    const orderRow = (hash: string) => harness.database.db('orders').where({ tx_hash: hash.toLowerCase() }).first('id');

    // 1a. The tab died: the watcher (polling) makes the order.
    payments.watcher.start();
    const watcherLatency: number[] = [];
    for (let i = 0; i < LATENCY_SAMPLES; i++) {
      const { c } = await newCheckout();
      const tx = await pay(c);
      await mined(tx);
      const t0 = performance.now();
      while (!(await orderRow(tx.hash))) await new Promise((r) => setTimeout(r, 5));
      watcherLatency.push(performance.now() - t0);
    }
    await payments.watcher.stop();

    // 1b. The browser reports the hash right after the receipt.
    const reportLatency: number[] = [];
    for (let i = 0; i < LATENCY_SAMPLES; i++) {
      const { s, c } = await newCheckout();
      const tx = await pay(c);
      await mined(tx);
      const t0 = performance.now();
      const res = await s.post('/api/orders/create', { checkoutId: c.id, transactionHash: tx.hash, customerWallet: BUYER });
      if (res.status !== 201) throw new Error(`create failed: ${res.status} ${await res.text()}`);
      reportLatency.push(performance.now() - t0);
    }

    // 2. Many shoppers at once: checkouts, then all transfers mined in one block.
    const burst = async () => {
      const made: Array<{ s: Shopper; c: Checkout }> = [];
      const t0 = performance.now();
      for (let i = 0; i < SHOPPERS; i += 10)
        made.push(...(await Promise.all(Array.from({ length: Math.min(10, SHOPPERS - i) }, newCheckout))));
      const checkoutMs = performance.now() - t0;
      await provider.send('evm_setAutomine', [false]);
      const txs = [];
      for (const m of made) txs.push(await pay(m.c));
      await provider.send('evm_mine', []);
      await provider.send('evm_setAutomine', [true]);
      await Promise.all(txs.map((t) => mined(t)));
      return { made, hashes: txs.map((t) => t.hash), checkoutsPerSecond: (SHOPPERS / checkoutMs) * 1000 };
    };

    const a = await burst();
    let t0 = performance.now();
    const tick = await payments.watcher.tick();
    const watcherSeconds = (performance.now() - t0) / 1000;
    if (tick.orders !== SHOPPERS) throw new Error(`watcher made ${tick.orders} orders, expected ${SHOPPERS}`);

    const b = await burst();
    t0 = performance.now();
    const statuses = await Promise.all(
      b.made.map(({ s, c }, i) =>
        s.post('/api/orders/create', { checkoutId: c.id, transactionHash: b.hashes[i], customerWallet: BUYER }).then((r) => r.status),
      ),
    );
    const httpSeconds = (performance.now() - t0) / 1000;
    if (statuses.some((st) => st !== 201)) throw new Error(`unexpected statuses ${[...new Set(statuses)].join(',')}`);

    console.log(
      `\n### ${new Date().toISOString().slice(0, 10)}, ${DB}, watcher poll ${POLL_MS} ms, ${LATENCY_SAMPLES} samples, ${SHOPPERS} shoppers\n`,
    );
    console.log('| measure | result |\n|---|---|');
    console.log(`| receipt → order row, watcher (tab died) | p50 ${pct(watcherLatency, 50)} ms, max ${pct(watcherLatency, 100)} ms |`);
    console.log(`| receipt → order, POST /api/orders/create | p50 ${pct(reportLatency, 50)} ms, max ${pct(reportLatency, 100)} ms |`);
    console.log(`| checkouts created (10 at a time) | ${a.checkoutsPerSecond.toFixed(0)} /s |`);
    console.log(
      `| ${SHOPPERS} transfers in one block → orders, one watcher tick | ${(SHOPPERS / watcherSeconds).toFixed(0)} orders/s (${(watcherSeconds * 1000).toFixed(0)} ms) |`,
    );
    console.log(
      `| ${SHOPPERS} concurrent POST /api/orders/create | ${(SHOPPERS / httpSeconds).toFixed(0)} orders/s (${(httpSeconds * 1000).toFixed(0)} ms) |`,
    );
  } finally {
    await h?.payments?.watcher.stop();
    await h?.close();
    await testChain.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
