/**
 * The paymaster service over HTTP with a real EntryPoint (v0.8) and the shop's paymaster contract
 * on anvil, on each database: a smart account holding POGS and no ETH pays a checkout through an
 * operation the shop sponsors, and gets its order; everything else a wallet, a stranger or
 * another site can send is refused with the reason, and nothing is sponsored twice. (What a
 * stranger who runs the bundle can try: paymaster-attacks.int.test.ts.)
 */
import { Interface, toQuantity, Wallet, type Contract } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkoutSchema, orderSchema, type Checkout } from '../../../common/api';
import { DEV_ACCOUNTS } from '../../chain/local-chain';
import { sendTokenTransfer } from '../../test/chain';
import { testDatabaseKinds } from '../../test/databases';
import type { Harness } from '../../test/harness';
import { startPayingShop } from '../../test/paying';
import { Shopper } from '../../test/shopper';
import { deploySponsorStack, ownPaymasterSettings, TEST_BUNDLER, type PaymasterAnswer, type SmartAccounts } from '../../test/smart-account';
import { batchCall, callsBatch, pack, signAndSubmit, transferCall, userOperation } from '../../test/user-operations';
import { useTestChain } from '../../test/use-test-chain';
import type { UserOperation } from './user-operation';
import { mined } from '../../chain/mined';

const testChain = useTestChain();
const SWAP_CALLS = new Interface([
  'function approve(address spender, uint256 value) returns (bool)',
  'function multicall(uint256 deadline, bytes[] data) payable returns (bytes[] results)',
]);
const signerKey = Wallet.createRandom().privateKey;

