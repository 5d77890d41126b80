/**
 * The paymaster service with a hosted sponsor (PAYMASTER_SERVICE_URL) over HTTP, with a real
 * EntryPoint (v0.8) on anvil, on each database. The hosted service is a stand-in
 * (server/test/hosted-paymaster.ts) that signs for its own verifying paymaster under its own key,
 * as a hosted one does. A smart account holding POGS and no ETH pays through it and gets its order;
 * an operation the shop refuses never reaches it; its refusal, its silence and its garbage each
 * reach the wallet as a JSON-RPC error it can act on; its URL and key appear in no log line and no
 * answer.
 */
import { Writable } from 'node:stream';
import { toQuantity, Wallet, type Contract } from 'ethers';
import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { checkoutSchema, orderSchema, type Checkout } from '../../../common/api';
import { DEV_ACCOUNTS } from '../../chain/local-chain';
import { sendTokenTransfer } from '../../test/chain';
import { testDatabaseKinds } from '../../test/databases';
import type { Harness } from '../../test/harness';
import { startHostedPaymaster, type HostedPaymaster } from '../../test/hosted-paymaster';
import { startPayingShop } from '../../test/paying';
import { Shopper } from '../../test/shopper';
import { deploySponsorStack, knownWalletSettings, TEST_BUNDLER, type PaymasterAnswer, type SmartAccounts } from '../../test/smart-account';
import { pack, signAndSubmit, transferCall, userOperation } from '../../test/user-operations';
import { useTestChain } from '../../test/use-test-chain';
import type { UserOperation } from './user-operation';
import { mined } from '../../chain/mined';

const testChain = useTestChain();
const POLICY = 'sp_pogs_checkout';
const TIMEOUT_MS = 1500;

