import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { periodicJob, type PeriodicJobOptions } from './jobs';
import { UnavailableError } from './unavailable';

interface Line {
  level: number;
  msg: string;
  job?: string;
  err?: { message: string; stack?: string };
  dependency?: string;
  reason?: string;
  downMs?: number;
}

/** A real pino logger whose lines are kept for the test to read. */
function captureLogger(level = 'info') {
  const lines: Line[] = [];
  const logger = pino({ level }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  return { logger, lines };
}

const DEBUG = 20;
const INFO = 30;
const WARN = 40;

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe('periodicJob', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 0 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const job = (opts: Partial<PeriodicJobOptions> & Pick<PeriodicJobOptions, 'run'>) =>
    periodicJob({ name: 'test job', everyMs: 1000, logger: captureLogger().logger, ...opts });

  it('runs at start, then every everyMs', async () => {
    const starts: number[] = [];
    const j = job({ run: async () => void starts.push(Date.now()) });
    j.start();
    await vi.advanceTimersByTimeAsync(3500);
    expect(starts).toEqual([0, 1000, 2000, 3000]);
    await j.stop();
  });

  it('with runAtStart false, waits one interval before the first pass', async () => {
    const starts: number[] = [];
    const j = job({ runAtStart: false, run: async () => void starts.push(Date.now()) });
    j.start();
    await vi.advanceTimersByTimeAsync(999);
    expect(starts).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(starts).toEqual([1000]);
    await j.stop();
  });

  it('keeps every wait within everyMs × (1 ± jitter), and uses the whole range', async () => {
    const starts: number[] = [];
    const j = job({ jitter: 0.2, run: async () => void starts.push(Date.now()) });
    j.start();
    await vi.advanceTimersByTimeAsync(200_000);
    await j.stop();
    const waits = starts.slice(1).map((t, i) => t - starts[i]!);
    expect(waits.length).toBeGreaterThan(150);
    for (const w of waits) {
      expect(w).toBeGreaterThanOrEqual(800);
      expect(w).toBeLessThanOrEqual(1200);
    }
    // Not a constant wait: the jitter actually spreads them out, on both sides of everyMs.
    expect(Math.min(...waits)).toBeLessThan(900);
    expect(Math.max(...waits)).toBeGreaterThan(1100);
  });

  it('reaches the jitter bounds exactly at the ends of random()', async () => {
    for (const [random, wait] of [
      [() => 0, 750],
      [() => 0.5, 1000],
      [() => 1, 1250],
    ] as const) {
      const starts: number[] = [];
      const begin = Date.now();
      const j = job({ jitter: 0.25, random, runAtStart: false, run: async () => void starts.push(Date.now() - begin) });
      j.start();
      await vi.advanceTimersByTimeAsync(wait - 1);
      expect(starts).toEqual([]);
      await vi.advanceTimersByTimeAsync(1);
      expect(starts).toEqual([wait]);
      await j.stop();
    }
  });

  it('never runs two passes at once: the next wait starts when a slow pass ends', async () => {
    let inFlight = 0;
    let most = 0;
    const spans: Array<[number, number]> = [];
    const j = job({
      run: async () => {
        const began = Date.now();
        inFlight++;
        most = Math.max(most, inFlight);
        await new Promise((r) => setTimeout(r, 2500));
        inFlight--;
        spans.push([began, Date.now()]);
      },
    });
    j.start();
    await vi.advanceTimersByTimeAsync(10_000);
    await j.stop();
    expect(most).toBe(1);
    expect(spans).toEqual([
      [0, 2500],
      [3500, 6000],
      [7000, 9500],
    ]);
  });

  it('logs a failed pass with the job name and still runs the next one', async () => {
    const { logger, lines } = captureLogger();
    let calls = 0;
    const j = periodicJob({
      name: 'flaky sweep',
      everyMs: 1000,
      logger,
      run: async () => {
        if (++calls === 1) throw new Error('database unreachable');
      },
    });
    j.start();
    await vi.advanceTimersByTimeAsync(1500);
    await j.stop();
    expect(calls).toBe(2);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 40, msg: 'flaky sweep failed', job: 'flaky sweep', err: { message: 'database unreachable' } });
  });

  describe('an outside service that does not answer (UnavailableError)', () => {
    const rpcDown = () => new UnavailableError('chain RPC rpc.example', 'timeout after 10 s', 'chain');
    /** A job whose pass `n` (from 1) does what `outcome(n)` says; runs `passes` passes one second apart. */
    async function runPasses(passes: number, outcome: (n: number) => Error | null) {
      const { logger, lines } = captureLogger('debug');
      let n = 0;
      const j = periodicJob({
        name: 'chain watcher tick',
        everyMs: 1000,
        logger,
        run: async () => {
          const err = outcome(++n);
          if (err) throw err;
        },
      });
      j.start();
      await vi.advanceTimersByTimeAsync((passes - 1) * 1000 + 1);
      await j.stop();
      expect(n).toBe(passes);
      return { lines, above: (level: number) => lines.filter((l) => l.level >= level) };
    }

    it('is logged once when it begins, at debug level while it lasts, and once when it answers again', async () => {
      // Passes 2 to 5 fail (the service is down from 1 s to 5 s), pass 6 at 5 s succeeds.
      const { lines, above } = await runPasses(7, (n) => (n >= 2 && n <= 5 ? rpcDown() : null));
      expect(above(INFO)).toEqual([
        expect.objectContaining({
          level: WARN,
          msg: 'chain RPC rpc.example is unreachable: timeout after 10 s; chain watcher tick fails until it answers (logged again then)',
          job: 'chain watcher tick',
          dependency: 'chain RPC rpc.example',
          reason: 'timeout after 10 s',
        }),
        expect.objectContaining({
          level: INFO,
          msg: 'chain RPC rpc.example answers again (unreachable for 4 s); chain watcher tick resumed',
          dependency: 'chain RPC rpc.example',
          downMs: 4000,
        }),
      ]);
      // No stack for an outage: the service and the reason say it all.
      expect(above(INFO)[0]!.err).toBeUndefined();
      expect(lines.filter((l) => l.level === DEBUG)).toHaveLength(3);
    });

    it('a second outage after the service came back is logged again', async () => {
      const { above } = await runPasses(6, (n) => (n === 2 || n === 3 || n === 5 ? rpcDown() : null));
      expect(above(INFO).map((l) => [l.level, l.downMs])).toEqual([
        [WARN, undefined],
        [INFO, 2000],
        [WARN, undefined],
        [INFO, 1000],
      ]);
    });

    it('is recognised when another error carries it as its cause', async () => {
      const wrapped = () => new Error('Shopify is unavailable', { cause: new UnavailableError('Shopify', 'HTTP 502', 'shopify') });
      const { above } = await runPasses(4, (n) => (n <= 2 ? wrapped() : null));
      expect(above(INFO)).toEqual([
        expect.objectContaining({ level: WARN, dependency: 'Shopify', reason: 'HTTP 502' }),
        expect.objectContaining({ level: INFO, dependency: 'Shopify', downMs: 2000 }),
      ]);
    });

    it('does not quieten an unexpected error: each one is still logged, with its stack', async () => {
      // Down from pass 1; passes 2 and 3 fail otherwise (a database error, say).
      const { above } = await runPasses(4, (n) => (n === 1 || n === 4 ? rpcDown() : new Error('relation "outbox" does not exist')));
      const logged = above(INFO);
      expect(logged.map((l) => [l.level, l.msg])).toEqual([
        [WARN, expect.stringContaining('is unreachable')],
        [WARN, 'chain watcher tick failed'],
        [WARN, 'chain watcher tick failed'],
      ]);
      expect(logged[1]!.err).toMatchObject({ message: 'relation "outbox" does not exist', stack: expect.stringContaining('Error:') });
    });
  });

  it('stop waits for the pass under way, and no pass begins after it', async () => {
    const gate = deferred();
    let calls = 0;
    let finished = false;
    const j = job({
      run: async () => {
        calls++;
        await gate.promise;
        finished = true;
      },
    });
    j.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toBe(1);
    let stopped = false;
    const stopping = j.stop().then(() => (stopped = true));
    await vi.advanceTimersByTimeAsync(5000);
    expect(stopped).toBe(false);
    gate.resolve();
    await stopping;
    expect(finished).toBe(true);
    await vi.advanceTimersByTimeAsync(5000);
    expect(calls).toBe(1);
  });

  it('starts once however often start is called, and can be started again after a stop', async () => {
    let calls = 0;
    const j = job({ run: async () => void calls++ });
    j.start();
    j.start();
    await vi.advanceTimersByTimeAsync(2500);
    expect(calls).toBe(3); // 0, 1000, 2000
    await j.stop();
    await vi.advanceTimersByTimeAsync(5000);
    expect(calls).toBe(3);
    j.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toBe(4);
    await j.stop();
  });

  it('refuses a schedule that makes no sense', () => {
    const run = async () => {};
    expect(() => job({ everyMs: 0, run })).toThrow(/everyMs/);
    expect(() => job({ jitter: 1, run })).toThrow(/jitter/);
  });
});

describe('periodicJob timers', () => {
  it('do not keep the process alive', async () => {
    const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    const before = timers();
    const j = periodicJob({ name: 'idle', everyMs: 60_000, runAtStart: false, logger: captureLogger().logger, run: async () => {} });
    j.start();
    expect(timers()).toBe(before);
    // The same check sees a ref'd timer, so it is not vacuous.
    const ref = setTimeout(() => {}, 60_000);
    expect(timers()).toBe(before + 1);
    clearTimeout(ref);
    await j.stop();
  });
});
