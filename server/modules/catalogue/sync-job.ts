/**
 * Catalogue syncs as background jobs, one at a time for the whole shop. Each is a row of
 * `catalogue_sync_runs`; the database allows one 'running' row (a unique index), so a start on
 * any server instance either inserts it or finds the running one. The instance that inserted it
 * runs the sync, writes its progress to the row (at most twice a second) and renews its lease; a
 * running row whose lease ran out belongs to an instance that stopped, and is ended as failed by
 * the next start or status read.
 */
import type { SyncJob, SyncResult } from '../../../common/api';
import type { Db } from '../../db';
import { ErrorCode } from '../../../common/errors';
import { AppError } from '../../lib/errors';
import type { Logger } from '../../lib/logger';
import type { SyncProgress } from './sync';
import { queueWebhookEvent } from '../outgoing-webhooks';

export interface SyncJobOptions {
  /** How long a running row stays the running instance's without a renewal (default 2 minutes). */
  leaseMs?: number;
  /** How often the lease is renewed (default 20 s). */
  heartbeatMs?: number;
  /** Fewest milliseconds between two progress writes (default 500). */
  progressEveryMs?: number;
}

interface SyncRunRow {
  id: string | number;
  status: SyncJob['status'];
  trigger: string;
  phase: SyncJob['phase'];
  method: SyncJob['method'];
  products_read: number;
  total: number | null;
  started_at: Date | string;
  finished_at: Date | string | null;
  error: string | null;
  result: SyncResult | string | null;
}

export interface SyncStart {
  job: SyncJob;
  /** False: a sync was already running (this is it). */
  started: boolean;
  /** This instance's run, when `started`: its result, or its failure. */
  done?: Promise<SyncResult>;
}

const iso = (d: Date | string | null): string | null => (d == null ? null : new Date(d).toISOString());

function toJob(r: SyncRunRow): SyncJob {
  return {
    id: String(r.id),
    status: r.status,
    trigger: r.trigger,
    phase: r.phase,
    method: r.method,
    productsRead: r.products_read,
    total: r.total,
    startedAt: iso(r.started_at)!,
    finishedAt: iso(r.finished_at),
    error: r.error,
    result: typeof r.result === 'string' ? (JSON.parse(r.result) as SyncResult) : r.result,
  };
}

/** What the admin reads about a failed sync: what happened, and that the shop kept its catalogue. */
function failureText(err: unknown): string {
  const detail = err instanceof Error ? err.message : String(err);
  const text =
    err instanceof AppError && err.code === ErrorCode.shopifyUnavailable
      ? `Shopify did not answer (${detail}); the shop keeps the catalogue of the last sync. Try again in a few minutes.`
      : err instanceof AppError
        ? err.message
        : `The sync failed (${detail}); the shop keeps the catalogue of the last sync.`;
  return text.slice(0, 1000);
}

const ABANDONED = 'The server running this sync stopped before it finished; start it again';

export class SyncJobs {
  private readonly leaseMs: number;
  private readonly heartbeatMs: number;
  private readonly progressEveryMs: number;
  /** Starts in this process, one after another (a start is two statements). */
  private starting: Promise<unknown> = Promise.resolve();
  private local: Promise<SyncResult> | null = null;

  constructor(
    private readonly db: Db,
    private readonly run: (report: (p: SyncProgress) => void) => Promise<SyncResult>,
    private readonly logger?: Logger,
    opts: SyncJobOptions = {},
  ) {
    this.leaseMs = opts.leaseMs ?? 120_000;
    this.heartbeatMs = opts.heartbeatMs ?? 20_000;
    this.progressEveryMs = opts.progressEveryMs ?? 500;
  }

  /** Whether this process runs a sync now. */
  get runningHere(): boolean {
    return this.local !== null;
  }

  /**
   * Starts a sync unless one runs (anywhere); `after` runs once it succeeded, before the job is
   * marked ended (the admin's audit entry).
   */
  start(trigger: string, after?: (result: SyncResult) => Promise<void>): Promise<SyncStart> {
    const next = this.starting.then(() => this.startNow(trigger, after));
    this.starting = next.catch(() => undefined);
    return next;
  }

