/**
 * The sponsorship watcher: what each sponsorship really cost, and whether it paid its checkout.
 * It scans the EntryPoint's UserOperationEvent logs of the shop's paymaster (a hosted sponsor's:
 * the paymasters its answers named) from a saved cursor up to head − (confirmations − 1), in
 * bounded block ranges, and settles the sponsorship of each event's account and nonce:
 *
 * - `paid`: the operation ran and its transaction carries the token's Transfer of the checkout's
 *   amount from the account to the store wallet;
 * - `reverted`: the operation's call failed (the EntryPoint still charged the paymaster);
 * - `unpaid`: it ran without that transfer (an account whose code no longer does what it said).
 * Reverted and unpaid are wasted: that account is sponsored no more (sponsorship-ledger.ts). An
 * event of the shop's own paymaster for an operation it has no sponsorship of is recorded as
 * `unrecorded` (its deposit paid it: it counts against the budget) and logged as an error: only
 * the signer key makes such an operation pass. Each event's real cost replaces the most held for
 * it in the budget, and is counted (pogs_paymaster_spent_wei_total). One watcher runs per database.
 */
import { getAddress, Interface, zeroPadValue } from 'ethers';
import type { Db } from '../../db';
import { getState, setState } from '../../lib/app-state';
import { periodicJob, type Job } from '../../lib/jobs';
import { LeaderLock } from '../../lib/leader-lock';
import type { Logger } from '../../lib/logger';
import type { Outages } from '../../lib/outages';
import { paymasterSpent } from '../../lib/metrics';
import type { SponsorshipOutcome } from './sponsorship-ledger';
import { lastConfirmedBlock } from '../../lib/confirmations';

/** Advisory lock key of the watcher ("OPS!"). */
const WATCHER_LOCK = 0x4f505321;
/** Ranges scanned per tick at most, so a long catch-up yields between ticks. */
const RANGES_PER_TICK = 20;
/** How far back a hosted sponsor's sponsorships are looked for: their windows end well within it. */
const OPEN_LOOKBACK_MS = 24 * 60 * 60_000;

const ENTRY_POINT = new Interface([
  'event UserOperationEvent(bytes32 indexed userOpHash, address indexed sender, address indexed paymaster, uint256 nonce, bool success, uint256 actualGasCost, uint256 actualGasUsed)',
]);
const USER_OPERATION_EVENT = ENTRY_POINT.getEvent('UserOperationEvent')!.topicHash;
const TRANSFER_TOPIC = new Interface(['event Transfer(address indexed from, address indexed to, uint256 value)']).getEvent(
  'Transfer',
)!.topicHash;

interface RpcLog {
  address: string;
  topics: string[];
  data: string;
  transactionHash: string;
  blockNumber: string;
  removed?: boolean;
}

/** What the watcher needs of the chain (payments' ChainClient). */
export interface WatchedChain {
  request(method: string, params: unknown[]): Promise<unknown>;
  blockNumber(): Promise<number>;
  blockHash(n: number): Promise<string | null>;
}

export interface SettledEvent {
  userOpHash: string;
  sender: string;
  paymaster: string;
  nonce: bigint;
  success: boolean;
  actualGasCost: bigint;
  actualGasUsed: bigint;
  txHash: string;
}

export class SponsorshipWatcher implements Job {
  readonly name = 'sponsorship watcher';
  private readonly loop: Job;
  private readonly lock: LeaderLock;
  private cursorKey: string | null = null;

  constructor(
    private readonly deps: {
      db: Db;
      dbKind: 'postgres' | 'pglite';
      chain: WatchedChain;
      chainId: number;
      entryPoint: string;
      /** The shop's own paymaster; null with a hosted sponsor (its paymasters are read from the book). */
      ownPaymaster: string | null;
      tokenAddress: string;
      storeWallet: string;
      requiredConfirmations: number;
      logRange: number;
      pollIntervalMs: number;
      /** Where a fresh database starts: block 0 (the local chain, whose state it may have lost) or the head. */
      startAtGenesis: boolean;
      logger: Logger;
      /** Where the outages its passes meet are reported, once each for the process. */
      outages?: Outages;
      now?: () => Date;
    },
  ) {
    this.lock = new LeaderLock(deps.db, WATCHER_LOCK, deps.dbKind);
    this.loop = periodicJob({
      name: 'sponsorship watcher tick',
      everyMs: deps.pollIntervalMs,
      logger: deps.logger,
      outages: deps.outages,
      run: () => this.tick(),
    });
  }

  start(): void {
    this.loop.start();
  }

  async stop(): Promise<void> {
    await this.loop.stop();
    await this.lock.release();
  }

  /** One pass over what is new; answers the events it settled. Safe to call at any time. */
  async tick(): Promise<number> {
    if (!(await this.lock.acquire())) return 0;
    const { chain, db } = this.deps;
    const safe = lastConfirmedBlock(await chain.blockNumber(), this.deps.requiredConfirmations);
    const key = await this.key();
    let cursor = (await getState<{ block: number }>(db, key))?.block ?? (this.deps.startAtGenesis ? -1 : safe - 1);
    let settled = 0;
    for (let i = 0; i < RANGES_PER_TICK && cursor < safe; i++) {
      const from = cursor + 1;
      const to = Math.min(safe, from + this.deps.logRange - 1);
      for (const event of await this.events(from, to)) {
        await this.settle(event);
        settled++;
      }
      cursor = to;
      await setState(db, key, { block: cursor });
    }
    return settled;
  }

