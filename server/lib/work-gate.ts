/**
 * A bound on costly work in this process (the admin login's scrypt: 128 MiB and a few hundred ms
 * of a core each): at most `running` tasks at once; the others wait briefly, in bounded lanes,
 * and what the bounds do not hold is refused at once, so a flood costs neither memory nor minutes.
 *
 * It must not let strangers shut the rightful user out, so it is fair by source:
 * - a source (an IP address, or a browser that proved itself before) has at most one task running
 *   and `perSourceWaiting` waiting: one stranger, however fast it sends, takes one slot;
 * - `trusted` tasks (the admin's known browsers, which strangers cannot pose as) wait in a lane of
 *   their own, served before the other, which many strangers together cannot fill;
 * - the other lane holds at most `waiting` tasks, and no task waits longer than `maxWaitMs`.
 */

/** Why a task was refused: its source has enough under way (`source`), or the server has (`busy`). */
export class WorkRefused extends Error {
  constructor(readonly reason: 'source' | 'busy') {
    super(reason === 'source' ? 'this source already has work under way' : 'too much work under way');
    this.name = 'WorkRefused';
  }
}

export interface WorkGateLimits {
  /** Tasks running at once. */
  running: number;
  /** Tasks of one source waiting (beyond its one running). */
  perSourceWaiting: number;
  /** Tasks waiting in the other lane (the trusted lane holds as many). */
  waiting: number;
  /** The longest a task waits for its turn before it is refused as `busy`. */
  maxWaitMs: number;
}

export type Lane = 'trusted' | 'other';

interface Waiter {
  source: string;
  start: () => void;
  timer: NodeJS.Timeout;
}

export class WorkGate {
  private readonly runningBySource = new Map<string, number>();
  private readonly waitingBySource = new Map<string, number>();
  private readonly lanes: Record<Lane, Waiter[]> = { trusted: [], other: [] };
  private running = 0;

  constructor(private readonly limits: WorkGateLimits) {}

  /** Runs `task` when its turn comes; throws {@link WorkRefused} when it may not wait for one. */
  async run<T>(source: string, lane: Lane, task: () => Promise<T>): Promise<T> {
    if (this.mayStart(source)) {
      this.began(source);
    } else {
      if ((this.waitingBySource.get(source) ?? 0) >= this.limits.perSourceWaiting) throw new WorkRefused('source');
      if (this.lanes[lane].length >= this.limits.waiting) throw new WorkRefused('busy');
      await this.wait(source, lane);
    }
    try {
      return await task();
    } finally {
      this.ended(source);
    }
  }

  private mayStart(source: string): boolean {
    return this.running < this.limits.running && !this.runningBySource.has(source);
  }

  private wait(source: string, lane: Lane): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        source,
        start: () => {
          clearTimeout(waiter.timer);
          resolve();
        },
        timer: setTimeout(() => {
          this.lanes[lane].splice(this.lanes[lane].indexOf(waiter), 1);
          bump(this.waitingBySource, source, -1);
          reject(new WorkRefused('busy'));
        }, this.limits.maxWaitMs),
      };
      this.lanes[lane].push(waiter);
      bump(this.waitingBySource, source, 1);
    });
  }

  private began(source: string): void {
    this.running++;
    bump(this.runningBySource, source, 1);
  }

  /** A task ended: the first waiter whose source has nothing running starts, the trusted lane first. */
  private ended(source: string): void {
    this.running--;
    bump(this.runningBySource, source, -1);
    for (const lane of [this.lanes.trusted, this.lanes.other]) {
      while (this.running < this.limits.running) {
        const i = lane.findIndex((w) => !this.runningBySource.has(w.source));
        if (i < 0) break;
        const [next] = lane.splice(i, 1) as [Waiter];
        bump(this.waitingBySource, next.source, -1);
        this.began(next.source);
        next.start();
      }
    }
  }
}

/** Adds `by` to a count, forgetting it at 0 (a map of counts never grows with sources gone). */
function bump(counts: Map<string, number>, key: string, by: number): void {
  const n = (counts.get(key) ?? 0) + by;
  if (n > 0) counts.set(key, n);
  else counts.delete(key);
}
