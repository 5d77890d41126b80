/**
 * GET /api/admin/paymaster over HTTP with a real EntryPoint (v0.8) and the shop's paymaster
 * contract on anvil, on each database: the deposit is what EntryPoint.balanceOf says (after a
 * deposit, after a sponsored payment paid its gas), the daily budget and the per-account limit are
 * the settings' (their defaults without them), today's budget left holds back a sponsorship's most
 * while it can land and then only what it really cost; per UTC day over the last 30 days the
 * sponsorships granted, the ones that paid, what the operations cost and what was wasted, and each
 * day's budget left; strangers get nothing, a chain that does not answer leaves the deposit
 * unknown with its reason (not a 500), and a shop without a paymaster says it pays no gas.
 */
import { randomUUID } from 'node:crypto';
import { getAddress, parseEther, toQuantity, Wallet, type Contract } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '../../../common/errors';
import { sponsoredGasSchema, type SponsoredGas, type SponsoredGasDay } from '../../../common/sponsored-gas';
import { DEV_ACCOUNTS } from '../../chain/local-chain';
import type { Db } from '../../db';
import { sendTokenTransfer } from '../../test/chain';
import { testDatabaseKinds } from '../../test/databases';
import { adminSession, startHarness, type Harness } from '../../test/harness';
import { startPayingShop, type PayingKit } from '../../test/paying';
import { Shopper } from '../../test/shopper';
import { deploySponsorStack, ownPaymasterSettings, TEST_BUNDLER, type PaymasterAnswer, type SmartAccounts } from '../../test/smart-account';
import { pack, signAndSubmit, transferCall, userOperation } from '../../test/user-operations';
import { useTestChain } from '../../test/use-test-chain';
import type { SponsorshipOutcome } from './sponsorship-ledger';
import { mined } from '../../chain/mined';

const testChain = useTestChain();
const signerKey = Wallet.createRandom().privateKey;
const DAY_MS = 24 * 60 * 60 * 1000;
const MINUTE_MS = 60_000;
/** The settings the main shop runs with (not the defaults, so the answer shows they are read). */
const BUDGET = parseEther('0.05');
const SENDER_LIMIT = 3;

type Enabled = Extract<SponsoredGas, { enabled: true }>;
const utcDay = (at: number) => new Date(at).toISOString().slice(0, 10);
const startOfToday = () => Date.parse(`${utcDay(Date.now())}T00:00:00Z`);
const wei = (n: bigint) => n.toString();

let nextSender = 1;
/**
 * Writes a sponsorship as the service and the sponsorship watcher leave it, at `at`: `unrecorded`
 * has no checkout (an operation of the paymaster the shop never signed); each row its own account.
 */
function sponsorship(
  db: Db,
  at: Date,
  row: { outcome: SponsorshipOutcome; amountWei?: bigint; costWei?: bigint; maxCostWei?: bigint; validUntil?: Date },
) {
  const recorded = row.outcome !== 'unrecorded';
  return db('paymaster_sponsorships').insert({
    checkout_id: recorded ? randomUUID() : null,
    amount_wei: recorded ? wei(row.amountWei ?? 1n) : null,
    sender: `0x${(nextSender++).toString(16).padStart(40, '4')}`,
    nonce: '0',
    valid_until: row.validUntil ?? (recorded ? new Date(at.getTime() + 5 * MINUTE_MS) : null),
    max_cost_wei: wei(row.maxCostWei ?? (recorded ? parseEther('0.001') : 0n)),
    outcome: row.outcome,
    actual_cost_wei: row.costWei === undefined ? null : wei(row.costWei),
    created_at: at,
  });
}

