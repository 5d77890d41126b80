import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Koa from 'koa';
import { bodyParser } from '@koa/bodyparser';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEMO_WALLET_ACCOUNT, DEV_ACCOUNTS, startLocalChain, type LocalChain } from './local-chain';
import { demoWalletRoutes } from './demo-wallet';
import { startHarness } from '../test/harness';

// The embedded chain really starts (anvil from npm) and the Demo Wallet acts only as its account.
describe('local chain and Demo Wallet', () => {
  let chain: LocalChain;
  let server: Server;
  let url: string;
  const rpc = async (method: string, params: unknown[] = []) => {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method, params }),
    });
    return res.json();
  };
  const anvil = async (method: string, params: unknown[] = []) =>
    (
      await (
        await fetch(chain.rpcUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
        })
      ).json()
    ).result;

  beforeAll(async () => {
    chain = await startLocalChain({ port: 0 });
    const app = new Koa();
    app.use(bodyParser());
    app.use(demoWalletRoutes({ rpcUrl: chain.rpcUrl, account: DEMO_WALLET_ACCOUNT }).routes());
    server = app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/dev/wallet`;
  });
  afterAll(async () => {
    server?.close();
    await chain?.stop();
  });

  it('runs anvil with Base chain id and funded dev accounts', async () => {
    expect(await anvil('eth_chainId')).toBe('0x2105');
    expect(BigInt(await anvil('eth_getBalance', [DEMO_WALLET_ACCOUNT, 'latest']))).toBeGreaterThan(10n ** 20n);
  });

  it('answers as the demo account and Base only', async () => {
    expect(await rpc('eth_requestAccounts')).toEqual({ jsonrpc: '2.0', id: 7, result: [DEMO_WALLET_ACCOUNT] });
    expect((await rpc('eth_chainId')).result).toBe('0x2105');
    expect((await rpc('wallet_switchEthereumChain', [{ chainId: '0x2105' }])).result).toBeNull();
    expect((await rpc('wallet_switchEthereumChain', [{ chainId: '0x1' }])).error.code).toBe(4902);
    expect((await rpc('anvil_setBalance', [DEV_ACCOUNTS[2], '0x0'])).error.code).toBe(4200);
    expect((await rpc('eth_accounts')).result).toEqual([DEMO_WALLET_ACCOUNT]);
  });

  it('sends transactions only from the demo account, whatever `from` says', async () => {
    const hash = (await rpc('eth_sendTransaction', [{ from: DEV_ACCOUNTS[2], to: DEV_ACCOUNTS[3], value: '0x1' }])).result;
    expect(hash).toMatch(/^0x[0-9a-f]{64}$/);
    const tx = await anvil('eth_getTransactionByHash', [hash]);
    expect(tx.from.toLowerCase()).toBe(DEMO_WALLET_ACCOUNT.toLowerCase());
  });

  it('a chain that does not answer is a wallet error within its time, not a hang', async () => {
    const silent = createServer(() => undefined); // takes the call, never answers
    silent.listen(0, '127.0.0.1');
    await new Promise((r) => silent.once('listening', r));
    const app = new Koa();
    app.use(bodyParser());
    const rpcUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
    app.use(demoWalletRoutes({ rpcUrl, account: DEMO_WALLET_ACCOUNT, timeoutMs: 300 }).routes());
    const wallet = app.listen(0, '127.0.0.1');
    await new Promise((r) => wallet.once('listening', r));
    try {
      const started = Date.now();
      const res = await fetch(`http://127.0.0.1:${(wallet.address() as AddressInfo).port}/api/dev/wallet`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'eth_blockNumber', params: [] }),
      });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({
        jsonrpc: '2.0',
        id: 3,
        error: { code: -32603, message: 'The Demo Wallet cannot reach the local chain' },
      });
      expect(Date.now() - started).toBeLessThan(5000);
    } finally {
      wallet.close();
      silent.closeAllConnections();
      silent.close();
    }
  });

  it('offers no batch of calls: a page sends a swap’s approve and swap in turn, as with a plain key', async () => {
    expect((await rpc('wallet_sendCalls', [{ calls: [] }])).error.code).toBe(4200);
    expect((await rpc('wallet_getCapabilities', [DEMO_WALLET_ACCOUNT, ['0x2105']])).error.code).toBe(4200);
  });

  it('signs messages as the demo account', async () => {
    const sig = (await rpc('personal_sign', ['0x68656c6c6f', DEV_ACCOUNTS[0]])).result;
    expect(sig).toMatch(/^0x[0-9a-f]{130}$/);
  });

  it('is offered by the app with the local chain, and never with a real one', async () => {
    const live = {
      BASE_RPC_URL: 'https://mainnet.base.org',
      POG_TOKEN_ADDRESS: '0x1111111111111111111111111111111111111111',
      STORE_WALLET_ADDRESS: '0x2222222222222222222222222222222222222222',
      // A real chain without a real store is refused by loadConfig (server/config.test.ts).
      SHOPIFY_STORE_DOMAIN: 'pogs-store.myshopify.com',
      SHOPIFY_ADMIN_TOKEN: 'shpat_0123456789abcdef',
    };
    const demoWallet = demoWalletRoutes({ rpcUrl: chain.rpcUrl, account: DEMO_WALLET_ACCOUNT });
    for (const [env, offered] of [
      [{}, true],
      [live, false],
    ] as const) {
      const h = await startHarness('pglite', { env, demoWallet });
      try {
        expect((await (await h.api('/api/config')).json()).demoWallet).toBe(offered);
        const res = await h.api('/api/dev/wallet', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_accounts', params: [] }),
        });
        expect(res.status).toBe(offered ? 200 : 404);
      } finally {
        await h.close();
      }
    }
  });
});
