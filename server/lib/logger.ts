import { createRequire } from 'node:module';
import pino, { type Logger } from 'pino';

/**
 * JSON logs in production (one line per event), readable ones on a developer's terminal. pino-pretty
 * is a development dependency: where it is not installed (the production image run without
 * NODE_ENV=production) the logs stay JSON rather than the start failing.
 */
export function createLogger(opts: { level?: string; pretty?: boolean } = {}): Logger {
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
  return pino({ level });
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
