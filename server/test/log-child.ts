/**
 * A process that logs as the running server does (lib/logger.ts, `writes: 'async'`), to stdout, for
 * lib/logger.int.test.ts. `node --import tsx log-child.ts <mode> <lines>`:
 *  - `exit`: logs the lines, then exits at once;
 *  - `throw`: logs the lines, then dies of an uncaught exception;
 *  - `stuck`: logs the lines in batches, an event-loop turn apart, then says on stderr how many
 *    were dropped and that it is still running, and waits to be killed.
 */
import { createLogger } from '../lib/logger';
import { registry } from '../lib/metrics';

const [mode, lines] = process.argv.slice(2);
const count = Number(lines);
const logger = createLogger({ level: 'info', writes: 'async' });
const padding = 'x'.repeat(200);

if (mode === 'stuck') {
  for (let i = 0; i < count; i += 100) {
    for (let j = i; j < Math.min(count, i + 100); j++) logger.info({ line: j, padding }, 'a line');
    await new Promise((resolve) => setImmediate(resolve));
  }
  const text = await registry.getSingleMetricAsString('pogs_log_lines_dropped_total');
  process.stderr.write(`dropped ${/ (\d+)$/m.exec(text)?.[1] ?? 'none'}, still running\n`);
  setInterval(() => undefined, 1000);
} else {
  for (let i = 0; i < count; i++) logger.info({ line: i, padding }, 'a line');
  if (mode === 'exit') process.exit(0);
  throw new Error('died after logging');
}
