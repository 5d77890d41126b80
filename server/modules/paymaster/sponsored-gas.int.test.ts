/**
 * GET /api/admin/paymaster over HTTP with a real EntryPoint (v0.8) and the shop's paymaster
 * contract on anvil, on each database: the deposit is what EntryPoint.balanceOf says (after a
 * deposit, after a sponsored payment paid its gas), the sponsorships are counted per UTC day over
 * the last 30 days, strangers get nothing, a chain that does not answer leaves the deposit unknown
 * with its reason (not a 500), and a shop without a paymaster says it pays no gas.
 */
import { randomUUID } from 'node:crypto';
import { getAddress, parseEther, toQuantity, Wallet, type Contract } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '../../../common/errors';
import { sponsoredGasSchema, type SponsoredGas } from '../../../common/sponsored-gas';
import { DEV_ACCOUNTS } from '../../chain/local-chain';
import type { Db } from '../../db';
import { sendTokenTransfer } from '../../test/chain';
import { testDatabaseKinds } from '../../test/databases';
import { adminSession, startHarness, type Harness } from '../../test/harness';
import { startPayingShop, type PayingKit } from '../../test/paying';
import { Shopper } from '../../test/shopper';
import { deploySponsorStack, TEST_BUNDLER, type SmartAccounts } from '../../test/smart-account';
import { pack, signAndSubmit, transferCall, userOperation } from '../../test/user-operations';
import { useTestChain } from '../../test/use-test-chain';

const testChain = useTestChain();
const signerKey = Wallet.createRandom().privateKey;
const DAY_MS = 24 * 60 * 60 * 1000;

type Enabled = Extract<SponsoredGas, { enabled: true }>;
const utcDay = (at: number) => new Date(at).toISOString().slice(0, 10);
const startOfToday = () => Date.parse(`${utcDay(Date.now())}T00:00:00Z`);

/** Records a sponsorship as the service does, at `at` (the tests' days in the past). */
const sponsorship = (db: Db, at: Date, amountWei: bigint) =>
  db('paymaster_sponsorships').insert({
    checkout_id: randomUUID(),
    amount_wei: amountWei.toString(),
    sender: `0x${'44'.repeat(20)}`,
    nonce: '0',
    created_at: at,
  });

