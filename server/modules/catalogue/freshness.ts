/**
 * How an instance knows its in-memory catalogue is still current without asking the database on
 * every request.
 *
 * Every change bumps the catalogue version (app_state) and, in the same transaction,
 * `pg_notify('catalogue_changed', '<schema>:<version>')`, which Postgres (and PGlite) deliver at
 * commit to every listener. This instance keeps one connection LISTENing and learns each committed
 * version from it; a change made by this process is also learned directly once its transaction
 * commits, so its own next read already sees it. The snapshot is current while its version is at
 * least the newest version learned.
 *
 * While the LISTEN connection is down (and until it is up), the version is read from the database
 * every `stalenessMs` instead (bounded staleness), and once after each (re)connection, since
 * notifications sent meanwhile were lost. Reconnection backs off up to 5 s.
 */
import pg from 'pg';
import type { Knex } from 'knex';
import type { Db } from '../../db';
import { dbKind } from '../../db';
import type { Logger } from '../../lib/logger';
import { getState } from '../../lib/app-state';
import type { Outages } from '../../lib/outages';
import type { Job } from '../../lib/jobs';

export const CATALOGUE_CHANNEL = 'catalogue_changed';
/** The app-state key of the catalogue version. */
export const CATALOGUE_VERSION = 'catalogue_version';

const MAX_BACKOFF_MS = 5000;

/** A notification's payload, `<schema>:<version>`; null when it is another schema's (or not ours at all). */
export function parseChange(payload: string | undefined, schema: string): number | null {
  if (!payload) return null;
  const at = payload.lastIndexOf(':');
  if (at < 0 || payload.slice(0, at) !== schema) return null;
  const version = payload.slice(at + 1);
  return /^\d{1,15}$/.test(version) ? Number(version) : null;
}

/** The wait before reconnection attempt `attempt` (0 first): doubling from `firstMs`, at most 5 s. */
export function reconnectDelay(attempt: number, firstMs: number): number {
  return Math.min(MAX_BACKOFF_MS, firstMs * 2 ** Math.min(attempt, 20));
}

// What this process committed, by database (knex's config object, shared by its transactions):
// each instance on that database learns the version as soon as the transaction commits.
const localListeners = new Map<unknown, Set<(version: number) => void>>();

const databaseKey = (db: Db): unknown => db.client.config;

/** Called by bumpCatalogueVersion: tells this process's instances on `db` once `version` is committed. */
export function announceCommitted(db: Db, version: number): void {
  const tell = () => {
    for (const listener of localListeners.get(databaseKey(db)) ?? []) listener(version);
  };
  if (!db.isTransaction) return tell();
  // Committed only when every enclosing transaction (and savepoint) is.
  const levels: Array<Promise<unknown>> = [];
  for (let t = db as Knex.Transaction & { executionPromise?: Promise<unknown>; parentTransaction?: unknown }; t;) {
    if (t.executionPromise) levels.push(t.executionPromise);
    t = t.parentTransaction as typeof t;
  }
  Promise.all(levels).then(tell, () => undefined);
}

export interface FreshnessOptions {
  stalenessMs: number;
  /** Where a lost database is reported (once per outage) instead of a warning per attempt. */
  outages?: Outages;
  /** The first reconnection wait (doubling, at most 5 s). */
  reconnectMs?: number;
  logger?: Logger;
}

/**
 * A background job (registered in server/workers.ts): it listens for catalogue changes, with a
 * poll of the version while it cannot. The list also starts it on its first read, as a request
 * can come before the workers start.
 */
export class CatalogueFreshness implements Job {
  readonly name = 'catalogue freshness';
  /** The newest committed catalogue version this instance knows of. */
  private latest = 0;
  private started = false;
  private closed = false;
  private listening = false;
  private versionReads = 0;
  private client: pg.Client | null = null;
  private unlisten: (() => Promise<void>) | null = null;
  private pollTimer: NodeJS.Timeout | null = null;
  private retryTimer: NodeJS.Timeout | null = null;
  private wakeRetry: (() => void) | null = null;
  private schema: string | null = null;
  private loop: Promise<void> | null = null;
  private readonly onLocal = (version: number) => this.learn(version);

  constructor(
    private readonly db: Db,
    private readonly opts: FreshnessOptions,
  ) {}

  /** Whether a snapshot built at `version` is still the newest known. */
  isCurrent(version: number): boolean {
    return version >= this.latest;
  }

  /**
   * A build read `version` after this instance had learned `knownAtStart`. A committed version never
   * goes back, so a smaller one means what was learned was wrong: trust the database.
   */
  builtAt(version: number, knownAtStart: number): void {
    if (version < knownAtStart) {
      this.opts.logger?.warn({ version, knownAtStart }, 'catalogue version went back; trusting the database');
      this.latest = version;
    } else this.learn(version);
  }

