/**
 * Every background job of the server, registered here and nowhere else; main.ts starts them after
 * the server listens and stops them together on shutdown. Each is a `Job` (server/lib/jobs.ts).
 *
 *   catalogue freshness listens for catalogue changes (LISTEN/NOTIFY on Postgres), polling the
 *                       version while it cannot, so every instance serves the newest catalogue
 *   catalogue sync      every CATALOGUE_SYNC_INTERVAL_MINUTES (after main.ts's start-up sync)
 *   expiry sweep        hourly: expired sessions and their carts, sign-in nonces, rate-limit counters,
 *                       expired and ended admin sessions
 *   chain watcher       every CHAIN_POLL_INTERVAL_MS; one process at a time (leader lock)
 *   sponsorship watcher with sponsored gas: every CHAIN_POLL_INTERVAL_MS, the paymaster's
 *                       UserOperationEvents settle each sponsorship; one process at a time
 *   Shopify hand-off    every second; each outbox job in one process at a time (SKIP LOCKED, lease)
 *   Shopify order poll  every 5 minutes: orders whose Shopify webhook never came
 *   order news          every second: each status change's Web Push news, one process per job
 *                       (SKIP LOCKED, lease)
 *   merchant webhooks   every second: each due delivery of an event to a merchant's endpoint, one
 *                       process per delivery (SKIP LOCKED, lease), several at a time
 *   price reference     with a configured pool: every 30 s, the dollar reference read at the
 *                       chain's head and kept in this instance's memory (each instance its own)
 *
 * With several server processes on one database each runs every job; those that must not run
 * twice guard themselves in the database, as above.
 */
import { ErrorCode } from '../common/errors';
import { AppError } from './lib/errors';
import { periodicJob, type Job } from './lib/jobs';
import type { Services } from './wiring';

const HOUR_MS = 60 * 60_000;
/** Webhooks can be lost: this often, Shopify is asked about the orders still waiting on one. */
const ORDER_POLL_MS = 5 * 60_000;
/** Spreads the slow jobs of processes started together over ±10 % of their period. */
const JITTER = 0.1;

/**
 * Syncs the catalogue from Shopify (the same background job as the admin's button: one at a time
 * across every instance) and logs the outcome; a failure leaves the last synced catalogue in place.
 */
export async function runCatalogueSync({ catalogue, logger }: Pick<Services, 'catalogue' | 'logger'>, why: string): Promise<void> {
  try {
    const result = await catalogue.sync(why);
    logger.info(
      { why, method: result.method, products: result.products, variants: result.variants, removed: result.deactivated },
      'catalogue synced',
    );
  } catch (err) {
    if (err instanceof AppError && err.code === ErrorCode.syncInProgress) {
      logger.info({ why }, 'catalogue sync skipped: one is already running (the admin’s, or another instance’s)');
      return;
    }
    logger.error({ err, why }, 'catalogue sync failed; the shop keeps serving the last synced catalogue');
  }
}

export function createWorkers(services: Services): Job & { readonly jobs: readonly string[] } {
  const { config, logger, sessions, rateLimiter, admin, payments } = services;
  const jobs: Job[] = [services.catalogue.freshness];

  // The start-up sync is main.ts's; this one keeps the catalogue fresh afterwards.
  if (config.catalogueSyncIntervalMs > 0) {
    jobs.push(
      periodicJob({
        name: 'catalogue sync',
        everyMs: config.catalogueSyncIntervalMs,
        jitter: JITTER,
        runAtStart: false,
        logger,
        outages: services.outages,
        run: () => runCatalogueSync(services, 'schedule'),
      }),
    );
  }

  // Expired shopper sessions (and their carts), sign-in nonces, rate-limit counters and admin
  // sessions. Each sweep
  // fails alone: the others still run.
  jobs.push(
    periodicJob({
      name: 'expiry sweep',
      everyMs: HOUR_MS,
      jitter: JITTER,
      logger,
      outages: services.outages,
      run: async () => {
        const swept = await sessions.sweep().catch((err) => logger.error({ err }, 'session sweep failed'));
        await payments?.auth.sweep().catch((err) => logger.error({ err }, 'sign-in nonce sweep failed'));
        await rateLimiter.sweep().catch((err) => logger.error({ err }, 'rate-limit counter sweep failed'));
        await admin.sweep().catch((err) => logger.error({ err }, 'admin session sweep failed'));
        if (swept) logger.info({ swept }, 'expired sessions removed');
      },
    }),
  );

  if (payments) {
    // The watcher finds transfers on its own (a shopper's tab may die); the hand-off creates the
    // Shopify draft orders; a slow poll catches Shopify webhooks that never arrived.
    jobs.push(
      payments.watcher,
      ...(payments.sponsorshipWatcher ? [payments.sponsorshipWatcher] : []),
      payments.handoff,
      periodicJob({
        name: 'Shopify order poll',
        everyMs: ORDER_POLL_MS,
        jitter: JITTER,
        runAtStart: false,
        logger,
        outages: services.outages,
        run: () => payments.handoff.reconcile(),
      }),
      payments.notifications.news,
    );
  }

  // The merchant's webhook events (catalogue events come without a chain too).
  jobs.push(services.webhooks.sender);

  // The dollar reference: read in the background only, never on a request's path.
  if (services.priceReference) jobs.push(services.priceReference.job);

  return {
    name: 'workers',
    jobs: jobs.map((j) => j.name),
    start() {
      for (const job of jobs) job.start();
      logger.debug({ jobs: jobs.map((j) => j.name) }, 'background jobs started');
    },
    async stop() {
      await Promise.all(jobs.map((job) => job.stop()));
    },
  };
}
