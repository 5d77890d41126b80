/**
 * Who paid a transfer, recorded with it and used by refunds, on a real chain (anvil) and each
 * database. A plain transfer's sender is its payer; a transfer from one of the route's pools is
 * paid by whoever the chain proves, and one whose payer it does not prove is never refunded to
 * the pool it came from. A chain that does not give the transaction leaves the transfer for the
 * next pass, recorded nowhere meanwhile.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getAddress } from 'ethers';
import { ErrorCode } from '../../../common/errors';
import { attentionItemSchema } from '../../../common/payments-desk';
import { DEV_ACCOUNTS } from '../../chain/local-chain';
import { testDatabaseKinds } from '../../test/databases';
import { startHarness, type Harness } from '../../test/harness';
import { payingKit, startPayingShop, type PayingKit } from '../../test/paying';
import { Shopper } from '../../test/shopper';
import { useTestChain } from '../../test/use-test-chain';
import { lookUpPaidWith, type PayerLookups } from './payer-lookup';
import type { SwapFacts } from './swap-payer';

const STORE = DEV_ACCOUNTS[0]!;
const PAYER = DEV_ACCOUNTS[1]!;
/** Funds the pool's stand-in with POG. */
const FUNDER = DEV_ACCOUNTS[2]!;
/**
 * Anvil's account #5 stands for a route's pool (funded by FUNDER): its POGS to the store comes by a
 * plain token call, through neither the router nor the EntryPoint.
 */
const POOL = '0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc';
const POG = 10n ** 18n;
const swap: SwapFacts = {
  router: '0x14dc79964da2c08b23698b3d3cc7ca32193d9955', // anvil's account #7
  entryPoints: ['0x0000000071727de22e5e9d8baf0edac6f37da032'],
  pools: [POOL.toLowerCase()],
  usdc: `0x${'dc'.repeat(20)}`,
  weth: `0x${'e7'.repeat(20)}`,
};
const testChain = useTestChain();

describe.each(testDatabaseKinds)('who paid a transfer, on %s', (kind) => {
  let h: Harness;
  let pay: PayingKit;
  let admin: string;

  beforeAll(async () => {
    ({ h, pay, admin } = await startPayingShop(kind, testChain, { swap }));
    await pay.send(FUNDER, { value: 100n * POG, to: POOL });
  });
  afterAll(async () => {
    await h?.close();
  });

  const asAdmin = (path: string, init: RequestInit = {}) =>
    h.api(path, { ...init, headers: { cookie: admin, 'content-type': 'application/json', ...init.headers } });
  const itemOf = async (transferId: unknown) => {
    const res = await asAdmin(`/api/admin/payments/${String(transferId)}`);
    expect(res.status).toBe(200);
    return attentionItemSchema.parse(await res.json());
  };

  it('records a plain transfer’s sender as its payer, in POGS, and refunds go to them', async () => {
    const hash = await pay.send(PAYER, { value: 3n * POG + 7n });
    await h.payments!.watcher.tick();
    const row = await pay.transferRow(hash);
    expect(row).toMatchObject({
      from_address: PAYER.toLowerCase(),
      payer_address: PAYER.toLowerCase(),
      paid_with: 'POGS',
      amount_in: null,
    });
    const item = await itemOf(row!.id);
    expect(item).toMatchObject({
      paidWith: { coin: 'POGS', amountIn: null, payer: PAYER.toLowerCase() },
      refundTo: getAddress(PAYER),
    });
    const prepared = await asAdmin(`/api/admin/payments/${item.transferId}/prepare-refund`, {
      method: 'POST',
      body: JSON.stringify({ amount: '1' }),
    });
    expect(prepared.status).toBe(200);
  });

  it('refuses to refund a transfer from a route pool whose payer the chain does not prove, and records nothing', async () => {
    const hash = await pay.send(POOL, { value: 5n * POG + 11n });
    await h.payments!.watcher.tick();
    const row = await pay.transferRow(hash);
    // Sent by a plain call of the token (neither the router nor the EntryPoint): the pool is never taken as the payer.
    expect(row).toMatchObject({ from_address: POOL.toLowerCase(), payer_address: null, paid_with: 'swap', amount_in: null });
    const item = await itemOf(row!.id);
    expect(item).toMatchObject({ sender: POOL.toLowerCase(), paidWith: { coin: 'swap', amountIn: null, payer: null }, refundTo: null });

    const prepared = await asAdmin(`/api/admin/payments/${item.transferId}/prepare-refund`, {
      method: 'POST',
      body: JSON.stringify({ amount: '5' }),
    });
    expect(prepared.status).toBe(409);
    const refusal = (await prepared.json()) as { code: string; message: string };
    expect(refusal.code).toBe(ErrorCode.refundPayerUnknown);
    expect(refusal.message).toMatch(/will not send POGS to a pool or a router.*by hand/);
    expect((await pay.transferRow(hash))!.refund_hold_until).toBeNull();

    // The store wallet sends it to the pool anyway: that is not recorded as this payment's refund.
    const toPool = await pay.send(STORE, { value: 5n * POG + 11n, to: POOL });
    const recorded = await asAdmin(`/api/admin/payments/${item.transferId}/refund`, {
      method: 'POST',
      body: JSON.stringify({ transactionHash: toPool, amount: '5.000000000000000011' }),
    });
    expect(recorded.status).toBe(409);
    expect(((await recorded.json()) as { code: string }).code).toBe(ErrorCode.refundPayerUnknown);
    expect(await h.database.db('refunds').where({ transfer_id: row!.id })).toEqual([]);
    expect(await itemOf(row!.id)).toEqual({ ...item, confirmations: expect.any(Number) });
  });

  it('a stranger gets nothing: no admin session, no refund route', async () => {
    const row = await h.database.db('chain_transfers').where({ from_address: POOL.toLowerCase() }).first('id');
    const res = await h.api(`/api/admin/payments/${String(row.id)}/prepare-refund`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ amount: '5' }),
    });
    expect(res.status).toBe(401);
  });
});

