/**
 * The admin's view of the gas the shop pays (GET /api/admin/paymaster, docs/payments.md §9): the
 * paymaster's deposit left in the EntryPoint, read from the chain (`balanceOf`, through the shop's
 * chain client and its timeout), the daily budget and what is left of today's, and per UTC day
 * over the last {@link SPONSORED_GAS_DAYS} days the sponsorships granted, what the operations that
 * ran cost, how many paid their checkout and what was wasted, read from `paymaster_sponsorships`
 * (one grouped range read on its `created_at` index: bench/README.md, sponsored-gas.ts). A chain
 * that does not answer makes the deposit null with the reason, never a failed answer: the days
 * are still worth seeing.
 */
import { getAddress, Interface } from 'ethers';
import { SPONSORED_GAS_DAYS, type SponsoredGas, type SponsoredGasDay } from '../../../common/sponsored-gas';
import type { Db } from '../../db';
import { toCount } from '../../db';
import type { Logger } from '../../lib/logger';
import { unavailableCause } from '../../lib/unavailable';
import { HOLD_AFTER_WINDOW_MS, type SponsorshipLedger, WASTED } from './sponsorship-ledger';

const ENTRY_POINT = new Interface(['function balanceOf(address account) view returns (uint256)']);
const DAY_MS = 24 * 60 * 60 * 1000;

interface SponsoredGasDeps {
  /**
   * The paymaster contract whose EntryPoint deposit pays the gas (the shop's ShopPaymaster); null
   * when the paymaster is not the shop's own contract (a hosted one keeps its balance elsewhere).
   */
  paymasterAddress: string | null;
  /** The ERC-4337 EntryPoint the paymaster is deposited in. */
  entryPoint: string;
  /** One JSON-RPC call to the chain, with the chain client's timeout. */
  rpc: (method: string, params: unknown[]) => Promise<unknown>;
  logger: Logger;
  /** The book of sponsorships: the budget and what is left of today's. */
  ledger: SponsorshipLedger;
  /** The clock that decides today (the sponsorships are recorded with the wall clock). */
  now?: () => Date;
}

export class SponsoredGasReport {
  constructor(
    private readonly db: Db,
    private readonly deps: SponsoredGasDeps,
  ) {}

  /** The deposit left, the budget, and the sponsorships per day, newest first (days with none are left out). */
  async read(): Promise<SponsoredGas> {
    const now = this.deps.now?.() ?? new Date();
    const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
    const since = new Date(today - (SPONSORED_GAS_DAYS - 1) * DAY_MS);
    const { ledger } = this.deps;
    const [deposit, days, left] = await Promise.all([
      this.deposit(),
      sponsorshipsPerDay(this.db, since, now, ledger.rules.dailyBudgetWei),
      ledger.today(now),
    ]);
    const { paymasterAddress, entryPoint } = this.deps;
    return {
      enabled: true,
      entryPoint: checksummed(entryPoint),
      paymaster: paymasterAddress && checksummed(paymasterAddress),
      ...deposit,
      dailyBudgetWei: ledger.rules.dailyBudgetWei.toString(),
      senderDailyLimit: ledger.rules.senderDailyLimit,
      todayLeftWei: left.leftWei.toString(),
      since: since.toISOString().slice(0, 10),
      days,
    };
  }