describe.each(testDatabaseKinds)('the paymaster service with a hosted sponsor on %s', (kind) => {
  let h: Harness;
  let hosted: HostedPaymaster;
  let accounts: SmartAccounts;
  let entryPoint: Contract;
  let paymaster: string;
  let variantId: string;
  const owner = Wallet.createRandom();
  let account: string;
  /** Every line the server logged, and every answer it gave, as text. */
  const logLines: string[] = [];
  const answers: string[] = [];

  beforeAll(async () => {
    // The provider's own paymaster, under the provider's own key: the shop holds neither.
    const providerKey = Wallet.createRandom().privateKey;
    ({ accounts, entryPoint, paymaster } = await deploySponsorStack(testChain.provider, new Wallet(providerKey).address));
    hosted = await startHostedPaymaster({ paymaster, signerKey: providerKey, entryPoint: accounts.entryPoint, chainId: 8453 });
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        logLines.push(...chunk.toString().split('\n').filter(Boolean));
        done();
      },
    });
    const shop = await startPayingShop(kind, testChain, {
      env: {
        PAYMASTER_SERVICE_URL: hosted.url,
        PAYMASTER_SERVICE_KEY: hosted.key,
        PAYMASTER_POLICY_ID: POLICY,
        PAYMASTER_SERVICE_TIMEOUT_MS: String(TIMEOUT_MS),
        ENTRYPOINT_ADDRESS: accounts.entryPoint,
        ...knownWalletSettings(accounts),
      },
      logger: pino({ level: 'trace' }, sink),
    });
    h = shop.h;
    variantId = shop.unlimited.id;
  });
  afterAll(async () => {
    await h?.close();
    await hosted?.close();
  });
  beforeEach(() => {
    hosted.mode = 'sign';
    hosted.received.length = 0;
  });

  let salt = 0n;
  /**
   * A checkout for a smart account of its own (an account has one sponsorship outstanding at a
   * time, and these tests leave theirs unsent), with its POGS, and the capability its wallet is given.
   */
  async function checkout(s = new Shopper(h), funded = true) {
    account = await accounts.deploy(owner.address, ++salt);
    await s.add({ variantId, quantity: 1 });
    const c: Checkout = checkoutSchema.parse(await (await s.post('/api/checkout', { customerWallet: account })).json());
    if (funded) {
      await mined(
        sendTokenTransfer(testChain.provider, DEV_ACCOUNTS[1]!, { token: c.tokenAddress, to: account, value: BigInt(c.amountWei) }),
      );
    }
    const res = await s.request(`/api/checkout/${c.id}/paymaster`);
    expect(res.status).toBe(200);
    const text = await res.text();
    answers.push(text);
    const capability = JSON.parse(text) as { url: string; context: { ticket: string } };
    const op = await userOperation(entryPoint, account, transferCall(c.tokenAddress, c.storeWallet, BigInt(c.amountWei)));
    return { s, c, capability, op };
  }
  const rpc = async (method: string, params: unknown): Promise<PaymasterAnswer> => {
    const res = await fetch(`${h.baseUrl}/api/paymaster`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method, params }),
    });
    expect(res.status).toBe(200);
    const text = await res.text();
    answers.push(text);
    return JSON.parse(text) as PaymasterAnswer;
  };
  const params = (op: UserOperation, context: unknown, over: { chainId?: string } = {}) => [
    op,
    accounts.entryPoint,
    over.chainId ?? toQuantity(8453),
    context,
  ];

  it('pays the gas of a checkout’s payment through the hosted sponsor: no ETH, an order, the provider asked with its own context', async () => {
    const { s, c, capability, op } = await checkout();
    expect(capability.url).toBe(`${h.config.publicUrl}/api/paymaster`);
    const stub = await rpc('pm_getPaymasterStubData', params(op, capability.context));
    // The shop's name as the sponsor, never final (the shop records and checks the balance on the final call).
    expect(stub.result).toMatchObject({ paymaster, isFinal: false, sponsor: { name: 'POGS Shop' } });
    expect(stub.result!.paymasterVerificationGasLimit).toBe(toQuantity(hosted.gas.verificationGasLimit));
    expect(stub.result!.paymasterPostOpGasLimit).toBe('0x0');
    const final = await rpc('pm_getPaymasterData', params({ ...op, ...stub.result, paymasterData: undefined }, capability.context));
    expect(final.result).toMatchObject({ paymaster });
    expect(final.result).not.toHaveProperty('isFinal');
    const receipt = await signAndSubmit(entryPoint, pack(op, final.result!), owner, TEST_BUNDLER);
    expect(receipt.status).toBe(1);
    expect(await testChain.provider.getBalance(account)).toBe(0n);
    const res = await s.post('/api/orders/create', { checkoutId: c.id, transactionHash: receipt.hash, customerWallet: account });
    expect(res.status).toBe(201);
    expect(orderSchema.parse(await res.json())).toMatchObject({ status: 'paid' });
    // The watcher finds it under the paymaster the provider answered with, and settles it at its real cost.
    await h.payments!.sponsorshipWatcher!.tick();
    const row = await h.database.db('paymaster_sponsorships').where({ checkout_id: c.id }).first();
    expect(row).toMatchObject({ paymaster: paymaster.toLowerCase(), outcome: 'paid', tx_hash: receipt.hash.toLowerCase() });
    expect(BigInt(row.actual_cost_wei)).toBeGreaterThan(0n);

    // The provider got the same two ERC-7677 calls, with its key, its policy, and not the shop's ticket.
    expect(hosted.received.map((r) => r.method)).toEqual(['pm_getPaymasterStubData', 'pm_getPaymasterData']);
    for (const call of hosted.received) {
      expect(call.authorization).toBe(`Bearer ${hosted.key}`);
      const [sent, sentEntryPoint, chainId, context] = call.params as [UserOperation, string, string, Record<string, unknown>];
      expect({ sender: sent.sender, nonce: sent.nonce, callData: sent.callData }).toEqual({
        sender: op.sender,
        nonce: op.nonce,
        callData: op.callData,
      });
      expect([sentEntryPoint, chainId]).toEqual([accounts.entryPoint, '0x2105']);
      expect(context).toEqual({ sponsorshipPolicyId: POLICY, policyId: POLICY });
      expect(JSON.stringify(call.params)).not.toContain(capability.context.ticket.split('.')[1]);
    }
    expect(await h.database.db('paymaster_sponsorships').where({ checkout_id: c.id })).toHaveLength(1);
  });

  it('takes a final answer without gas limits (ERC-7677 requires only paymaster and paymasterData): the stub’s stand', async () => {
    const { s, c, capability, op } = await checkout();
    hosted.mode = 'minimal';
    const stub = await rpc('pm_getPaymasterStubData', params(op, capability.context));
    const final = await rpc('pm_getPaymasterData', params({ ...op, ...stub.result, paymasterData: undefined }, capability.context));
    expect(Object.keys(final.result!).sort()).toEqual(['paymaster', 'paymasterData']);
    const receipt = await signAndSubmit(entryPoint, pack(op, { ...stub.result!, ...final.result! }), owner, TEST_BUNDLER);
    expect(receipt.status).toBe(1);
    const res = await s.post('/api/orders/create', { checkoutId: c.id, transactionHash: receipt.hash, customerWallet: account });
    expect(res.status).toBe(201);
  });

  it('never forwards an operation the shop refuses: the provider hears nothing', async () => {
    const { c, capability, op } = await checkout();
    const amount = BigInt(c.amountWei);
    const cases: Array<[string, string, UserOperation, unknown, { chainId?: string }]> = [
      [
        'not-the-amount',
        'pm_getPaymasterData',
        { ...op, callData: transferCall(c.tokenAddress, c.storeWallet, amount - 1n) },
        capability.context,
        {},
      ],
      [
        'not-the-store',
        'pm_getPaymasterStubData',
        { ...op, callData: transferCall(c.tokenAddress, DEV_ACCOUNTS[2]!, amount) },
        capability.context,
        {},
      ],
      ['fee-too-high', 'pm_getPaymasterData', { ...op, maxFeePerGas: toQuantity(10n ** 11n) }, capability.context, {}],
      ['gas-too-high', 'pm_getPaymasterData', { ...op, callGasLimit: toQuantity(10n ** 6n) }, capability.context, {}],
      ['wrong-chain', 'pm_getPaymasterStubData', op, capability.context, { chainId: '0x1' }],
      ['no-ticket', 'pm_getPaymasterData', op, { sponsorshipPolicyId: POLICY }, {}],
    ];
    for (const [reason, method, sent, context, over] of cases) {
      const answer = await rpc(method, params(sent, context, over));
      expect({ code: answer.error?.code, reason: answer.error?.data?.reason }, reason).toEqual({ code: -32001, reason });
    }
    // An account that does not hold the amount: refused before the final call is forwarded.
    const unfunded = await checkout(new Shopper(h), false);
    const poor = await rpc('pm_getPaymasterData', params(unfunded.op, unfunded.capability.context));
    expect(poor.error?.data?.reason).toBe('balance-too-low');
    expect(hosted.received).toEqual([]);
    expect(await h.database.db('paymaster_sponsorships').where({ checkout_id: c.id })).toHaveLength(0);
  });

  it('passes on the provider’s refusal as sponsor-refused, with its words trimmed and without its key', async () => {
    const { capability, op } = await checkout();
    hosted.mode = 'refuse';
    for (const method of ['pm_getPaymasterStubData', 'pm_getPaymasterData']) {
      const answer = await rpc(method, params(op, capability.context));
      expect(answer.result).toBeUndefined();
      expect(answer.error).toMatchObject({ code: -32001, data: { reason: 'sponsor-refused' } });
      expect(answer.error!.message).toBe(
        'The shop’s gas sponsor refused this payment: Sponsorship policy rejected this user operation for key [redacted]: over the daily limit.',
      );
    }
    expect(hosted.received).toHaveLength(2);
  });

  it('answers -32603 sponsor-unavailable when the provider hangs (its timeout), is down, fails, refuses the key or answers garbage', async () => {
    const { c, capability, op } = await checkout();
    for (const mode of ['hang', 'down', 'garbage', 'wrong-shape', 'fail', 'revoked', 'final-stub'] as const) {
      hosted.mode = mode;
      const answer = await rpc('pm_getPaymasterStubData', params(op, capability.context));
      expect({ mode, code: answer.error?.code, reason: answer.error?.data?.reason }).toEqual({
        mode,
        code: -32603,
        reason: 'sponsor-unavailable',
      });
      expect(answer.error!.message).toMatch(/try again/);
    }
    const logged = () => logLines.map((l) => JSON.parse(l) as { msg?: string; cause?: string; level?: number });
    const causes = logged().filter((l) => l.msg === 'paymaster: the hosted sponsor gave no usable answer');
    expect(causes.map((l) => l.cause)).toEqual(
      expect.arrayContaining(['timeout', 'unreachable', 'malformed', 'busy', 'auth', 'final-stub']),
    );
    // A key the provider refuses is the operator's to fix: a warning, not a shopper's refusal.
    expect(causes.find((l) => l.cause === 'auth')?.level).toBe(40);

    // The final call too, after the sponsorship is recorded: the record is taken back (the checkout
    // is not held, nothing counted), and asked again once the provider is back, it is sponsored.
    const rows = () => h.database.db('paymaster_sponsorships').where({ checkout_id: c.id });
    hosted.mode = 'hang';
    expect((await rpc('pm_getPaymasterData', params(op, capability.context))).error?.data?.reason).toBe('sponsor-unavailable');
    expect(await rows()).toHaveLength(0);
    hosted.mode = 'sign';
    expect((await rpc('pm_getPaymasterData', params(op, capability.context))).result?.paymaster).toBe(paymaster);
    expect(await rows()).toHaveLength(1);
    // Once sponsored, a failure on a later ask for the same operation keeps the sponsorship it has.
    hosted.mode = 'fail';
    expect((await rpc('pm_getPaymasterData', params(op, capability.context))).error?.data?.reason).toBe('sponsor-unavailable');
    expect(await rows()).toHaveLength(1);
  });

  it('never shows the provider’s URL or keys: no log line, no answer, no public config', async () => {
    const publicConfig = await (await fetch(`${h.baseUrl}/api/config`)).text();
    expect(JSON.parse(publicConfig)).toMatchObject({ gasPaidByShop: true });
    expect(logLines.length).toBeGreaterThan(10);
    expect(answers.length).toBeGreaterThan(10);
    const port = new URL(hosted.url).port;
    for (const text of [...logLines, ...answers, publicConfig]) {
      for (const secret of [hosted.urlKey, hosted.key, hosted.url, `127.0.0.1:${port}`]) expect(text).not.toContain(secret);
    }
  });
});
