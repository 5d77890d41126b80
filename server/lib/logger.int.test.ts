// The running server's logger (requestLines: 'gathered'): request lines logged just before the
// process ends are still written, an event line survives even a kill -9, and an output that stops
// reading drops request lines instead of stopping the process.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const CHILD = path.resolve(import.meta.dirname, '../test/log-child.ts');

function run(mode: string, lines: number) {
  return spawn(process.execPath, ['--import', 'tsx', CHILD, mode, String(lines)], { stdio: ['ignore', 'pipe', 'pipe'] });
}

async function linesOf(mode: string, lines: number): Promise<{ code: number | null; numbers: number[]; events: string[] }> {
  const child = run(mode, lines);
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  const parsed = out
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { line?: number; msg: string });
  const numbers = parsed.map((l) => l.line).filter((n): n is number => n !== undefined);
  return { code, numbers, events: parsed.filter((l) => l.line === undefined).map((l) => l.msg) };
}

describe('the running server’s logger', () => {
  it.each([
    ['exits', 'exit', 0],
    ['dies of an uncaught exception', 'throw', 1],
  ])('writes every request line logged before the process %s', async (_, mode, exitCode) => {
    const { code, numbers } = await linesOf(mode as string, 5000);
    expect(code).toBe(exitCode);
    expect(numbers).toEqual(Array.from({ length: 5000 }, (__, i) => i));
  });

  it('writes an event line before the call returns: it is there after a kill -9', async () => {
    const { events } = await linesOf('kill', 3000);
    expect(events).toEqual(['payment settled']);
  });

  it('drops and counts lines while its output stops reading, and the process goes on', async () => {
    // About 35 MB of lines to a pipe nobody reads: 16 MiB wait, the rest is dropped.
    const child = run('stuck', 120_000);
    try {
      let err = '';
      child.stderr.setEncoding('utf8');
      const report = await new Promise<string>((resolve, reject) => {
        child.stderr.on('data', (chunk: string) => {
          err += chunk;
          if (err.includes('\n')) resolve(err);
        });
        child.on('close', (code) => reject(new Error(`the child ended (${code}) before reporting: ${err}`)));
      });
      const dropped = Number(/dropped (\d+), still running/.exec(report)?.[1]);
      expect(dropped).toBeGreaterThan(30_000);
      expect(dropped).toBeLessThan(120_000);
    } finally {
      child.kill('SIGKILL');
    }
  });
});
