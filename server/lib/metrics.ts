/**
 * The shop's Prometheus metrics (prom-client), served on their own listener when METRICS_PORT is
 * set (never on the public port), bound to METRICS_HOST (127.0.0.1 unless set: it has no
 * authentication). Names follow Prometheus' conventions: snake_case, a unit suffix,
 * `_total` for counters, labels of low cardinality (a route template, an outcome, a rule name;
 * never a URL, an address or an id).
 *
 * The counters and histograms are this module's, recorded where things happen; the gauges that
 * need the database or the chain are computed when scraped, from sources main.ts registers
 * (`observeGauges`). Nothing here costs anything a request would notice when nobody scrapes.
 */
import { createServer, type Server } from 'node:http';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

export const registry = new Registry();
let defaultsCollected = false;

export const httpDuration = new Histogram({
  name: 'pogs_http_request_duration_seconds',
  help: 'How long the shop took to answer a request, by method, route template and status.',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  registers: [registry],
});

/** Whether each outside service answers, as this instance last saw it (lib/outages.ts). */
export const dependencyUp = new Gauge({
  name: 'pogs_dependency_up',
  help: 'Whether an outside service (database, chain, shopify) answered when this instance last asked: 1 yes, 0 no.',
  labelNames: ['dependency'] as const,
  registers: [registry],
});

export const dependencyOutages = new Counter({
  name: 'pogs_dependency_outages_total',
  help: 'Outages of an outside service (database, chain, shopify) this instance saw begin.',
  labelNames: ['dependency'] as const,
  registers: [registry],
});

/** Log lines dropped because the log's output had stopped reading (lib/logger.ts). */
export const logLinesDropped = new Counter({
  name: 'pogs_log_lines_dropped_total',
  help: 'Log lines dropped because the output had stopped reading and 16 MiB were already waiting.',
  registers: [registry],
});

/**
 * Transfers to the store wallet, by what they did: `paid` (made an order), `underpaid`, `overpaid`
 * (an order, with an excess to refund), `late` (an order, paid after its checkout expired),
 * `unmatched`, `extra-payment` (a further payment to a checkout already paid), `reorged` (a chain
 * reorganisation removed it).
 * An order paid late and overpaid counts in both, and in `paid`.
 */
export const payments = new Counter({
  name: 'pogs_payments_total',
  help: 'Transfers to the store wallet settled, by outcome.',
  labelNames: ['outcome'] as const,
  registers: [registry],
});

export const outboxFailures = new Counter({
  name: 'pogs_outbox_failures_total',
  help: 'Attempts of background outbox jobs that failed, by job kind.',
  labelNames: ['job'] as const,
  registers: [registry],
});

/** Attempts to send an event to a merchant's webhook endpoint (outgoing-webhooks), by result. */
export const webhookAttempts = new Counter({
  name: 'pogs_webhook_attempts_total',
  help: "Attempts to send an event to a merchant's webhook endpoint, by result: delivered (a 2xx), retry (failed, tried again later), given-up (failed, the schedule ended).",
  labelNames: ['result'] as const,
  registers: [registry],
});

/** Webhook endpoints the shop disabled because every attempt failed for a day. */
export const webhookEndpointsDisabled = new Counter({
  name: 'pogs_webhook_endpoints_disabled_total',
  help: 'Webhook endpoints disabled because every attempt to them failed for WEBHOOK_DISABLE_AFTER_MS (a day).',
  registers: [registry],
});

export const catalogueSyncDuration = new Histogram({
  name: 'pogs_catalogue_sync_duration_seconds',
  help: 'How long a catalogue sync from Shopify took.',
  buckets: [0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600],
  registers: [registry],
});

export const catalogueSyncErrors = new Counter({
  name: 'pogs_catalogue_sync_errors_total',
  help: 'Catalogue syncs from Shopify that failed.',
  registers: [registry],
});

export const catalogueRebuilds = new Counter({
  name: 'pogs_catalogue_rebuilds_total',
  help: 'In-memory product lists made for a new catalogue version: kind "update" read only the products that changed, "full" read every product.',
  labelNames: ['kind'] as const,
  registers: [registry],
});

export const shopifyWaits = new Counter({
  name: 'pogs_shopify_waits_total',
  help: 'Waits before retrying a Shopify call, by reason (throttled, rate-limited, unavailable).',
  labelNames: ['reason'] as const,
  registers: [registry],
});

export const shopifyErrors = new Counter({
  name: 'pogs_shopify_errors_total',
  help: 'Shopify calls that failed in the end, by kind (unavailable, refused, error).',
  labelNames: ['kind'] as const,
  registers: [registry],
});

export const adminLoginFailures = new Counter({
  name: 'pogs_admin_login_failures_total',
  help: 'Wrong admin passwords counted (an attempt refused by a lock is not one).',
  registers: [registry],
});

