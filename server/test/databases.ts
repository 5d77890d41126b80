/**
 * Integration tests run against every database the machine has: always PGlite (in memory), and
 * Postgres too when TEST_DATABASE_URL is set. Each test file gets its own Postgres schema, so
 * files run in parallel without seeing each other's rows.
 *
 * A new PGlite database costs about 3.5 s to create and migrate, so the integration layer's
 * global setup (pglite-template.ts) migrates one once and dumps it: each PGlite database then
 * starts from that dump (about 0.7 s) and migrate finds nothing left to do. Without the dump (a
 * benchmark, say) it is created and migrated as before.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { createDb, migrate, type Db } from '../db';
import { PGLITE_TEMPLATE_ENV } from './pglite-template';

export interface TestDatabase {
  kind: 'pglite' | 'postgres';
  db: Db;
  /** Postgres only: another connection pool on the same schema, as a second server process would have. */
  connectAgain?(): Db;
  destroy(): Promise<void>;
}

export const testDatabaseKinds: Array<'pglite' | 'postgres'> = process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

/** `via`: Postgres only, the URL the app's connections go through (a proxy a test can cut); the schema is made directly. */
export async function createTestDatabase(kind: 'pglite' | 'postgres', via?: string): Promise<TestDatabase> {
  if (kind === 'pglite') {
    const template = process.env[PGLITE_TEMPLATE_ENV];
    const db = createDb(
      { kind: 'pglite', dir: ':memory:' },
      template ? { pglite: new PGlite({ loadDataDir: new Blob([fs.readFileSync(template)]) }) } : {},
    );
    await migrate(db);
    return { kind, db, destroy: () => db.destroy() };
  }
  const url = process.env.TEST_DATABASE_URL!;
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const admin = createDb({ kind: 'postgres', url, ssl: false });
  await admin.raw('create schema ??', [schema]);
  await admin.destroy();
  const db = createDb({ kind: 'postgres', url: via ?? url, ssl: false }, { searchPath: schema });
  await migrate(db);
  const extra: Db[] = [];
  return {
    kind,
    db,
    connectAgain() {
      const again = createDb({ kind: 'postgres', url, ssl: false }, { searchPath: schema });
      extra.push(again);
      return again;
    },
    async destroy() {
      for (const d of extra) await d.destroy();
      await db.destroy();
      // Directly: the way the app went may be cut.
      const admin = createDb({ kind: 'postgres', url, ssl: false });
      await admin.raw('drop schema ?? cascade', [schema]);
      await admin.destroy();
    },
  };
}
