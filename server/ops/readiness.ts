/**
 * Whether traffic should come to this instance (`GET /api/health/ready`), as opposed to whether it
 * is alive at all (`/api/health/live`, always yes while it serves). Ready means this instance can
 * serve, whatever the services every instance shares are doing:
 *
 *  - its catalogue is in memory (read once from the database: after that it is served from memory);
 *  - none of this version's migrations is pending, when the database answers to tell (a newer
 *    version's extra ones are fine: it keeps serving while instances roll);
 *  - it is not shutting down.
 *
 * The shared services are reported beside it, not in it (`degraded`): the database answers within
 * a couple of seconds; the chain's RPC answers and its head is fresh (on Base: a block from the
 * last minute); the chain watcher is at most READY_MAX_WATCHER_LAG_BLOCKS behind it (its cursor is
 * in the database, so every instance can tell, leader or not); Shopify answered a call in the last
 * 10 minutes, or answers a probe now. A load balancer that took every instance out because the
 * chain or the database is down would turn a partial outage (no payments, no writes) into a total
 * one: with either down shoppers still browse the catalogue from memory, and each feature says
 * what it cannot do. Each probe's outcome feeds the outages (lib/outages.ts: one log line when an
 * outage begins and one when it ends, and `pogs_dependency_up`).
 *
 * The answer names the parts only ("database", "chain", …): nothing a stranger could use. Probes
 * of the chain and Shopify are shared and remembered for a few seconds, so a load balancer (or a
 * stranger) asking often costs neither service anything.
 */
import type { Db } from '../db';
import { migrationsPending } from '../db';
import type { Outages } from '../lib/outages';
import type { PaymentServices } from '../modules/payments';
import { SHOP_QUERY, type ShopifyGraphql } from '../shopify';

/** What keeps this instance from serving. */
export type ReadyPart = 'catalogue' | 'migrations' | 'shutting down';
/** A shared service that does not answer (or, the watcher, lags): features that need it say so. */
export type DegradedPart = 'database' | 'chain' | 'watcher' | 'shopify';

export interface ReadyAnswer {
  ready: boolean;
  failing: ReadyPart[];
  degraded: DegradedPart[];
}

export interface ReadinessOptions {
  db: Db;
  shopify: ShopifyGraphql;
  payments?: Pick<PaymentServices, 'chain' | 'watcher'>;
  /** Loads the catalogue into memory if it is not yet (rejects when it cannot be had). */
  catalogue: () => Promise<unknown>;
  outages: Outages;
  /** The shared services' probes (dependencyProbes), the ones the outages recheck with too. */
  probes: DependencyProbes;
  /** How far behind the head the watcher may be (blocks). */
  maxWatcherLagBlocks: number;
  /** How long the watcher's and the catalogue's checks may take. */
  probeTimeoutMs?: number;
  /** How long the chain's and the watcher's probe answers are reused (default 5 s). */
  chainProbeCacheMs?: number;
}

const SHOPIFY_FRESH_MS = 10 * 60_000;
/** How long a probe may take (the database's, the chain's, Shopify's, the watcher's). */
export const PROBE_TIMEOUT_MS = 3_000;
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

/** The probes of the shared services, each bounded by `timeoutMs`: what readiness and the outages' rechecks ask. */
export function dependencyProbes(opts: {
  db: Db;
  shopify: ShopifyGraphql;
  payments?: Pick<PaymentServices, 'chain'>;
  maxHeadAgeSeconds: number | null;
  timeoutMs: number;
}) {
  const { db, shopify, payments, maxHeadAgeSeconds, timeoutMs } = opts;
  return {
    database: () => within(timeoutMs, db.raw('select 1')),
    /** The head block, when it is fresh enough. */
    chain: async () => {
      if (!payments) return null;
      const latest = await within(timeoutMs, payments.chain.latestBlock());
      if (maxHeadAgeSeconds !== null && Date.now() / 1000 - latest.timestamp > maxHeadAgeSeconds) {
        throw Object.assign(new Error('its newest block is too old'), { reason: 'its newest block is too old' });
      }
      return latest.number;
    },
    shopify: () => within(timeoutMs, shopify.query(SHOP_QUERY, {})),
  };
}

export type DependencyProbes = ReturnType<typeof dependencyProbes>;

export class Readiness {
  private shuttingDown = false;
  private readonly chainProbe: () => Promise<boolean>;
  private readonly watcherProbe: () => Promise<boolean>;
  private readonly shopifyProbe: () => Promise<boolean>;
  private readonly databaseProbe: () => Promise<boolean>;
  private readonly timeoutMs: number;

  constructor(private readonly opts: ReadinessOptions) {
    this.timeoutMs = opts.probeTimeoutMs ?? PROBE_TIMEOUT_MS;
    const { probes } = opts;
    let head: number | null = null;
    this.chainProbe = remembered(opts.chainProbeCacheMs ?? CHAIN_PROBE_TTL_MS, () =>
      opts.payments
        ? opts.outages.observe('chain', async () => {
            head = await probes.chain();
          })
        : Promise.resolve(true),
    );
    this.watcherProbe = remembered(opts.chainProbeCacheMs ?? CHAIN_PROBE_TTL_MS, async () => {
      const watcher = opts.payments?.watcher;
      if (!watcher || head === null) return true;
      const lag = await within(this.timeoutMs, watcher.lagBlocks(head));
      // Before the first scan there is nothing to be behind on.
      return lag === null || lag <= opts.maxWatcherLagBlocks;
    });
    this.shopifyProbe = remembered(SHOPIFY_PROBE_TTL_MS, () => opts.outages.observe('shopify', probes.shopify));
    this.databaseProbe = () => opts.outages.observe('database', probes.database);
  }

  /** From now on the instance is not ready (a shutdown began): the load balancer stops sending requests. */
  markShuttingDown(): void {
    this.shuttingDown = true;
  }

  async check(): Promise<ReadyAnswer> {
    const failing: ReadyPart[] = [];
    const degraded: DegradedPart[] = [];
    if (this.shuttingDown) failing.push('shutting down');
    const [database, chain, shopify, catalogue] = await Promise.all([
      this.databaseProbe(),
      this.chainProbe(),
      this.shopifyAnswers(),
      within(this.timeoutMs, this.opts.catalogue()).then(
        () => true,
        () => false,
      ),
    ]);
    if (!catalogue) failing.push('catalogue');
    if (database) {
      const migrated = await within(this.timeoutMs, migrationsPending(this.opts.db)).then(
        (pending) => pending.length === 0,
        () => true, // the database stopped answering meanwhile: nothing known against this version
      );
      if (!migrated) failing.push('migrations');
    } else degraded.push('database');
    if (!chain) degraded.push('chain');
    else if (database && !(await this.watcherProbe().catch(() => false))) degraded.push('watcher');
    if (!shopify) degraded.push('shopify');
    return { ready: failing.length === 0, failing, degraded };
  }

  private shopifyAnswers(): Promise<boolean> {
    const last = this.opts.shopify.lastAnsweredAt;
    if (last !== null && Date.now() - last < SHOPIFY_FRESH_MS) {
      this.opts.outages.up('shopify');
      return Promise.resolve(true);
    }
    return this.shopifyProbe();
  }
}
