// The local database's first set-up on a slow machine, an interrupted one, and one set up before
// that no longer opens (real PGlite on disk).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { createDb } from '../db';
import { openLocalDatabase } from './local-database';
import { StartError } from '../ops/start-failure';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'pogs-local-db-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

function capture() {
  const lines: Array<{ level: number; msg: string }> = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line) as (typeof lines)[number]) });
  return { logger, msgs: () => lines.map((l) => l.msg), warnings: () => lines.filter((l) => l.level >= 40).map((l) => l.msg) };
}

describe('the local database', () => {
  const dir = path.join(root, 'slow');

  it('takes the time its first set-up takes, saying so, with no pool timeout in the way', async () => {
    const log = capture();
    // A machine so busy that opening takes 1.5 s more than it does here.
    const slow = async (at: string) => {
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      return PGlite.create(at);
    };
    const pglite = await openLocalDatabase(dir, { logger: log.logger, progressMs: 400, open: slow });
    const db = createDb({ kind: 'pglite', dir }, { pglite });
    try {
      expect((await db.raw('select 1 as one')).rows).toEqual([{ one: 1 }]);
    } finally {
      await db.destroy();
    }
    const msgs = log.msgs();
    expect(msgs[0]).toMatch(/^setting up the local database in .+ \(PGlite; a first start takes a minute on a busy machine\)$/);
    expect(msgs.filter((m) => /^still setting up the local database \(\d+ s so far\)$/.test(m)).length).toBeGreaterThanOrEqual(2);
    expect(msgs.at(-1)).toMatch(/^the local database is set up \(\d+\.\d s\)$/);
    expect(fs.existsSync(path.join(dir, '.pogs-set-up'))).toBe(true);
  });

  it('opens a folder set up before without setting it up again', async () => {
    const log = capture();
    const pglite = await openLocalDatabase(dir, { logger: log.logger });
    await pglite.close();
    expect(log.msgs()).toEqual([]);
  });

  it('moves an interrupted set-up aside (keeping it) and sets up again', async () => {
    const log = capture();
    const broken = path.join(root, 'interrupted');
    fs.mkdirSync(path.join(broken, 'base'), { recursive: true });
    fs.writeFileSync(path.join(broken, 'PG_VERSION'), 'half-written\n');
    const pglite = await openLocalDatabase(broken, { logger: log.logger });
    try {
      expect((await pglite.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
    } finally {
      await pglite.close();
    }
    expect(log.warnings()).toEqual([
      expect.stringMatching(/^the local database's set-up in .+ had been interrupted: moved to .+\.interrupted-.+, set up again$/),
    ]);
    const aside = fs.readdirSync(root).filter((name) => name.startsWith('interrupted.interrupted-'));
    expect(aside).toHaveLength(1);
    expect(fs.readFileSync(path.join(root, aside[0]!, 'PG_VERSION'), 'utf8')).toBe('half-written\n');
    expect(fs.existsSync(path.join(broken, '.pogs-set-up'))).toBe(true);
  });

  it('leaves a folder that was set up and no longer opens as it is, and says what to do', async () => {
    const log = capture();
    const damaged = path.join(root, 'damaged');
    fs.mkdirSync(path.join(damaged, 'base'), { recursive: true });
    fs.writeFileSync(path.join(damaged, 'PG_VERSION'), 'damaged\n');
    fs.writeFileSync(path.join(damaged, '.pogs-set-up'), 'set up earlier\n');
    const opened = openLocalDatabase(damaged, { logger: log.logger });
    await expect(opened).rejects.toBeInstanceOf(StartError);
    await expect(opened).rejects.toThrow(
      /could not be opened .*; it was set up before, so it is left as it is: move it aside to start with a new one, or set DATABASE_URL$/,
    );
    expect(fs.readFileSync(path.join(damaged, 'PG_VERSION'), 'utf8')).toBe('damaged\n');
    expect(fs.readdirSync(root).some((name) => name.startsWith('damaged.interrupted-'))).toBe(false);
  });
});
