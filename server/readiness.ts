/**
 * Whether traffic should come to this instance (`GET /api/health/ready`), as opposed to whether it
 * is alive at all (`/api/health/live`, always yes while it serves). Ready means:
 *
 *  - database: it answers, within a couple of seconds;
 *  - migrations: none of this version's is pending (a newer version's extra ones are fine: it keeps
 *    serving while instances roll);
 *  - chain: the RPC answers, its head is fresh (on Base: a block from the last minute), and the chain
 *    watcher is at most READY_MAX_WATCHER_LAG_BLOCKS behind it (the watcher's cursor is in the
 *    database, so every instance can tell, leader or not);
 *  - shopify: Shopify answered a call in the last 10 minutes, or answers a probe now;
 *  - not shutting down.
 *
 * The answer names the failing parts only ("database", "chain", …): nothing a stranger could use.
 * Probes of the chain and Shopify are shared and remembered for a few seconds, so a load balancer
 * (or a stranger) asking often costs neither service anything.
 */
import type { Db } from './db';
import { migrationsPending } from './db';
import type { PaymentServices } from './modules/payments';
import { SHOP_QUERY, type ShopifyGraphql } from './shopify';

export type ReadyPart = 'database' | 'migrations' | 'chain' | 'watcher' | 'shopify' | 'shutting down';

export interface ReadyAnswer {
  ready: boolean;
  failing: ReadyPart[];
}

export interface ReadinessOptions {
  db: Db;
  shopify: ShopifyGraphql;
  payments?: Pick<PaymentServices, 'chain' | 'watcher'>;
  /** How far behind the head the watcher may be (blocks). */
  maxWatcherLagBlocks: number;
  /** How old the head may be (seconds); null: not checked (the local chain mines only on demand). */
  maxHeadAgeSeconds: number | null;
  /** How long a database, chain or Shopify probe may take. */
  probeTimeoutMs?: number;
  /** How long the chain's and the watcher's probe answers are reused (default 5 s). */
  chainProbeCacheMs?: number;
}

const SHOPIFY_FRESH_MS = 10 * 60_000;
/** A probe's outcome is reused this long (the chain's: unless configured). */
const CHAIN_PROBE_TTL_MS = 5_000;
const SHOPIFY_PROBE_TTL_MS = 30_000;

function within<T>(ms: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    work,
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

/** Runs `probe` at most once per `ttlMs`, sharing the run under way. */
function remembered(ttlMs: number, probe: () => Promise<boolean>): () => Promise<boolean> {
  let last: { at: number; ok: boolean } | null = null;
  let running: Promise<boolean> | null = null;
  return () => {
    if (last && Date.now() - last.at < ttlMs) return Promise.resolve(last.ok);
    running ??= probe()
      .catch(() => false)
      .then((ok) => {
        last = { at: Date.now(), ok };
        running = null;
        return ok;
      });
    return running;
  };
}

export class Readiness {
  private shuttingDown = false;
  private readonly chainProbe: () => Promise<boolean>;
  private readonly watcherProbe: () => Promise<boolean>;
  private readonly shopifyProbe: () => Promise<boolean>;
  private readonly timeoutMs: number;

  constructor(private readonly opts: ReadinessOptions) {
    this.timeoutMs = opts.probeTimeoutMs ?? 3_000;
    let head: number | null = null;
    this.chainProbe = remembered(opts.chainProbeCacheMs ?? CHAIN_PROBE_TTL_MS, async () => {
      const chain = opts.payments?.chain;
      if (!chain) return true;
      const latest = await within(this.timeoutMs, chain.latestBlock());
      head = latest.number;
      return opts.maxHeadAgeSeconds === null || Date.now() / 1000 - latest.timestamp <= opts.maxHeadAgeSeconds;
    });
    this.watcherProbe = remembered(opts.chainProbeCacheMs ?? CHAIN_PROBE_TTL_MS, async () => {
      const watcher = opts.payments?.watcher;
      if (!watcher || head === null) return true;
      const lag = await within(this.timeoutMs, watcher.lagBlocks(head));
      // Before the first scan there is nothing to be behind on.
      return lag === null || lag <= opts.maxWatcherLagBlocks;
    });
    this.shopifyProbe = remembered(SHOPIFY_PROBE_TTL_MS, async () => {
      await within(this.timeoutMs, opts.shopify.query(SHOP_QUERY, {}));
      return true;
    });
  }

  /** From now on the instance is not ready (a shutdown began): the load balancer stops sending requests. */
  markShuttingDown(): void {
    this.shuttingDown = true;
  }

  async check(): Promise<ReadyAnswer> {
    const failing: ReadyPart[] = [];
    if (this.shuttingDown) failing.push('shutting down');
    const [database, migrations, chain, shopify] = await Promise.all([
      within(this.timeoutMs, this.opts.db.raw('select 1')).then(
        () => true,
        () => false,
      ),
      within(this.timeoutMs, migrationsPending(this.opts.db)).then(
        (pending) => pending.length === 0,
        () => false,
      ),
      this.chainProbe(),
      this.shopifyAnswers(),
    ]);
    if (!database) failing.push('database');
    else if (!migrations) failing.push('migrations');
    if (!chain) failing.push('chain');
    else if (database && !(await this.watcherProbe())) failing.push('watcher');
    if (!shopify) failing.push('shopify');
    return { ready: failing.length === 0, failing };
  }

  private shopifyAnswers(): Promise<boolean> {
    const last = this.opts.shopify.lastAnsweredAt;
    if (last !== null && Date.now() - last < SHOPIFY_FRESH_MS) return Promise.resolve(true);
    return this.shopifyProbe();
  }
}