/** An RPC in front of anvil that relays every call, or holds those of the methods named (never answered). */
async function startRelay(upstream: string) {
  let held = new Set<string>();
  const asked = new Map<string, number>();
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const body = Buffer.concat(chunks);
      const { method } = JSON.parse(body.toString()) as { method: string };
      asked.set(method, (asked.get(method) ?? 0) + 1);
      if (held.has(method)) return;
      const answer = await fetch(upstream, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      res.writeHead(answer.status, { 'content-type': 'application/json' });
      res.end(await answer.text());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hold: (...methods: string[]) => void (held = new Set(methods)),
    /** How many times `method` was asked for so far. */
    asked: (method: string) => asked.get(method) ?? 0,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections(); // the held calls' connections too
        server.close(() => resolve());
      }),
  };
}

describe('a chain that does not give the swap’s transaction', () => {
  let h: Harness;
  let pay: PayingKit;
  let relay: Awaited<ReturnType<typeof startRelay>>;

  beforeAll(async () => {
    relay = await startRelay(testChain.chain.rpcUrl);
    h = await startHarness('pglite', { chain: testChain.chain, chainRpc: { rpcUrl: relay.url, timeoutMs: 1000 }, swap });
    pay = payingKit(h, testChain);
    await pay.send(FUNDER, { value: 100n * POG, to: POOL });
  });
  afterAll(async () => {
    await h?.close();
    await relay?.close();
  });

  it('leaves the transfer for the next pass, recorded nowhere meanwhile; a plain transfer before it is kept', async () => {
    const plain = await pay.send(PAYER, { value: 2n * POG + 3n });
    const fromPool = await pay.send(POOL, { value: 4n * POG + 9n });
    relay.hold('eth_getTransactionByHash');
    await expect(h.payments!.watcher.tick()).rejects.toThrow(/timeout/);
    expect(await pay.transferRow(plain)).toMatchObject({ payer_address: PAYER.toLowerCase(), paid_with: 'POGS' });
    expect(await pay.transferRow(fromPool)).toBeUndefined();

    relay.hold();
    await h.payments!.watcher.tick();
    expect(await pay.transferRow(fromPool)).toMatchObject({ payer_address: null, paid_with: 'swap', from_address: POOL.toLowerCase() });
    // Scanned again from the same range: the plain transfer is still recorded once.
    expect(await h.database.db('chain_transfers').where({ tx_hash: plain.toLowerCase() })).toHaveLength(1);
  });

  it('asks once per transaction in a pass, and judges nothing from a receipt that does not hold the transfer as it was read', async () => {
    const hash = await pay.send(POOL, { value: 3n * POG + 1n });
    const receipt = (await h.payments!.chain.receipt(hash))!;
    const log = receipt.logs.find((l) => l.address.toLowerCase() === h.payments!.target.tokenAddress.toLowerCase())!;
    const transfer = { txHash: hash, logIndex: log.logIndex, from: POOL.toLowerCase(), value: 3n * POG + 1n, blockHash: log.blockHash };
    const lookups: PayerLookups = new Map();
    const before = relay.asked('eth_getTransactionByHash');
    expect(await lookUpPaidWith(h.payments!.chain, swap, transfer, lookups)).toEqual({ coin: 'swap', amountIn: null, payer: null });
    await lookUpPaidWith(h.payments!.chain, swap, transfer, lookups);
    expect(relay.asked('eth_getTransactionByHash') - before).toBe(1);
    await lookUpPaidWith(h.payments!.chain, swap, transfer, new Map());
    expect(relay.asked('eth_getTransactionByHash') - before).toBe(2);
    // Read from another fork (its block), at another place, or of another amount: asked again later.
    for (const other of [{ blockHash: '0x' + '11'.repeat(32) }, { logIndex: log.logIndex + 1 }, { value: 3n * POG }]) {
      await expect(lookUpPaidWith(h.payments!.chain, swap, { ...transfer, ...other })).rejects.toThrow(/does not hold its transfer/);
    }
  });

  it("the shopper's page asking for the order meanwhile is told to ask again (202), and nothing is recorded: no order with the pool as its wallet", async () => {
    await h.catalogue.sync();
    await h.catalogue.seedDemoPrices();
    const variant = (await h.catalogue.list()).products.flatMap((p) => p.variants).find((v) => !v.isSoldOut && v.availableStock > 0)!;
    const s = new Shopper(h);
    const c = await pay.checkout(s, variant.id, null);
    await pay.send(FUNDER, { value: BigInt(c.amountWei), to: POOL });
    const fromPool = await pay.send(POOL, { value: BigInt(c.amountWei) });
    relay.hold('eth_getTransactionByHash');
    try {
      const res = await s.post('/api/orders/create', { checkoutId: c.id, transactionHash: fromPool });
      expect({ status: res.status, code: ((await res.json()) as { code?: string }).code }).toEqual({
        status: 202,
        code: ErrorCode.awaitingConfirmations,
      });
      expect(await pay.transferRow(fromPool)).toBeUndefined();
      expect(await pay.ordersFor(fromPool)).toEqual([]);
    } finally {
      relay.hold();
    }
  });
});
