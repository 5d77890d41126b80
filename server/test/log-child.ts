/**
 * A process that logs as the running server does (lib/logger.ts, `requestLines: 'gathered'`), to
 * stdout, for lib/logger.int.test.ts. `node --import tsx log-child.ts <mode> <lines>` logs <lines>
 * request lines, then:
 *  - `exit`: exits at once;
 *  - `throw`: dies of an uncaught exception;
 *  - `kill`: logs one event line and kills itself with SIGKILL;
 *  - `stuck`: logs them in batches an event-loop turn apart, then says on stderr how many were
 *    dropped and that it is still running, and waits to be killed.
 */
import { createLogger, requestLoggerOf } from '../lib/logger';
import { registry } from '../lib/metrics';

const [mode, lines] = process.argv.slice(2);
const count = Number(lines);
const logger = createLogger({ level: 'info', requestLines: 'gathered' });
const requests = requestLoggerOf(logger);
const padding = 'x'.repeat(200);

if (mode === 'stuck') {
  for (let i = 0; i < count; i += 100) {
    for (let j = i; j < Math.min(count, i + 100); j++) requests.info({ line: j, padding }, 'request');
    await new Promise((resolve) => setImmediate(resolve));
  }
  const text = await registry.getSingleMetricAsString('pogs_log_lines_dropped_total');
  process.stderr.write(`dropped ${/ (\d+)$/m.exec(text)?.[1] ?? 'none'}, still running\n`);
  setInterval(() => undefined, 1000);
} else {
  for (let i = 0; i < count; i++) requests.info({ line: i, padding }, 'request');
  if (mode === 'exit') process.exit(0);
  if (mode === 'kill') {
    logger.info({ event: 'judged' }, 'payment settled');
    process.kill(process.pid, 'SIGKILL');
  }
  throw new Error('died after logging');
}