  get known(): number {
    return this.latest;
  }

  /** For tests and logs: whether notifications are heard, and how often the version was read. */
  state(): { listening: boolean; versionReads: number; pid: number | null } {
    const pid = (this.client as unknown as { processID?: number } | null)?.processID ?? null;
    return { listening: this.listening, versionReads: this.versionReads, pid };
  }

  /** Starts listening (and the fallback poll); idempotent. */
  start(): void {
    if (this.started || this.closed) return;
    this.started = true;
    let set = localListeners.get(databaseKey(this.db));
    if (!set) localListeners.set(databaseKey(this.db), (set = new Set()));
    set.add(this.onLocal);
    this.pollTimer = setInterval(() => {
      if (!this.listening) void this.readVersion();
    }, this.opts.stalenessMs);
    this.pollTimer.unref();
    this.loop = this.listenLoop();
  }

  /** As a job: stopped with the other workers, for good (see close). */
  stop(): Promise<void> {
    return this.close();
  }

  async close(): Promise<void> {
    this.closed = true;
    localListeners.get(databaseKey(this.db))?.delete(this.onLocal);
    if (this.pollTimer) clearInterval(this.pollTimer);
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.wakeRetry?.();
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
    await this.unlisten?.().catch(() => undefined);
    await this.loop;
  }

  private learn(version: number): void {
    if (version > this.latest) this.latest = version;
  }

  private async readVersion(): Promise<void> {
    try {
      this.versionReads++;
      this.learn(Number((await getState<number>(this.db, CATALOGUE_VERSION)) ?? 0));
      this.opts.outages?.up('database');
    } catch (err) {
      if (!this.opts.outages?.report(err))
        this.opts.logger?.warn({ err }, 'could not read the catalogue version; serving the list as it was');
    }
  }

  private async listenLoop(): Promise<void> {
    for (let attempt = 0; !this.closed; attempt++) {
      try {
        this.schema ??= String((await this.db.raw('select current_schema() as s')).rows[0].s);
        const { ended } = dbKind(this.db) === 'postgres' ? await this.listenPostgres() : await this.listenPgLite();
        this.listening = true;
        attempt = -1;
        this.opts.logger?.debug('catalogue: listening for changes');
        // Whatever changed while nobody listened.
        await this.readVersion();
        await ended;
      } catch (err) {
        if (this.closed) break;
        if (!this.opts.outages?.report(err))
          this.opts.logger?.warn({ err }, 'catalogue: change notifications lost; reading the version every few seconds');
      }
      this.listening = false;
      if (this.closed) break;
      await new Promise<void>((resolve) => {
        this.wakeRetry = resolve;
        this.retryTimer = setTimeout(resolve, reconnectDelay(Math.max(0, attempt), this.opts.reconnectMs ?? 250));
        this.retryTimer.unref();
      });
    }
  }

  private onPayload = (payload: string | undefined) => {
    const version = parseChange(payload, this.schema ?? '');
    if (version !== null) this.learn(version);
  };

  /** A dedicated connection with knex's settings; resolves once LISTENing, with a promise that settles when it is lost. */
  private async listenPostgres(): Promise<{ ended: Promise<void> }> {
    const settings = this.db.client.config.connection as pg.ClientConfig;
    const client = new pg.Client(settings);
    const ended = new Promise<void>((resolve, reject) => {
      client.on('error', reject);
      client.on('end', () => reject(new Error('the LISTEN connection ended')));
    });
    ended.catch(() => undefined);
    client.on('notification', (msg) => {
      if (msg.channel === CATALOGUE_CHANNEL) this.onPayload(msg.payload);
    });
    this.client = client;
    await client.connect();
    if (this.closed) {
      await client.end();
      throw new Error('closed');
    }
    await client.query(`LISTEN ${CATALOGUE_CHANNEL}`);
    return { ended };
  }

  /** PGlite runs in this process: its own listen(), which ends only with the database. */
  private async listenPgLite(): Promise<{ ended: Promise<void> }> {
    const pglite = (this.db.client as unknown as { pglite?: { listen(c: string, cb: (p: string) => void): Promise<() => Promise<void>> } })
      .pglite;
    if (!pglite) throw new Error('no PGlite instance to listen on');
    this.unlisten = await pglite.listen(CATALOGUE_CHANNEL, this.onPayload);
    // Settles when close() wakes the loop.
    const ended = new Promise<void>((resolve) => {
      this.wakeRetry = resolve;
    });
    return { ended };
  }
}