describe.each(testDatabaseKinds)('the paymaster service on %s', (kind) => {
  let h: Harness;
  let accounts: SmartAccounts;
  let entryPoint: Contract;
  let paymaster: string;
  let variantId: string;
  const owner = Wallet.createRandom();
  let account: string;

  beforeAll(async () => {
    ({ accounts, entryPoint, paymaster } = await deploySponsorStack(testChain.provider, new Wallet(signerKey).address));
    const shop = await startPayingShop(kind, testChain, {
      env: {
        ...ownPaymasterSettings({ accounts, paymaster }, signerKey),
        // One shopper pays many checkouts here.
        PAYMASTER_SENDER_DAILY_LIMIT: '100',
      },
    });
    h = shop.h;
    variantId = shop.unlimited.id;
    account = await accounts.deploy(owner.address);
  });
  afterAll(async () => {
    await h?.close();
  });

  /** A checkout for the smart account (`wallet`), with its POGS (sent by a funded dev account) and the capability its wallet is given. */
  async function checkout(s = new Shopper(h), wallet = account, funded = true) {
    await s.add({ variantId, quantity: 1 });
    const c: Checkout = checkoutSchema.parse(await (await s.post('/api/checkout', { customerWallet: wallet })).json());
    if (funded) {
      await mined(
        sendTokenTransfer(testChain.provider, DEV_ACCOUNTS[1]!, { token: c.tokenAddress, to: wallet, value: BigInt(c.amountWei) }),
      );
    }
    const res = await s.request(`/api/checkout/${c.id}/paymaster`);
    expect(res.status).toBe(200);
    const capability = (await res.json()) as { url: string; context: { ticket: string } };
    return { s, c, capability };
  }
  const rpc = async (method: string, params: unknown, headers: Record<string, string> = {}): Promise<PaymasterAnswer> => {
    const res = await fetch(`${h.baseUrl}/api/paymaster`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method, params }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('set-cookie')).toBeNull();
    const body = await res.json();
    expect(body).toMatchObject({ jsonrpc: '2.0', id: 7 });
    return body;
  };
  const params = (op: UserOperation, context: unknown, over: { entryPoint?: string; chainId?: string } = {}) => [
    op,
    over.entryPoint ?? accounts.entryPoint,
    over.chainId ?? toQuantity(8453),
    context,
  ];
  const refusedFor = async (op: UserOperation, context: unknown, over = {}) => {
    const answer = await rpc('pm_getPaymasterData', params(op, context, over));
    expect(answer.result).toBeUndefined();
    return answer.error!;
  };

  it('pays the gas of a checkout’s payment from a smart account with no ETH, which gets its order', async () => {
    const { s, c, capability } = await checkout();
    expect(capability.url).toBe(`${h.config.publicUrl}/api/paymaster`);
    expect(await testChain.provider.getBalance(account)).toBe(0n);
    const op = await userOperation(entryPoint, account, transferCall(c.tokenAddress, c.storeWallet, BigInt(c.amountWei)));
    const stub = await rpc('pm_getPaymasterStubData', params(op, capability.context));
    expect(stub.result).toMatchObject({ paymaster, isFinal: false });
    const final = await rpc('pm_getPaymasterData', params({ ...op, ...stub.result, paymasterData: undefined }, capability.context));
    expect(final.result!.paymaster).toBe(paymaster);
    const receipt = await signAndSubmit(
      entryPoint,
      pack(op, { ...stub.result!, paymasterData: final.result!.paymasterData }),
      owner,
      TEST_BUNDLER,
    );
    expect(receipt.status).toBe(1);
    expect(await testChain.provider.getBalance(account)).toBe(0n);
    const res = await s.post('/api/orders/create', { checkoutId: c.id, transactionHash: receipt.hash, customerWallet: account });
    expect(res.status).toBe(201);
    expect(orderSchema.parse(await res.json())).toMatchObject({ status: 'paid' });
    // Paid: the checkout is not sponsored again.
    const again = await userOperation(entryPoint, account, transferCall(c.tokenAddress, c.storeWallet, BigInt(c.amountWei)));
    expect((await refusedFor(again, capability.context)).data?.reason).toBe('not-payable');
  });

  it('refuses another token, recipient or amount, a second call, a swap, another chain or EntryPoint', async () => {
    const { c, capability } = await checkout();
    const amount = BigInt(c.amountWei);
    const cases: Array<[string, string, Partial<UserOperation>, { entryPoint?: string; chainId?: string }]> = [
      ['not-the-token', transferCall(DEV_ACCOUNTS[2]!, c.storeWallet, amount), {}, {}],
      ['not-the-store', transferCall(c.tokenAddress, DEV_ACCOUNTS[2]!, amount), {}, {}],
      ['not-the-amount', transferCall(c.tokenAddress, c.storeWallet, amount - 1n), {}, {}],
      [
        'not-one-call',
        batchCall([
          { token: c.tokenAddress, to: c.storeWallet, value: amount },
          { token: c.tokenAddress, to: DEV_ACCOUNTS[2]!, value: 1n },
        ]),
        {},
        {},
      ],
      // Paying with USDC through a swap, as a smart wallet batches it: approve, then the router's
      // multicall (its own gas: the shop sponsors plain POGS transfers only). The router here is
      // any address; the shape alone is refused before any code is looked at.
      [
        'not-one-call',
        callsBatch([
          { to: DEV_ACCOUNTS[2]!, value: 0n, data: SWAP_CALLS.encodeFunctionData('approve', [DEV_ACCOUNTS[3]!, amount]) },
          { to: DEV_ACCOUNTS[3]!, value: 0n, data: SWAP_CALLS.encodeFunctionData('multicall', [9_999_999_999n, ['0x']]) },
        ]),
        {},
        {},
      ],
      // Paying with ETH through a swap: one call to the router, with value.
      [
        'not-the-token',
        callsBatch([
          { to: DEV_ACCOUNTS[3]!, value: 10n ** 15n, data: SWAP_CALLS.encodeFunctionData('multicall', [9_999_999_999n, ['0x']]) },
        ]),
        {},
        {},
      ],
      ['wrong-chain', transferCall(c.tokenAddress, c.storeWallet, amount), {}, { chainId: '0x1' }],
      ['wrong-entrypoint', transferCall(c.tokenAddress, c.storeWallet, amount), {}, { entryPoint: paymaster }],
    ];
    for (const [reason, callData, change, over] of cases) {
      const op = { ...(await userOperation(entryPoint, account, callData)), ...change };
      const error = await refusedFor(op, capability.context, over);
      expect({ reason: error.data?.reason, code: error.code }, reason).toEqual({ reason, code: -32001 });
      expect(error.message.length).toBeGreaterThan(10);
    }
    // A batch of exactly the one transfer is sponsored (some wallets batch every call).
    const one = await userOperation(entryPoint, account, batchCall([{ token: c.tokenAddress, to: c.storeWallet, value: amount }]));
    expect((await rpc('pm_getPaymasterStubData', params(one, capability.context))).result?.paymaster).toBe(paymaster);
  });

  it('sponsors one operation per checkout amount: the same one again, not another nonce, nor another account', async () => {
    const { c, capability } = await checkout();
    const op = await userOperation(entryPoint, account, transferCall(c.tokenAddress, c.storeWallet, BigInt(c.amountWei)));
    expect((await rpc('pm_getPaymasterData', params(op, capability.context))).result).toBeDefined();
    expect((await rpc('pm_getPaymasterData', params(op, capability.context))).result).toBeDefined();
    // The account's next nonce is its only one; another key of its nonces is refused too.
    const otherNonce = { ...op, nonce: toQuantity(BigInt(op.nonce) + 1n) };
    expect((await refusedFor(otherNonce, capability.context)).data?.reason).toBe('stale-nonce');
    expect((await refusedFor({ ...op, nonce: toQuantity((1n << 64n) + BigInt(op.nonce)) }, capability.context)).data?.reason).toBe(
      'nonce-key',
    );
    // Another account holding the amount too: the ticket names the checkout's wallet only.
    const other = await accounts.deploy(owner.address, 9n);
    await mined(sendTokenTransfer(testChain.provider, DEV_ACCOUNTS[1]!, { token: c.tokenAddress, to: other, value: BigInt(c.amountWei) }));
    const otherAccount = { ...op, sender: other, nonce: '0x0' };
    expect((await refusedFor(otherAccount, capability.context)).data?.reason).toBe('not-the-wallet');
    expect(await h.database.db('paymaster_sponsorships').where({ checkout_id: c.id })).toHaveLength(1);
  });

  it('signs nothing for an account that does not hold the amount (its transfer would revert at the shop’s cost)', async () => {
    const empty = await accounts.deploy(owner.address, 5n);
    const { c, capability } = await checkout(new Shopper(h), empty, false);
    const op = await userOperation(entryPoint, empty, transferCall(c.tokenAddress, c.storeWallet, BigInt(c.amountWei)));
    expect((await refusedFor(op, capability.context)).data?.reason).toBe('balance-too-low');
    expect(await h.database.db('paymaster_sponsorships').where({ checkout_id: c.id })).toHaveLength(0);
    // Asking for the estimate alone costs nothing and is answered.
    expect((await rpc('pm_getPaymasterStubData', params(op, capability.context))).result?.paymaster).toBe(paymaster);
  });

  it('gives a checkout’s ticket to its own session only, and sponsors nothing without a ticket of ours', async () => {
    // An account of its own: the one above has a sponsorship still outstanding (signed, never sent).
    const fresh = await accounts.deploy(owner.address, 11n);
    const { c, capability } = await checkout(new Shopper(h), fresh);
    const stranger = new Shopper(h);
    expect((await stranger.request(`/api/checkout/${c.id}/paymaster`)).status).toBe(404);
    expect((await stranger.request(`/api/checkout/not-a-uuid/paymaster`)).status).toBe(404);
    const op = await userOperation(entryPoint, fresh, transferCall(c.tokenAddress, c.storeWallet, BigInt(c.amountWei)));
    const [id, wallet, expiry, mac] = capability.context.ticket.split('.') as [string, string, string, string];
    const forged = `${id}.${wallet}.${expiry}.${mac.replace(/^./, (ch) => (ch === 'A' ? 'B' : 'A'))}`;
    // The ticket's expiry pushed back by a day: its mac no longer matches.
    const extended = `${id}.${wallet}.${Number(expiry) + 86_400}.${mac}`;
    for (const context of [null, {}, { ticket: forged }, { ticket: extended }, { ticket: c.id }, { checkoutId: c.id }]) {
      expect((await refusedFor(op, context)).data?.reason).toBe('no-ticket');
    }
    expect(await h.database.db('paymaster_sponsorships').where({ checkout_id: c.id })).toHaveLength(0);
  });

  it('answers wallets from any site, and a malformed call with a JSON-RPC error, never a 500', async () => {
    const fresh = await accounts.deploy(owner.address, 12n);
    const { c, capability } = await checkout(new Shopper(h), fresh);
    const op = await userOperation(entryPoint, fresh, transferCall(c.tokenAddress, c.storeWallet, BigInt(c.amountWei)));
    // A wallet's page on another site (a cross-site POST, refused on every other write route).
    const fromWallet = await rpc('pm_getPaymasterStubData', params(op, capability.context), {
      origin: 'https://keys.coinbase.com',
      'sec-fetch-site': 'cross-site',
    });
    expect(fromWallet.result?.paymaster).toBe(paymaster);
    const preflight = await fetch(`${h.baseUrl}/api/paymaster`, {
      method: 'OPTIONS',
      headers: { origin: 'https://keys.coinbase.com', 'access-control-request-method': 'POST' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-methods')).toContain('POST');
    expect((await rpc('eth_sendTransaction', [])).error?.code).toBe(-32601);
    expect((await rpc('pm_getPaymasterData', [op])).error?.code).toBe(-32602);
    expect(
      (await rpc('pm_getPaymasterData', [{ ...op, sender: '0x12' }, accounts.entryPoint, '0x2105', capability.context])).error?.code,
    ).toBe(-32602);
    // Addresses with a wrong EIP-55 checksum (one letter's case flipped): a refused sender, never a 500;
    // the EntryPoint is compared whatever its case.
    const flipped = (a: string) => a.replace(/[a-fA-F]/, (ch) => (ch === ch.toLowerCase() ? ch.toUpperCase() : ch.toLowerCase()));
    expect(
      (await rpc('pm_getPaymasterStubData', [{ ...op, sender: flipped(op.sender) }, accounts.entryPoint, '0x2105', capability.context]))
        .error?.code,
    ).toBe(-32602);
    expect((await rpc('pm_getPaymasterStubData', [op, flipped(accounts.entryPoint), '0x2105', capability.context])).result?.paymaster).toBe(
      paymaster,
    );
    const notRpc = await fetch(`${h.baseUrl}/api/paymaster`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"hello":1}',
    });
    expect(notRpc.status).toBe(200);
    expect((await notRpc.json()).error.code).toBe(-32600);
  });
});
