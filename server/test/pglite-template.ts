/**
 * The integration layer's global setup: one PGlite database migrated once and dumped to a file,
 * which every test file's PGlite database starts from (databases.ts) instead of creating and
 * migrating its own. Made afresh each run, so it always holds this checkout's migrations.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { createDb, migrate } from '../db';

/** The variable that names the dump's file to the test workers (they inherit this process's environment). */
export const PGLITE_TEMPLATE_ENV = 'TEST_PGLITE_TEMPLATE';

export default async function setup(): Promise<() => void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pogs-pglite-'));
  const file = path.join(dir, 'migrated.tar');
  const db = createDb({ kind: 'pglite', dir: ':memory:' });
  try {
    await migrate(db);
    const pglite = (db.client as { pglite: PGlite }).pglite;
    fs.writeFileSync(file, Buffer.from(await (await pglite.dumpDataDir('none')).arrayBuffer()));
  } finally {
    await db.destroy();
  }
  process.env[PGLITE_TEMPLATE_ENV] = file;
  return () => {
    delete process.env[PGLITE_TEMPLATE_ENV];
    fs.rmSync(dir, { recursive: true, force: true });
  };
}