  /** The UserOperationEvents of the paymasters the shop's sponsorships go through, in [from, to]. */
  private async events(from: number, to: number): Promise<SettledEvent[]> {
    const paymasters = this.deps.ownPaymaster ? [this.deps.ownPaymaster] : await this.hostedPaymasters();
    if (!paymasters.length) return [];
    const logs = (await this.deps.chain.request('eth_getLogs', [
      {
        address: this.deps.entryPoint,
        topics: [USER_OPERATION_EVENT, null, null, paymasters.map((p) => zeroPadValue(p, 32))],
        fromBlock: `0x${from.toString(16)}`,
        toBlock: `0x${to.toString(16)}`,
      },
    ])) as RpcLog[];
    return logs
      .filter((log) => !log.removed)
      .map((log) => {
        const parsed = ENTRY_POINT.parseLog(log)!;
        return {
          userOpHash: String(parsed.args.userOpHash),
          sender: getAddress(parsed.args.sender).toLowerCase(),
          paymaster: getAddress(parsed.args.paymaster).toLowerCase(),
          nonce: parsed.args.nonce as bigint,
          success: parsed.args.success as boolean,
          actualGasCost: parsed.args.actualGasCost as bigint,
          actualGasUsed: parsed.args.actualGasUsed as bigint,
          txHash: log.transactionHash,
        };
      });
  }

  /** The paymasters a hosted sponsor named for sponsorships still open (a short list: the provider's one or two). */
  private async hostedPaymasters(): Promise<string[]> {
    const rows: Array<{ paymaster: string }> = await this.deps
      .db('paymaster_sponsorships')
      .where({ outcome: 'pending' satisfies SponsorshipOutcome })
      .where('created_at', '>', new Date(this.now().getTime() - OPEN_LOOKBACK_MS))
      .whereNotNull('paymaster')
      .distinct('paymaster')
      .limit(20);
    return rows.map((r) => r.paymaster);
  }

  /** Settles the sponsorship `event` is the outcome of (once: an event seen again changes nothing). */
  async settle(event: SettledEvent): Promise<SponsorshipOutcome> {
    const { db, logger } = this.deps;
    const row:
      | { id: number; checkout_id: string | null; amount_wei: string | null; outcome: SponsorshipOutcome; user_op_hash: string | null }
      | undefined = await db('paymaster_sponsorships')
      .where({ sender: event.sender, nonce: event.nonce.toString() })
      .orderBy('id', 'desc')
      .first('id', 'checkout_id', 'amount_wei', 'outcome', 'user_op_hash');
    if (row && row.user_op_hash === event.userOpHash) return row.outcome;
    const facts = {
      user_op_hash: event.userOpHash,
      tx_hash: event.txHash,
      actual_cost_wei: event.actualGasCost.toString(),
      actual_gas_used: event.actualGasUsed.toString(),
      settled_at: this.now(),
    };
    if (!row || row.outcome !== 'pending') {
      // Only the shop's own paymaster's events without a sponsorship are its business: a hosted
      // provider's paymaster pays other shops' operations too.
      if (!this.deps.ownPaymaster) return 'unrecorded';
      await db('paymaster_sponsorships').insert({
        sender: event.sender,
        nonce: event.nonce.toString(),
        paymaster: event.paymaster,
        outcome: 'unrecorded' satisfies SponsorshipOutcome,
        created_at: this.now(),
        ...facts,
      });
      paymasterSpent.inc({ outcome: 'unrecorded' }, Number(event.actualGasCost));
      logger.error(
        { sender: event.sender, nonce: event.nonce.toString(), txHash: event.txHash, costWei: event.actualGasCost.toString() },
        'paymaster: the deposit paid for an operation the shop did not sponsor (is the signer key in other hands?)',
      );
      return 'unrecorded';
    }
    const outcome: SponsorshipOutcome = !event.success
      ? 'reverted'
      : (await this.paidCheckout(event, BigInt(row.amount_wei ?? '0')))
        ? 'paid'
        : 'unpaid';
    await db('paymaster_sponsorships')
      .where({ id: row.id })
      .update({ outcome, ...facts });
    paymasterSpent.inc({ outcome }, Number(event.actualGasCost));
    const log = {
      checkoutId: row.checkout_id,
      sender: event.sender,
      outcome,
      costWei: event.actualGasCost.toString(),
      txHash: event.txHash,
    };
    if (outcome === 'paid') logger.info(log, 'paymaster: a sponsored payment landed');
    else logger.warn(log, 'paymaster: a sponsored operation did not pay its checkout; its account is sponsored no more');
    return outcome;
  }

  /**
   * Whether the event's transaction carries the shop token's Transfer of `amount` from the account
   * to the store wallet (a log of the token contract itself: any contract can emit a look-alike).
   */
  private async paidCheckout(event: SettledEvent, amount: bigint): Promise<boolean> {
    const receipt = (await this.deps.chain.request('eth_getTransactionReceipt', [event.txHash])) as { logs?: RpcLog[] } | null;
    const from = zeroPadValue(event.sender, 32);
    const to = zeroPadValue(this.deps.storeWallet, 32).toLowerCase();
    const token = this.deps.tokenAddress.toLowerCase();
    return (receipt?.logs ?? []).some(
      (log) =>
        log.address.toLowerCase() === token &&
        log.topics[0] === TRANSFER_TOPIC &&
        log.topics[1]?.toLowerCase() === from &&
        log.topics[2]?.toLowerCase() === to &&
        BigInt(log.data) === amount,
    );
  }

  /** The cursor's key; on the local chain, with its genesis (a chain started afresh is another chain). */
  private async key(): Promise<string> {
    const base = `paymaster_cursor:${this.deps.chainId}:${this.deps.entryPoint.toLowerCase()}`;
    this.cursorKey ??= this.deps.startAtGenesis ? `${base}:${await this.deps.chain.blockHash(0)}` : base;
    return this.cursorKey;
  }

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }
}
