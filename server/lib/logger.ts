import { createRequire } from 'node:module';
import pino, { type Logger } from 'pino';
import { logLinesDropped } from './metrics';

/**
 * Request lines are gathered up to 2 KiB, or for at most half a second, then written in one go of
 * at most 4 KiB: a pipe takes a write that size whole, so the event lines written meanwhile never
 * land inside one.
 */
const GATHERED_LOG_BYTES = 2048;
const GATHERED_WRITE_BYTES = 4096;
const GATHERED_LOG_MS = 500;
/** The most request-line bytes waiting to be written before new ones are dropped (and counted) instead. */
const WAITING_LOG_BYTES = 16 * 1024 * 1024;

/** The logger each server logger writes its request lines with (itself unless it gathers them). */
const requestLoggers = new WeakMap<Logger, Logger>();

/**
 * JSON logs in production (one line per event), readable ones on a developer's terminal. pino-pretty
 * is a development dependency: where it is not installed (the production image run without
 * NODE_ENV=production) the logs stay JSON rather than the start failing.
 *
 * Every event (a payment judged, an order made, a warning, an error) is written before the call
 * returns, so it survives even a kill -9. `requestLines: 'gathered'` (the running server's logger,
 * with a line per request): the request lines (`requestLoggerOf`) are written off the event loop,
 * those logged meanwhile together. Lines still waiting are written when the process exits (an
 * exception, a signal, exit()), so a kill -9, an out-of-memory kill or a power cut loses at most the
 * last half second of request lines; an output that stops reading (a stuck log collector) lets at
 * most 16 MiB of them wait, then new ones are dropped and counted (`pogs_log_lines_dropped_total`)
 * instead of the server stopping on them. `destination`: a file instead of stdout (the benches).
 */
export function createLogger(
  opts: { level?: string; pretty?: boolean; requestLines?: 'each' | 'gathered'; destination?: string } = {},
): Logger {
  const level = opts.level ?? process.env.LOG_LEVEL ?? 'info';
  if (opts.pretty && installed('pino-pretty')) {
    return pino({
      level,
      transport: {
        target: 'pino-pretty',
        options: { colorize: true, singleLine: true, ignore: 'pid,hostname', translateTime: 'HH:MM:ss' },
      },
    });
  }
  const logger = pino({ level }, pino.destination({ dest: opts.destination ?? 1, sync: true }));
  if (opts.requestLines === 'gathered') {
    const gathered = pino.destination({
      dest: opts.destination ?? 1,
      sync: false,
      minLength: GATHERED_LOG_BYTES,
      maxWrite: GATHERED_WRITE_BYTES,
      periodicFlush: GATHERED_LOG_MS,
      maxLength: WAITING_LOG_BYTES,
    });
    gathered.on('drop', () => logLinesDropped.inc());
    requestLoggers.set(logger, pino({ level }, gathered));
  }
  return logger;
}

/** Where `logger`'s request lines go: its gathering twin (createLogger's `requestLines: 'gathered'`), or itself. */
export function requestLoggerOf(logger: Logger): Logger {
  return requestLoggers.get(logger) ?? logger;
}

function installed(name: string): boolean {
  try {
    createRequire(import.meta.url).resolve(name);
    return true;
  } catch {
    return false;
  }
}

export type { Logger };