export const adminLockouts = new Counter({
  name: 'pogs_admin_lockouts_total',
  help: 'Admin login locks set after too many wrong passwords, by what was locked (ip, device, global: the brake on every browser that has not logged in before).',
  labelNames: ['scope'] as const,
  registers: [registry],
});

export const adminSignInLinks = new Counter({
  name: 'pogs_admin_sign_in_links_total',
  help: "Operator's sign-in links presented, by outcome (recognised: a browser let past the brake; used-before, expired, not-a-link: refused).",
  labelNames: ['outcome'] as const,
  registers: [registry],
});

export const rateLimitRefusals = new Counter({
  name: 'pogs_rate_limit_refusals_total',
  help: 'Requests refused by a rate limit, by rule.',
  labelNames: ['rule'] as const,
  registers: [registry],
});

/** What the scrape-time gauges read: the database and the chain, as main.ts wires them. */
export interface GaugeSources {
  /** Blocks between the chain's head and the last block the watcher scanned; null when unknown. */
  watcherLagBlocks(): Promise<number | null>;
  /** Outbox jobs waiting (pending) and given up on or failing (failed), by job kind. */
  outbox(): Promise<Array<{ job: string; state: 'pending' | 'failing'; count: number }>>;
  /** What is left of today's budget for sponsored gas, in wei; null when the shop pays no gas. */
  paymasterBudgetLeftWei(): Promise<bigint | null>;
}

let sources: GaugeSources | null = null;

new Gauge({
  name: 'pogs_watcher_lag_blocks',
  help: 'Blocks between the chain head and the last block the chain watcher scanned.',
  registers: [registry],
  async collect() {
    const lag = await sources?.watcherLagBlocks().catch(() => null);
    if (lag === null || lag === undefined) this.reset();
    else this.set(lag);
  },
});

new Gauge({
  name: 'pogs_outbox_jobs',
  help: 'Outbox jobs by kind and state (pending: waiting to run; failing: failed at least once and not done).',
  labelNames: ['job', 'state'] as const,
  registers: [registry],
  async collect() {
    this.reset();
    const rows = await sources?.outbox().catch(() => []);
    for (const row of rows ?? []) this.set({ job: row.job, state: row.state }, row.count);
  },
});

new Gauge({
  name: 'pogs_paymaster_budget_left_wei',
  help: "What is left of today's (UTC) budget for sponsored gas, in wei: the budget less what today's sponsorships cost, or may still cost while they can land.",
  registers: [registry],
  async collect() {
    const left = await sources?.paymasterBudgetLeftWei().catch(() => null);
    if (left === null || left === undefined) this.reset();
    else this.set(Number(left));
  },
});

/** Where the scrape-time gauges read from (main.ts, once the services exist). */
export function observeGauges(s: GaugeSources): void {
  sources = s;
}

/**
 * The metrics listener: `GET /metrics` in Prometheus' text format on its own port, with Node's
 * default process metrics. Anything else is 404. Bind it where only the scraper reaches it.
 */
/** Where the metrics server reports a failed scrape: the shop's logger (lib/logger.ts imports this file for its dropped-lines counter). */
interface ErrorLog {
  error(fields: object, message: string): void;
}

export async function startMetricsServer(opts: { port: number; host: string; logger: ErrorLog }): Promise<Server> {
  if (!defaultsCollected) {
    collectDefaultMetrics({ register: registry, prefix: 'pogs_' });
    defaultsCollected = true;
  }
  const server = createServer((req, res) => {
    if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    registry.metrics().then(
      (text) => res.writeHead(200, { 'content-type': registry.contentType }).end(text),
      (err: unknown) => {
        opts.logger.error({ err }, 'metrics: could not collect');
        res.writeHead(500, { 'content-type': 'text/plain' }).end('could not collect\n');
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => resolve());
  });
  return server;
}

/** The paymaster service's answers, by method and outcome: `sponsored`, or why it refused (`not-the-amount`, `already-sponsored`, …). */
export const paymasterRequests = new Counter({
  name: 'pogs_paymaster_requests_total',
  help: 'Requests to the shop paymaster, by JSON-RPC method and outcome (sponsored, or the refusal reason).',
  labelNames: ['method', 'outcome'] as const,
  registers: [registry],
});

/**
 * What sponsored operations really cost the paymaster, in wei, by outcome (`paid`, or wasted:
 * `reverted`, `unpaid`; `unrecorded`: an operation the shop never signed for), counted by the
 * sponsorship watcher from the EntryPoint's UserOperationEvents.
 */
export const paymasterSpent = new Counter({
  name: 'pogs_paymaster_spent_wei_total',
  help: 'Gas the paymaster paid for sponsored operations, in wei, by outcome (paid, reverted, unpaid, unrecorded).',
  labelNames: ['outcome'] as const,
  registers: [registry],
});
