import { createRequire } from 'node:module';
import pino, { type Logger } from 'pino';
import { logLinesDropped } from './metrics';

/** Lines are gathered up to 4 KiB, or for at most half a second, then written in one go. */
const GATHERED_LOG_BYTES = 4096;
const GATHERED_LOG_MS = 500;
/** The most log bytes waiting to be written before new lines are dropped (and counted) instead. */
const WAITING_LOG_BYTES = 16 * 1024 * 1024;

/**
 * JSON logs in production (one line per event), readable ones on a developer's terminal. pino-pretty
 * is a development dependency: where it is not installed (the production image run without
 * NODE_ENV=production) the logs stay JSON rather than the start failing.
 *
 * `writes: 'async'` (the running server's logger, with a request line per answer): a line is handed
 * to the output at once but written off the event loop, lines logged meanwhile going out together in
 * one write. Lines still waiting are written when the process exits (an exception, a signal, exit()),
 * so only a kill -9, an out-of-memory kill or a power cut loses them; an output that stops reading
 * (a stuck log collector) lets at most 16 MiB wait, then new lines are dropped and counted
 * (`pogs_log_lines_dropped_total`) instead of the server stopping. The default, synchronous writes,
 * is for the short-lived loggers of a failed start and the tools. `destination`: a file instead of
 * stdout (the benches).
 */
export function createLogger(opts: { level?: string; pretty?: boolean; writes?: 'sync' | 'async'; destination?: string } = {}): Logger {
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
  const destination = pino.destination({
    dest: opts.destination ?? 1,
    sync: opts.writes !== 'async',
    ...(opts.writes === 'async' ? { minLength: GATHERED_LOG_BYTES, periodicFlush: GATHERED_LOG_MS, maxLength: WAITING_LOG_BYTES } : {}),
  });
  if (opts.writes === 'async') destination.on('drop', () => logLinesDropped.inc());
  return pino({ level }, destination);
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