  /** EntryPoint.balanceOf(paymaster), or null with the reason it is not known. */
  private async deposit(): Promise<{ depositWei: string | null; depositError?: string }> {
    const { paymasterAddress, entryPoint } = this.deps;
    if (!paymasterAddress) {
      return { depositWei: null, depositError: 'This paymaster is not the shop’s own contract: its provider keeps its balance.' };
    }
    let answer: unknown;
    try {
      answer = await this.deps.rpc('eth_call', [
        { to: entryPoint, data: ENTRY_POINT.encodeFunctionData('balanceOf', [paymasterAddress]) },
        'latest',
      ]);
    } catch (err) {
      this.deps.logger.warn({ err }, 'paymaster: the deposit could not be read');
      const outage = unavailableCause(err);
      if (outage) return { depositWei: null, depositError: `The chain did not answer (${outage.message}). Try again in a moment.` };
      return {
        depositWei: null,
        depositError: `The chain refused the read: ${rpcMessage(err)}. Check BASE_RPC_URL and ENTRYPOINT_ADDRESS.`,
      };
    }
    if (answer === '0x') {
      return {
        depositWei: null,
        depositError: `There is no contract at the EntryPoint address ${checksummed(entryPoint)} on this chain: check ENTRYPOINT_ADDRESS.`,
      };
    }
    try {
      return { depositWei: BigInt(ENTRY_POINT.decodeFunctionResult('balanceOf', String(answer))[0]).toString() };
    } catch (err) {
      this.deps.logger.warn({ err }, 'paymaster: the EntryPoint answered no balance');
      return { depositWei: null, depositError: 'The EntryPoint’s answer was not a balance: check ENTRYPOINT_ADDRESS.' };
    }
  }
}

/**
 * Per UTC day from `since` on, newest first: the sponsorships granted, what the operations that
 * ran cost and how many paid, what was wasted, and the budget left (a sponsorship that can still
 * land holds its most).
 */
async function sponsorshipsPerDay(db: Db, since: Date, now: Date, budgetWei: bigint): Promise<SponsoredGasDay[]> {
  // Grouped by the day as a timestamp (cheaper to hash and sort than its text), written out after.
  const utcDay = `date_trunc('day', created_at at time zone 'UTC')`;
  const wasted = `outcome in (${WASTED.map(() => '?').join(', ')}, 'unrecorded')`;
  const rows: Array<{
    day: string;
    sponsorships: unknown;
    paid: unknown;
    wasted: unknown;
    spent_wei: string;
    wasted_wei: string;
    amount_wei: string;
    held_wei: string;
  }> = await db('paymaster_sponsorships')
    .where('created_at', '>=', since)
    .select(
      db.raw(`to_char(${utcDay}, 'YYYY-MM-DD') as day`),
      db.raw('count(checkout_id) as sponsorships'),
      db.raw(`count(*) filter (where outcome = 'paid') as paid`),
      db.raw(`count(*) filter (where ${wasted}) as wasted`, [...WASTED]),
      db.raw('coalesce(sum(actual_cost_wei), 0)::text as spent_wei'),
      db.raw(`coalesce(sum(actual_cost_wei) filter (where ${wasted}), 0)::text as wasted_wei`, [...WASTED]),
      db.raw(`coalesce(sum(amount_wei) filter (where outcome = 'paid'), 0)::text as amount_wei`),
      db.raw(`coalesce(sum(max_cost_wei) filter (where outcome = 'pending' and valid_until > ?), 0)::text as held_wei`, [
        new Date(now.getTime() - HOLD_AFTER_WINDOW_MS),
      ]),
    )
    .groupByRaw(utcDay)
    .orderByRaw(`${utcDay} desc`)
    .limit(SPONSORED_GAS_DAYS);
  const int = (v: string) => BigInt(v.split('.')[0]!);
  return rows.map((r) => {
    const left = budgetWei - int(r.spent_wei) - int(r.held_wei);
    return {
      day: r.day,
      sponsorships: toCount(r.sponsorships),
      paid: toCount(r.paid),
      wasted: toCount(r.wasted),
      spentWei: int(r.spent_wei).toString(),
      wastedWei: int(r.wasted_wei).toString(),
      amountWei: int(r.amount_wei).toString(),
      budgetLeftWei: (left > 0n ? left : 0n).toString(),
    };
  });
}

const checksummed = (address: string) => getAddress(address.toLowerCase());

/** What the node said, when it answered a JSON-RPC error (never the RPC's address, which may hold a key). */
function rpcMessage(err: unknown): string {
  const said = (err as { error?: { message?: unknown } } | null)?.error?.message;
  return typeof said === 'string' && said.trim() ? said.trim().slice(0, 200) : 'see the server log';
}
