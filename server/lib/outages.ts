/**
 * The outside services the shop depends on (the database, the chain's RPC, Shopify), each up or
 * down, as this instance sees them. Whatever meets a service not answering (a request, a job's
 * pass, a probe) says so here; the outage is logged once when it begins (a warning: the service
 * and the reason) and once when it ends (how long it lasted), however many requests and passes
 * met it meanwhile, and `pogs_dependency_up` says the state.
 *
 * While a service is down this instance asks it again every `recheckMs` with its probe (a cheap
 * question, bounded by its own timeout), so the end is noticed even when nothing else asks; an
 * answer met anywhere else ends it too. Timers are unref'd: an outage never keeps the process up.
 */
import type { Logger } from './logger';
import { isLostDatabaseConnection } from './db-errors';
import { formatDuration } from './duration';
import { dependencyOutages, dependencyUp } from './metrics';
import { unavailableCause } from './unavailable';

export type Dependency = 'database' | 'chain' | 'shopify';

/** An outage an error stands for: which service, named for a log reader, and why. */
export interface OutageCause {
  service: Dependency;
  /** The service as a log reader knows it ("chain RPC mainnet.base.org", "the database"). */
  dependency: string;
  reason: string;
  message: string;
}

/** The outage behind `err`: an outside service that did not answer (UnavailableError), or the database lost; null for anything else. */
export function outageOf(err: unknown): OutageCause | null {
  const unavailable = unavailableCause(err);
  if (unavailable) {
    const { service, dependency, reason, message } = unavailable;
    return { service, dependency, reason, message };
  }
  if (!isLostDatabaseConnection(err)) return null;
  const reason = reasonOf(err);
  return { service: 'database', dependency: 'the database', reason, message: `the database is unreachable: ${reason}` };
}

const NAMES: Record<Dependency, string> = { database: 'the database', chain: 'the chain RPC', shopify: 'Shopify' };

/** Resolves when the service answers; rejects when it does not. */
export type Probe = () => Promise<unknown>;

export interface OutagesOptions {
  logger: Logger;
  /** How each service is asked whether it answers again (a service without one ends its outage when anything meets it answering). */
  probes?: Partial<Record<Dependency, Probe>>;
  /** How long between two probes of a service that is down (default 5 s). */
  recheckMs?: number;
}

export interface OutageState {
  up: boolean;
  /** When the outage began (ISO 8601), while it lasts. */
  since?: string;
}

export class Outages {
  private readonly open = new Map<Dependency, { since: number; timer: NodeJS.Timeout | null }>();
  private closed = false;
  private probes: Partial<Record<Dependency, Probe>>;

  constructor(private readonly opts: OutagesOptions) {
    this.probes = opts.probes ?? {};
  }

  /** The probes, once what they ask is built (the services are made after the outages they report to). */
  useProbes(probes: Partial<Record<Dependency, Probe>>): void {
    this.probes = probes;
  }

  /** `dependency` did not answer (`reason`: a few words, never a URL or a secret). */
  down(dependency: Dependency, reason: string): void {
    if (this.open.has(dependency)) {
      this.opts.logger.debug({ dependency, reason }, `${NAMES[dependency]} still unreachable`);
      return;
    }
    this.open.set(dependency, { since: Date.now(), timer: null });
    dependencyUp.set({ dependency }, 0);
    dependencyOutages.inc({ dependency });
    this.opts.logger.warn({ dependency, reason }, `${NAMES[dependency]} is unreachable (${reason}); logged again when it answers`);
    this.recheckLater(dependency);
  }

  /** When `err` stands for an outage (outageOf), records it and says true; anything else is the caller's to log. */
  report(err: unknown): boolean {
    const outage = outageOf(err);
    if (outage) this.down(outage.service, outage.reason);
    return outage !== null;
  }

  /** `dependency` answered. */
  up(dependency: Dependency): void {
    const outage = this.open.get(dependency);
    dependencyUp.set({ dependency }, 1);
    if (!outage) return;
    if (outage.timer) clearTimeout(outage.timer);
    this.open.delete(dependency);
    const downMs = Date.now() - outage.since;
    this.opts.logger.info({ dependency, downMs }, `${NAMES[dependency]} answers again (unreachable for ${formatDuration(downMs)})`);
  }

  /** Records what a probe's outcome says: up when it answered, down (with why) when it did not. */
  async observe(dependency: Dependency, probe: Probe): Promise<boolean> {
    try {
      await probe();
      this.up(dependency);
      return true;
    } catch (err) {
      this.down(dependency, reasonOf(err));
      return false;
    }
  }

  isDown(dependency: Dependency): boolean {
    return this.open.has(dependency);
  }

  state(dependency: Dependency): OutageState {
    const outage = this.open.get(dependency);
    return outage ? { up: false, since: new Date(outage.since).toISOString() } : { up: true };
  }

  /** Stops the probes (shutdown, a test's end). */
  close(): void {
    this.closed = true;
    for (const outage of this.open.values()) if (outage.timer) clearTimeout(outage.timer);
  }

  private recheckLater(dependency: Dependency): void {
    const probe = this.probes[dependency];
    const outage = this.open.get(dependency);
    if (!probe || !outage || this.closed) return;
    outage.timer = setTimeout(() => {
      outage.timer = null;
      void this.observe(dependency, probe).then((ok) => {
        if (!ok) this.recheckLater(dependency);
      });
    }, this.opts.recheckMs ?? 5_000);
    outage.timer.unref();
  }
}

/** A few words of why: the error's code or its first line, bounded (never its stack). */
export function reasonOf(err: unknown): string {
  const e = err as { code?: unknown; reason?: unknown; message?: unknown } | null;
  if (typeof e?.reason === 'string') return e.reason;
  if (typeof e?.code === 'string' && /^[A-Z0-9_]{2,40}$/.test(e.code)) return e.code;
  const message = typeof e?.message === 'string' ? e.message.split('\n')[0]! : String(err);
  return message.length > 120 ? `${message.slice(0, 117)}...` : message;
}