/** A day of the answer, or one with nothing (what `before` holds of a day the tests add to). */
const dayOf = (gas: Enabled, day: string, budget: bigint): SponsoredGasDay =>
  gas.days.find((d) => d.day === day) ?? {
    day,
    sponsorships: 0,
    paid: 0,
    wasted: 0,
    spentWei: '0',
    wastedWei: '0',
    amountWei: '0',
    budgetLeftWei: wei(budget),
  };

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
  const env = () => ({
    ...ownPaymasterSettings({ accounts, paymaster }, signerKey),
  });

  beforeAll(async () => {
    ({ accounts, entryPoint, paymaster } = await deploySponsorStack(testChain.provider, new Wallet(signerKey).address));
    const shop = await startPayingShop(kind, testChain, {
      env: { ...env(), PAYMASTER_DAILY_BUDGET_ETH: '0.05', PAYMASTER_SENDER_DAILY_LIMIT: String(SENDER_LIMIT) },
    });
    ({ h, pay, admin } = shop);
    variantId = shop.unlimited.id;
    account = await accounts.deploy(owner.address);
  });
  afterAll(async () => {
    await h?.payments?.sponsorshipWatcher?.stop(); // its lock's connection
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

  /**
   * A checkout paid by the smart account through an operation the shop sponsors (as a wallet and a
   * bundler do it); answers its amount and the most the operation could take from the deposit (the
   * EntryPoint's prefund: every gas limit, the paymaster's included, at its fee cap).
   */
  async function sponsoredPayment(): Promise<{ amountWei: bigint; mostWei: bigint }> {
    const s = new Shopper(h);
    const c = await pay.checkout(s, variantId, account);
    await mined(
      sendTokenTransfer(testChain.provider, DEV_ACCOUNTS[1]!, { token: c.tokenAddress, to: account, value: BigInt(c.amountWei) }),
    );
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
    const { result, error } = (await res.json()) as PaymasterAnswer;
    expect(error).toBeUndefined();
    const receipt = await signAndSubmit(entryPoint, pack(op, result!), owner, TEST_BUNDLER);
    expect(receipt.status).toBe(1);
    const gas = [
      op.callGasLimit,
      op.verificationGasLimit,
      op.preVerificationGas,
      result!.paymasterVerificationGasLimit,
      result!.paymasterPostOpGasLimit,
    ];
    return { amountWei: BigInt(c.amountWei), mostWei: gas.reduce((sum, g) => sum + BigInt(g), 0n) * BigInt(op.maxFeePerGas) };
  }

  it('shows the deposit EntryPoint.balanceOf gives, the budget, and what a sponsored payment held of it, then cost', async () => {
    const first = await enabled();
    expect(first).toMatchObject({ entryPoint: getAddress(accounts.entryPoint), paymaster, depositWei: wei(await balanceOf()) });
    expect(first.depositError).toBeUndefined();
    expect(first).toMatchObject({ dailyBudgetWei: wei(BUDGET), senderDailyLimit: SENDER_LIMIT, todayLeftWei: wei(BUDGET), days: [] });

    await mined(entryPoint.getFunction('depositTo')(paymaster, { value: parseEther('0.25') }));
    const topped = await enabled();
    expect(topped.depositWei).toBe(wei(BigInt(first.depositWei!) + parseEther('0.25')));
    expect(topped.depositWei).toBe(wei(await balanceOf()));

    const { amountWei, mostWei } = await sponsoredPayment();
    // Landed, but its event not read yet: the most it could cost is held in today's budget.
    const landed = await enabled();
    expect(landed.depositWei).toBe(wei(await balanceOf()));
    const spentWei = BigInt(topped.depositWei!) - BigInt(landed.depositWei!);
    expect(spentWei).toBeGreaterThan(0n);
    expect(mostWei).toBeGreaterThan(spentWei);
    expect(landed.todayLeftWei).toBe(wei(BUDGET - mostWei));
    expect(landed.days).toEqual([
      {
        day: utcDay(Date.now()),
        sponsorships: 1,
        paid: 0,
        wasted: 0,
        spentWei: '0',
        wastedWei: '0',
        amountWei: '0',
        budgetLeftWei: wei(BUDGET - mostWei),
      },
    ]);

    // Once the watcher has read its UserOperationEvent: paid, and what it cost is what left the deposit.
    expect(await h.payments!.sponsorshipWatcher!.tick()).toBe(1);
    const settled = await enabled();
    expect(settled.depositWei).toBe(landed.depositWei);
    expect(settled.todayLeftWei).toBe(wei(BUDGET - spentWei));
    expect(settled.days).toEqual([
      {
        day: utcDay(Date.now()),
        sponsorships: 1,
        paid: 1,
        wasted: 0,
        spentWei: wei(spentWei),
        wastedWei: '0',
        amountWei: wei(amountWei),
        budgetLeftWei: wei(BUDGET - spentWei),
      },
    ]);
  });

  it('counts per UTC day over the last 30 days what was granted, paid, spent and wasted, and the budget left, newest first', async () => {
    const today = startOfToday();
    const yesterday = utcDay(today - 1);
    const before = await enabled();
    const was = dayOf(before, utcDay(today), BUDGET);
    const db = h.database.db;
    const now = Date.now();
    // Today, from its first millisecond (midnight UTC belongs to today):
    await sponsorship(db, new Date(today), { outcome: 'reverted', amountWei: 7n, costWei: 30n });
    await sponsorship(db, new Date(now), { outcome: 'paid', amountWei: 5n, costWei: 100n });
    await sponsorship(db, new Date(now), { outcome: 'unrecorded', costWei: 20n });
    // still in its window: its most is held
    await sponsorship(db, new Date(now), { outcome: 'pending', maxCostWei: 400n, validUntil: new Date(now + 5 * MINUTE_MS) });
    // its window ended 5 minutes ago: its event may not be read yet, so still held
    await sponsorship(db, new Date(today), { outcome: 'pending', maxCostWei: 200n, validUntil: new Date(now - 5 * MINUTE_MS) });
    // its window ended 11 minutes ago: it never ran, nothing held
    await sponsorship(db, new Date(today), { outcome: 'pending', maxCostWei: 800n, validUntil: new Date(now - 11 * MINUTE_MS) });
    // Yesterday, to its last millisecond:
    await sponsorship(db, new Date(today - 1), { outcome: 'paid', amountWei: 11n, costWei: 40n });
    await sponsorship(db, new Date(today - 1 - DAY_MS / 2), { outcome: 'unpaid', amountWei: 13n, costWei: 60n });
    // Two days ago, a day whose operations cost more than the budget: none of it left.
    await sponsorship(db, new Date(today - 2 * DAY_MS + 1), { outcome: 'reverted', amountWei: 3n, costWei: BUDGET + 1n });
    await sponsorship(db, new Date(today - 29 * DAY_MS), { outcome: 'paid', amountWei: 17n, costWei: 70n }); // the first of the 30 days
    await sponsorship(db, new Date(today - 29 * DAY_MS - 1), { outcome: 'paid', amountWei: 19n, costWei: 90n }); // 31 days ago: not counted

    const after = await enabled();
    expect(after.since).toBe(utcDay(today - 29 * DAY_MS));
    // Today: 150 wei spent (paid 100, reverted 30, unrecorded 20), 600 held (400 + 200), the 800 not.
    const todayLeft = BigInt(before.todayLeftWei) - 150n - 600n;
    expect(after.todayLeftWei).toBe(wei(todayLeft));
    expect(after.days).toEqual([
      {
        day: utcDay(today),
        sponsorships: was.sponsorships + 5, // the unrecorded operation had no sponsorship
        paid: was.paid + 1,
        wasted: was.wasted + 2,
        spentWei: wei(BigInt(was.spentWei) + 150n),
        wastedWei: wei(BigInt(was.wastedWei) + 50n),
        amountWei: wei(BigInt(was.amountWei) + 5n), // what the paid ones paid, not the reverted one's 7
        budgetLeftWei: wei(todayLeft),
      },
      {
        day: yesterday,
        sponsorships: 2,
        paid: 1,
        wasted: 1,
        spentWei: '100',
        wastedWei: '60',
        amountWei: '11',
        budgetLeftWei: wei(BUDGET - 100n),
      },
      {
        day: utcDay(today - 2 * DAY_MS),
        sponsorships: 1,
        paid: 0,
        wasted: 1,
        spentWei: wei(BUDGET + 1n),
        wastedWei: wei(BUDGET + 1n),
        amountWei: '0',
        budgetLeftWei: '0',
      },
      {
        day: utcDay(today - 29 * DAY_MS),
        sponsorships: 1,
        paid: 1,
        wasted: 0,
        spentWei: '70',
        wastedWei: '0',
        amountWei: '17',
        budgetLeftWei: wei(BUDGET - 70n),
      },
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

  it('leaves the deposit unknown with the reason when the chain does not answer, and still counts the days with the default limits', async () => {
    const down = await startHarness(kind, {
      chain: testChain.chain,
      chainRpc: { rpcUrl: 'http://127.0.0.1:9', timeoutMs: 1_000 },
      env: env(),
    });
    try {
      await sponsorship(down.database.db, new Date(), { outcome: 'paid', amountWei: 3n, costWei: 1_000n });
      const answer = await enabled(down, await adminSession(down));
      const budget = parseEther('0.01'); // PAYMASTER_DAILY_BUDGET_ETH's default
      expect(answer).toMatchObject({
        paymaster,
        depositWei: null,
        dailyBudgetWei: wei(budget),
        senderDailyLimit: 5, // PAYMASTER_SENDER_DAILY_LIMIT's default
        todayLeftWei: wei(budget - 1_000n),
        days: [
          {
            day: utcDay(Date.now()),
            sponsorships: 1,
            paid: 1,
            wasted: 0,
            spentWei: '1000',
            wastedWei: '0',
            amountWei: '3',
            budgetLeftWei: wei(budget - 1_000n),
          },
        ],
      });
      expect(answer.depositError).toMatch(/^The chain did not answer \(chain RPC 127\.0\.0\.1:9 is unreachable: .+\)\. Try again/);
    } finally {
      await down.payments?.sponsorshipWatcher?.stop();
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