  /** The latest sync, running or ended (null before the first). */
  async latest(): Promise<SyncJob | null> {
    await this.endAbandoned();
    const row = await this.db<SyncRunRow>('catalogue_sync_runs').orderBy('id', 'desc').first();
    return row ? toJob(row) : null;
  }

  private async endAbandoned(): Promise<void> {
    await this.db('catalogue_sync_runs')
      .where({ status: 'running' })
      .where('lease_until', '<', this.db.fn.now())
      .update({ status: 'failed', error: ABANDONED, finished_at: this.db.fn.now() });
  }

  private async startNow(trigger: string, after?: (result: SyncResult) => Promise<void>): Promise<SyncStart> {
    await this.endAbandoned();
    const inserted = await this.db.raw(
      `insert into catalogue_sync_runs (status, trigger, phase, lease_until)
       values ('running', ?, 'starting', now() + ? * interval '1 millisecond')
       on conflict do nothing returning *`,
      [trigger, this.leaseMs],
    );
    const row = inserted.rows[0] as SyncRunRow | undefined;
    if (!row) {
      const running = await this.db<SyncRunRow>('catalogue_sync_runs').where({ status: 'running' }).first();
      // It ended between the insert and this read: show the latest.
      const job = running ? toJob(running) : await this.latest();
      if (!job) throw new Error('catalogue sync: no running sync found after a refused start');
      return { job, started: false };
    }
    const done = this.execute(row.id, after);
    this.local = done;
    void done.then(
      () => {},
      () => {},
    );
    return { job: toJob(row), started: true, done };
  }

  private async execute(id: string | number, after?: (result: SyncResult) => Promise<void>): Promise<SyncResult> {
    const runs = () => this.db('catalogue_sync_runs').where({ id, status: 'running' });
    // Progress and lease writes, one after another; the final write waits for them.
    let writes: Promise<unknown> = Promise.resolve();
    const write = (change: Record<string, unknown>) => {
      writes = writes
        .then(() => runs().update({ ...change, lease_until: this.db.raw(`now() + ? * interval '1 millisecond'`, [this.leaseMs]) }))
        .catch((err) => this.logger?.warn({ err }, 'catalogue sync: progress not recorded'));
    };
    let lastWrite = 0;
    let lastPhase: string | null = null;
    const report = (p: SyncProgress) => {
      const at = Date.now();
      if (p.phase === lastPhase && at - lastWrite < this.progressEveryMs) return;
      lastPhase = p.phase;
      lastWrite = at;
      write({ phase: p.phase, method: p.method, products_read: p.productsRead, total: p.total });
    };
    const heartbeat = setInterval(() => write({}), this.heartbeatMs);
    heartbeat.unref();
    try {
      const result = await this.run(report);
      await after?.(result).catch((err) => this.logger?.error({ err }, 'catalogue sync: after-sync step failed'));
      clearInterval(heartbeat);
      await writes;
      // The run's end and the merchant's webhook event `catalogue.synced` (docs/webhooks.md) in one transaction.
      await this.db.transaction(async (trx) => {
        const ended = await trx('catalogue_sync_runs')
          .where({ id, status: 'running' })
          .update({
            status: 'succeeded',
            phase: 'done',
            method: result.method ?? null,
            products_read: result.products,
            total: result.products,
            result: JSON.stringify(result),
            finished_at: trx.fn.now(),
          });
        if (ended) await queueWebhookEvent(trx, 'catalogue.synced', `catalogue.synced:${id}`, new Date(), { subject: String(id) });
      });
      return result;
    } catch (err) {
      clearInterval(heartbeat);
      await writes;
      const message = failureText(err);
      await runs()
        .update({ status: 'failed', error: message, finished_at: this.db.fn.now() })
        .catch((e) => this.logger?.error({ err: e }, 'catalogue sync: failure not recorded'));
      throw err;
    } finally {
      this.local = null;
    }
  }
}
