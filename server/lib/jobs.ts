/**
 * Background work, one shape for all of it: a job starts, and stops once its running pass is over.
 * Every job of the server is registered in `server/workers.ts`; main.ts starts and stops them
 * together. Jobs that must run once across several server processes guard themselves in the
 * database (the chain watcher's leader lock, the hand-off's `SKIP LOCKED` lease), not here.
 */
import { formatDuration } from './duration';
import type { Logger } from './logger';
import { outageOf, type Dependency, type Outages } from './outages';

export interface Job {
  readonly name: string;
  /** Begins the schedule; calling it on a started job does nothing. */
  start(): void;
  /** No new pass begins; resolves once the pass under way (if any) has finished. */
  stop(): Promise<void>;
}

export interface PeriodicJobOptions {
  /** Names the job in logs: a failed pass is logged as "<name> failed". */
  name: string;
  everyMs: number;
  /**
   * Each wait is `everyMs` times a random factor in [1 − jitter, 1 + jitter], so several server
   * processes started together do not all call Shopify or the database in the same second.
   */
  jitter?: number;
  /** Run the first pass right away (default) rather than after the first wait. */
  runAtStart?: boolean;
  logger: Logger;
  /**
   * Where the outages its passes meet are reported (lib/outages.ts: one line for the whole process
   * as each begins and ends); without it the job logs them itself, once each.
   */
  outages?: Outages;
  run: () => Promise<unknown>;
  /** Uniform in [0, 1); tests pin it. */
  random?: () => number;
}

/**
 * A pass every `everyMs` (with jitter), never two at once: the next wait starts when a pass ends,
 * however long it took. A pass that throws is logged with the job's name and the next one runs on
 * schedule. Its timers are unref'd: a job alone never keeps the process alive.
 *
 * A pass that fails because an outside service is down (an `UnavailableError`, an error caused by
 * one, or a lost database connection) is an outage, not a bug: it is reported to `outages`, or
 * else logged once as a warning when it begins (the service and the reason, no stack); at debug
 * level while it lasts; and once a pass succeeds again the service is said to answer (how long it
 * lasted). Any other failure is logged every time, with its stack.
 */
export function periodicJob(opts: PeriodicJobOptions): Job {
  const { name, everyMs, jitter = 0, runAtStart = true, logger, run } = opts;
  if (!(everyMs > 0)) throw new Error(`job ${name}: everyMs must be positive, not ${everyMs}`);
  if (!(jitter >= 0 && jitter < 1)) throw new Error(`job ${name}: jitter must be in [0, 1), not ${jitter}`);
  const random = opts.random ?? Math.random;
  let active = false;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  /** Outages under way, by service: when the first pass that met it began. */
  const outages = new Map<string, { since: number; service: Dependency }>();

  const nextWait = () => Math.round(everyMs * (1 + jitter * (2 * random() - 1)));
  const schedule = (ms: number) => {
    timer = setTimeout(pass, ms);
    timer.unref();
  };
  function pass() {
    timer = null;
    running = (async () => {
      const began = Date.now();
      try {
        await run();
        for (const [dependency, outage] of outages) {
          if (opts.outages) {
            opts.outages.up(outage.service);
            continue;
          }
          const downMs = Date.now() - outage.since;
          logger.info(
            { job: name, dependency, downMs },
            `${dependency} answers again (unreachable for ${formatDuration(downMs)}); ${name} resumed`,
          );
        }
        outages.clear();
      } catch (err) {
        const outage = outageOf(err);
        if (!outage) {
          logger.warn({ err, job: name }, `${name} failed`);
        } else if (outages.has(outage.dependency) || opts.outages) {
          outages.set(outage.dependency, outages.get(outage.dependency) ?? { since: began, service: outage.service });
          opts.outages?.down(outage.service, outage.reason);
          logger.debug({ job: name, dependency: outage.dependency, reason: outage.reason }, `${name} failed: ${outage.message}`);
        } else {
          outages.set(outage.dependency, { since: began, service: outage.service });
          logger.warn(
            { job: name, dependency: outage.dependency, reason: outage.reason },
            `${outage.message}; ${name} fails until it answers (logged again then)`,
          );
        }
      }
    })();
    void running.then(() => {
      running = null;
      // Stopped meanwhile, or stopped and started again (then this schedules the next pass).
      if (active && !timer) schedule(nextWait());
    });
  }

  return {
    name,
    start() {
      if (active) return;
      active = true;
      // A pass left over from before a stop schedules the next one when it ends.
      if (!running) schedule(runAtStart ? 0 : nextWait());
    },
    async stop() {
      active = false;
      if (timer) clearTimeout(timer);
      timer = null;
      await running;
    },
  };
}
