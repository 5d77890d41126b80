/**
 * The chain watcher (docs/payments.md §5): nothing is lost when the shopper's tab dies. It scans
 * the token's Transfer events to the store wallet from a saved cursor up to head − (confirmations
 * − 1), in bounded block ranges, and settles each through the same code as POST /api/orders/create.
 * Transfers that match nothing are kept (status 'unmatched') for the admin. A block hash that no
 * longer matches the chain (a reorganisation) rewinds the cursor and undoes the transfers that
 * vanished; logs flagged `removed` are undone too. One watcher runs per database (LeaderLock).
 */
import type { PaymentsConfig } from '../../config';
import type { ChainClient } from './chain-client';
import type { Db } from '../../db';
import { periodicJob, type Job } from '../../lib/jobs';
import { LeaderLock } from '../../lib/leader-lock';
import type { Logger } from '../../lib/logger';
import type { Outages } from '../../lib/outages';
import { payments } from '../../lib/metrics';
import { getState, setState } from '../../lib/app-state';
import { bumpCatalogueVersion } from '../catalogue';
import { failReorgedOrder, lockOrder } from '../orders';
import type { CheckoutService } from './checkout-service';
import type { SettlementService } from './settlement';
import { paidTowardsOrder } from './settlement-reads';
import type { TransferStatus } from './transfer-status';
import { decodeStoreTransfer, type StoreTransfer } from './verify';
import { lookUpPaidWith, type PayerLookups } from './payer-lookup';
import type { SwapFacts } from './swap-payer';
import { lastConfirmedBlock } from '../../lib/confirmations';

/** Advisory lock key of the watcher ("PAY!"). */
export const WATCHER_LOCK = 0x50415921;
/** How far back a reorganisation is looked for once one is noticed. */
export const REORG_DEPTH = 64;
/** Ranges scanned per tick at most, so a long catch-up yields between ticks. */
const RANGES_PER_TICK = 20;

interface Cursor {
  block: number;
  hash: string | null;
}

export interface TickResult {
  leader: boolean;
  from: number | null;
  to: number | null;
  transfers: number;
  orders: number;
  reorg: boolean;
}

export class ChainWatcher implements Job {
  readonly name = 'chain watcher';
  private readonly loop: Job;
  private readonly lock: LeaderLock;
  private readonly baseCursorKey: string;
  private cursorKey: string | null = null;

  constructor(
    private readonly deps: {
      db: Db;
      dbKind: 'postgres' | 'pglite';
      chain: ChainClient;
      settlement: SettlementService;
      checkouts: CheckoutService;
      config: PaymentsConfig;
      logger: Logger;
      /** Where the outages its passes meet are reported, once each for the process. */
      outages?: Outages;
      /** The swap route's facts (null when no route is set): a transfer from its pools was paid by whoever the chain proves. */
      swap: SwapFacts | null;
      /** Where a fresh database starts scanning: the config's start block, else 0 (local) or the head. */
      startAtGenesis: boolean;
    },
  ) {
    this.lock = new LeaderLock(deps.db, WATCHER_LOCK, deps.dbKind);
    const { chainId, tokenAddress, storeWallet } = deps.chain.target;
    this.baseCursorKey = `chain_cursor:${chainId}:${tokenAddress.toLowerCase()}:${storeWallet.toLowerCase()}`;
    this.loop = periodicJob({
      name: 'chain watcher tick',
      everyMs: deps.config.pollIntervalMs,
      logger: deps.logger,
      outages: deps.outages,
      run: () => this.tick(),
    });
  }

  start(): void {
    this.loop.start();
  }

  /** Also gives up the leadership, so another process's watcher takes over at once. */
  async stop(): Promise<void> {
    await this.loop.stop();
    await this.lock.release();
  }

  /** One pass: expire checkouts, check for a reorg, scan what is new. Safe to call at any time. */
  async tick(): Promise<TickResult> {
    const result: TickResult = { leader: false, from: null, to: null, transfers: 0, orders: 0, reorg: false };
    if (!(await this.lock.acquire())) return result;
    result.leader = true;
    const { chain, config } = this.deps;
    const swept = await this.deps.checkouts.expire();
    if (swept.claimsLapsed) await bumpCatalogueVersion(this.deps.db, { variantIds: swept.lapsedVariants });

    const head = await chain.blockNumber();
    const safe = lastConfirmedBlock(head, config.requiredConfirmations);
    let cursor = await getState<Cursor>(this.deps.db, await this.key());
    if (!cursor) {
      const start = config.startBlock ?? (this.deps.startAtGenesis ? 0 : safe);
      cursor = { block: start - 1, hash: null };
    }
    if (cursor.hash && cursor.block >= 0 && (await chain.blockHash(cursor.block)) !== cursor.hash) {
      result.reorg = true;
      cursor = await this.rewind(cursor.block);
    }

    for (let i = 0; i < RANGES_PER_TICK && cursor.block < safe; i++) {
      const from = cursor.block + 1;
      const to = Math.min(safe, from + config.logRange - 1);
      const logs = await chain.storeTransferLogs(from, to);
      const lookups: PayerLookups = new Map();
      for (const log of logs) {
        const transfer = decodeStoreTransfer(log, chain.target.chainId, chain.target.tokenAddress, chain.target.storeWallet);
        if (!transfer) continue;
        result.transfers++;
        if (transfer.removed) {
          await this.undo(transfer);
          continue;
        }
        // Who paid it, before it is recorded: a chain that does not answer ends the pass here, and
        // the range is scanned again on the next one (its transfers settled so far are kept once).
        const paidWith = await lookUpPaidWith(chain, this.deps.swap, transfer, lookups);
        // Settlement logs what it judged, and the order it made (once, whoever presented the transfer).
        const settled = await this.deps.settlement.settle({ ...transfer, paidWith }, 'watcher');
        if (settled.kind === 'order' && settled.created) result.orders++;
      }
      cursor = { block: to, hash: await chain.blockHash(to) };
      await setState(this.deps.db, await this.key(), cursor);
      result.from ??= from;
      result.to = to;
    }
    return result;
  }