describe.each(testDatabaseKinds)('the admin’s sponsored gas on %s', (kind) => {
  let h: Harness;
  let pay: PayingKit;
  let admin: string;
  let accounts: SmartAccounts;
  let entryPoint: Contract;
  let paymaster: string;
  let variantId: string;
  let account: string;
  const owner = Wallet.createRandom();
  const env = () => ({ PAYMASTER_ADDRESS: paymaster, PAYMASTER_SIGNER_KEY: signerKey, ENTRYPOINT_ADDRESS: accounts.entryPoint });

  beforeAll(async () => {
    ({ accounts, entryPoint, paymaster } = await deploySponsorStack(testChain.provider, new Wallet(signerKey).address));
    const shop = await startPayingShop(kind, testChain, { env: env() });
    ({ h, pay, admin } = shop);
    variantId = shop.unlimited.id;
    account = await accounts.deploy(owner.address);
  });
  afterAll(async () => {
    await h?.close();
  });

  const read = (of: Pick<Harness, 'api'>, headers: Record<string, string>) => of.api('/api/admin/paymaster', { headers });
  async function report(of: Pick<Harness, 'api'> = h, cookie = admin): Promise<SponsoredGas> {
    const res = await read(of, { cookie });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    return sponsoredGasSchema.parse(await res.json());
  }
  async function enabled(of?: Pick<Harness, 'api'>, cookie?: string): Promise<Enabled> {
    const answer = await report(of, cookie);
    if (!answer.enabled) throw new Error('expected the paymaster to be on');
    return answer;
  }
  const balanceOf = async () => BigInt(await entryPoint.getFunction('balanceOf')(paymaster));

  /** A checkout paid by the smart account through an operation the shop sponsors (as a wallet and a bundler do it). */
  async function sponsoredPayment(): Promise<bigint> {
    const s = new Shopper(h);
    const c = await pay.checkout(s, variantId, account);
    await (
      await sendTokenTransfer(testChain.provider, DEV_ACCOUNTS[1]!, { token: c.tokenAddress, to: account, value: BigInt(c.amountWei) })
    ).wait();
    const { context } = (await (await s.request(`/api/checkout/${c.id}/paymaster`)).json()) as { context: { ticket: string } };
    const op = await userOperation(entryPoint, account, transferCall(c.tokenAddress, c.storeWallet, BigInt(c.amountWei)));
    const res = await fetch(`${h.baseUrl}/api/paymaster`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'pm_getPaymasterData',
        params: [op, accounts.entryPoint, toQuantity(8453), context],
      }),
    });
    const { result } = await res.json();
    const receipt = await signAndSubmit(entryPoint, pack(op, result), owner, TEST_BUNDLER);
    expect(receipt.status).toBe(1);
    return BigInt(c.amountWei);
  }

  it('shows the deposit EntryPoint.balanceOf gives: after a deposit, and after a sponsored payment paid its gas from it', async () => {
    const first = await enabled();
    expect(first).toMatchObject({ entryPoint: getAddress(accounts.entryPoint), paymaster, depositWei: (await balanceOf()).toString() });
    expect(first.depositError).toBeUndefined();
    // The shop's gas limits (2,760,000 gas in all) at its 1 gwei cap: what the EntryPoint holds back per operation.
    expect(first.maxOperationCostWei).toBe(parseEther('0.00276').toString());

    await (await entryPoint.getFunction('depositTo')(paymaster, { value: parseEther('0.25') })).wait();
    const topped = await enabled();
    expect(topped.depositWei).toBe((BigInt(first.depositWei!) + parseEther('0.25')).toString());
    expect(topped.depositWei).toBe((await balanceOf()).toString());

    const amount = await sponsoredPayment();
    const after = await enabled();
    expect(after.depositWei).toBe((await balanceOf()).toString());
    expect(BigInt(after.depositWei!)).toBeLessThan(BigInt(topped.depositWei!));
    expect(after.days[0]).toEqual({ day: utcDay(Date.now()), sponsorships: 1, amountWei: amount.toString() });
  });

  it('counts the sponsorships per UTC day over the last 30 days, newest first, leaving out days with none and older ones', async () => {
    const before = await enabled();
    const today = startOfToday();
    const todayBefore = before.days.find((d) => d.day === utcDay(today)) ?? { sponsorships: 0, amountWei: '0' };
    const db = h.database.db;
    await sponsorship(db, new Date(), 5n);
    await sponsorship(db, new Date(today), 7n); // midnight UTC belongs to today
    await sponsorship(db, new Date(today - 1), 11n); // a millisecond before, yesterday
    await sponsorship(db, new Date(today - 1 - DAY_MS / 2), 13n);
    await sponsorship(db, new Date(today - 29 * DAY_MS), 17n); // the first of the 30 days
    await sponsorship(db, new Date(today - 29 * DAY_MS - 1), 19n); // 31 days ago: not counted

    const after = await enabled();
    expect(after.since).toBe(utcDay(today - 29 * DAY_MS));
    expect(after.days).toEqual([
      {
        day: utcDay(today),
        sponsorships: todayBefore.sponsorships + 2,
        amountWei: (BigInt(todayBefore.amountWei) + 12n).toString(),
      },
      { day: utcDay(today - 1), sponsorships: 2, amountWei: '24' },
      { day: utcDay(today - 29 * DAY_MS), sponsorships: 1, amountWei: '17' },
    ]);
  });

  it('answers a stranger, a shopper’s session, a made-up session and another site nothing', async () => {
    const shopper = new Shopper(h);
    expect((await shopper.add({ variantId, quantity: 1 })).status).toBe(200);
    const attempts: Array<[Record<string, string>, number, string]> = [
      [{}, 401, ErrorCode.adminSessionRequired],
      [{ cookie: shopper.cookie! }, 401, ErrorCode.adminSessionRequired],
      [{ cookie: 'pogs_admin=not-a-session' }, 401, ErrorCode.adminSessionRequired],
      [{ cookie: admin, 'sec-fetch-site': 'cross-site' }, 403, ErrorCode.crossSiteRequest],
      [{ cookie: admin, origin: 'https://evil.example' }, 403, ErrorCode.crossSiteRequest],
    ];
    for (const [headers, status, code] of attempts) {
      const res = await read(h, headers);
      expect(res.status, JSON.stringify(headers)).toBe(status);
      const body = await res.json();
      expect(Object.keys(body).sort()).toEqual(['code', 'message']);
      expect(body.code).toBe(code);
    }
  });

  it('leaves the deposit unknown with the reason when the chain does not answer, and still counts the days', async () => {
    const down = await startHarness(kind, {
      chain: testChain.chain,
      chainRpc: { rpcUrl: 'http://127.0.0.1:9', timeoutMs: 1_000 },
      env: env(),
    });
    try {
      await sponsorship(down.database.db, new Date(), 3n);
      const answer = await enabled(down, await adminSession(down));
      expect(answer).toMatchObject({ paymaster, depositWei: null, days: [{ day: utcDay(Date.now()), sponsorships: 1, amountWei: '3' }] });
      expect(answer.depositError).toMatch(/^The chain did not answer \(chain RPC 127\.0\.0\.1:9 is unreachable: .+\)\. Try again/);
    } finally {
      await down.close();
    }
  });

  it('says so when the EntryPoint address holds no contract', async () => {
    const wrong = await startHarness(kind, { chain: testChain.chain, env: { ...env(), ENTRYPOINT_ADDRESS: DEV_ACCOUNTS[2] } });
    try {
      const answer = await enabled(wrong, await adminSession(wrong));
      expect(answer.depositWei).toBeNull();
      expect(answer.depositError).toBe(
        `There is no contract at the EntryPoint address ${getAddress(DEV_ACCOUNTS[2])} on this chain: check ENTRYPOINT_ADDRESS.`,
      );
    } finally {
      await wrong.close();
    }
  });

  it('is off without a paymaster, or without a chain', async () => {
    for (const opts of [{ chain: testChain.chain }, {}]) {
      const off = await startHarness(kind, opts);
      try {
        expect(await report(off, await adminSession(off))).toEqual({ enabled: false });
        expect((await read(off, {})).status).toBe(401);
      } finally {
        await off.close();
      }
    }
  });
});
