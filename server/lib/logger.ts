import pino, { type Logger } from 'pino';

/** JSON logs in production (one line per event), readable ones on a developer's terminal. */
export function createLogger(opts: { level?: string; pretty?: boolean } = {}): Logger {
  const level = opts.level ?? process.env.LOG_LEVEL ?? 'info';
  if (opts.pretty) {
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

export type { Logger };