  /**
   * Blocks between `head` and the last block scanned, read from the database (so any instance,
   * leader or not, can tell); null before the first scan.
   */
  async lagBlocks(head: number): Promise<number | null> {
    const cursor = await getState<Cursor>(this.deps.db, await this.key());
    return cursor ? Math.max(0, head - cursor.block) : null;
  }

  /**
   * Where the cursor is kept. The local chain can be started afresh (its state file lost): the same
   * token address then names another chain, whose differing hashes are not a reorganisation of the
   * old one. Its genesis block tells them apart.
   */
  private async key(): Promise<string> {
    this.cursorKey ??= this.deps.startAtGenesis ? `${this.baseCursorKey}:${await this.deps.chain.blockHash(0)}` : this.baseCursorKey;
    return this.cursorKey;
  }

  /**
   * The block under the cursor changed: find how far back the chain still agrees with what was
   * recorded, undo transfers in blocks that are gone, and scan again from there.
   */
  private async rewind(block: number): Promise<Cursor> {
    const { db, chain, logger } = this.deps;
    const floor = Math.max(block - REORG_DEPTH, 0);
    const recorded: Array<{ tx_hash: string; log_index: number; block_number: string; block_hash: string }> = await db('chain_transfers')
      .where({ chain_id: chain.target.chainId })
      .where('block_number', '>', floor)
      .whereNot('status', 'removed' satisfies TransferStatus)
      .select('tx_hash', 'log_index', 'block_number', 'block_hash');
    let undone = 0;
    for (const row of recorded) {
      if ((await chain.blockHash(Number(row.block_number))) === row.block_hash) continue;
      const receipt = await chain.receipt(row.tx_hash);
      const log = receipt?.status === 1 ? receipt.logs.find((l) => l.logIndex === row.log_index) : undefined;
      const moved = log ? decodeStoreTransfer(log, chain.target.chainId, chain.target.tokenAddress, chain.target.storeWallet) : null;
      if (moved) {
        // Re-included in another block: still paid; the rescan updates where.
        await db('chain_transfers')
          .where({ chain_id: chain.target.chainId, tx_hash: row.tx_hash, log_index: row.log_index })
          .update({ block_number: moved.blockNumber, block_hash: moved.blockHash });
        continue;
      }
      await this.undo({ chainId: chain.target.chainId, txHash: row.tx_hash, logIndex: row.log_index } as StoreTransfer);
      undone++;
    }
    logger.warn({ block, rescanFrom: floor + 1, undone }, 'chain reorganisation detected; rescanning');
    return { block: floor, hash: floor >= 0 ? await chain.blockHash(floor) : null };
  }

  /**
   * A transfer that is no longer on chain: mark it removed; an order it helped pay fails (unless
   * shipped) when what is left no longer covers it. A partial payment simply stops counting.
   */
  private async undo(transfer: Pick<StoreTransfer, 'chainId' | 'txHash' | 'logIndex'>): Promise<void> {
    let removed = false;
    await this.deps.db.transaction(async (trx) => {
      removed = false;
      const key = { chain_id: transfer.chainId, tx_hash: transfer.txHash, log_index: transfer.logIndex };
      const row: { id: number; status: TransferStatus; order_id: string | null } | undefined = await trx('chain_transfers')
        .where(key)
        .forUpdate()
        .first('id', 'status', 'order_id');
      // A refunded transfer keeps its status: it must never count again, even if it comes back.
      if (!row || row.status === 'removed' || row.status === 'refunded') return;
      await trx('chain_transfers')
        .where({ id: row.id })
        .update({ status: 'removed' satisfies TransferStatus, note: 'removed by a chain reorganisation', updated_at: new Date() });
      removed = true;
      if (!row.order_id) return;
      const order = await lockOrder(trx, row.order_id);
      if ((await paidTowardsOrder(trx, order.id)) >= BigInt(order.total_wei)) return;
      if (!(await failReorgedOrder(trx, order, new Date()))) {
        // An order a reorganisation already failed (its other transfer went first) needs nothing
        // more; one that cannot fail any more has shipped without its payment: a person must look.
        if (order.status !== 'failed') {
          this.deps.logger.error(
            { orderId: order.id, status: order.status },
            'the payment of a shipped order vanished in a chain reorganisation',
          );
        }
        return;
      }
      this.deps.logger.warn({ orderId: order.id, txHash: transfer.txHash }, 'order failed: its payment was reorganised away');
    });
    if (removed) {
      payments.inc({ outcome: 'reorged' });
      this.deps.logger.warn({ txHash: transfer.txHash, logIndex: transfer.logIndex }, 'payment removed by a chain reorganisation');
    }
  }
}
