/**
 * The admin's view of the gas the shop pays (GET /api/admin/paymaster, docs/payments.md §9): the
 * paymaster's deposit left in the EntryPoint, read from the chain (`balanceOf`, through the shop's
 * chain client and its timeout), and the sponsorships signed per UTC day over the last
 * {@link SPONSORED_GAS_DAYS} days, read from `paymaster_sponsorships` (one grouped range read on
 * its `created_at` index: bench/README.md, sponsored-gas.ts). A chain that does not answer makes
 * the deposit null with the reason, never a failed answer: the days are still worth seeing.
 */
import { getAddress, Interface } from 'ethers';
import { SPONSORED_GAS_DAYS, type SponsoredGas, type SponsoredGasDay } from '../../../common/sponsored-gas';
import type { Db } from '../../db';
import { toCount } from '../../db';
import type { Logger } from '../../lib/logger';
import { unavailableCause } from '../../lib/unavailable';
import { GAS_LIMITS } from './service';
import { PAYMASTER_GAS } from './sponsor';

const ENTRY_POINT = new Interface(['function balanceOf(address account) view returns (uint256)']);
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The most one sponsored operation can take from the deposit: every gas limit the shop allows
 * (the paymaster's own included) at its highest fee. The EntryPoint (v0.8) holds this much back
 * as the operation's prefund, and refuses the operation when the deposit is less.
 */
const MAX_OPERATION_COST_WEI =
  (GAS_LIMITS.callGasLimit +
    GAS_LIMITS.verificationGasLimit +
    GAS_LIMITS.preVerificationGas +
    PAYMASTER_GAS.verificationGasLimit +
    PAYMASTER_GAS.postOpGasLimit) *
  GAS_LIMITS.maxFeePerGas;

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
  /** The clock that decides today (the sponsorships are recorded with the wall clock). */
  now?: () => Date;
}

export class SponsoredGasReport {
  constructor(
    private readonly db: Db,
    private readonly deps: SponsoredGasDeps,
  ) {}

  /** The deposit left and the sponsorships per day, newest first (days with none are left out). */
  async read(): Promise<SponsoredGas> {
    const now = this.deps.now?.() ?? new Date();
    const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
    const since = new Date(today - (SPONSORED_GAS_DAYS - 1) * DAY_MS);
    const [deposit, days] = await Promise.all([this.deposit(), sponsorshipsPerDay(this.db, since)]);
    const { paymasterAddress, entryPoint } = this.deps;
    return {
      enabled: true,
      entryPoint: checksummed(entryPoint),
      paymaster: paymasterAddress && checksummed(paymasterAddress),
      ...deposit,
      maxOperationCostWei: MAX_OPERATION_COST_WEI.toString(),
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

/** The sponsorships signed from `since` on, per UTC day, newest first. */
async function sponsorshipsPerDay(db: Db, since: Date): Promise<SponsoredGasDay[]> {
  // Grouped by the day as a timestamp (cheaper to hash and sort than its text), written out after.
  const utcDay = `date_trunc('day', created_at at time zone 'UTC')`;
  const rows: Array<{ day: string; sponsorships: unknown; amount_wei: string }> = await db('paymaster_sponsorships')
    .where('created_at', '>=', since)
    .select(
      db.raw(`to_char(${utcDay}, 'YYYY-MM-DD') as day`),
      db.raw('count(*) as sponsorships'),
      db.raw('sum(amount_wei)::text as amount_wei'),
    )
    .groupByRaw(utcDay)
    .orderByRaw(`${utcDay} desc`)
    .limit(SPONSORED_GAS_DAYS);
  return rows.map((r) => ({ day: r.day, sponsorships: toCount(r.sponsorships), amountWei: r.amount_wei }));
}

const checksummed = (address: string) => getAddress(address.toLowerCase());

/** What the node said, when it answered a JSON-RPC error (never the RPC's address, which may hold a key). */
function rpcMessage(err: unknown): string {
  const said = (err as { error?: { message?: unknown } } | null)?.error?.message;
  return typeof said === 'string' && said.trim() ? said.trim().slice(0, 200) : 'see the server log';
}
