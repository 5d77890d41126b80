/**
 * Integration tests run against every database the machine has: always PGlite (in memory), and
 * Postgres too when TEST_DATABASE_URL is set. Each test file gets its own Postgres schema, so
 * files run in parallel without seeing each other's rows.
 */
import { randomBytes } from 'node:crypto';
import { createDb, migrate, type Db } from '../db';

export interface TestDatabase {
  kind: 'pglite' | 'postgres';
  db: Db;
  /** Postgres only: another connection pool on the same schema, as a second server process would have. */
  connectAgain?(): Db;
  destroy(): Promise<void>;
}

export const testDatabaseKinds: Array<'pglite' | 'postgres'> = process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

export async function createTestDatabase(kind: 'pglite' | 'postgres'): Promise<TestDatabase> {
  if (kind === 'pglite') {
    const db = createDb({ kind: 'pglite', dir: ':memory:' });
    await migrate(db);
    return { kind, db, destroy: () => db.destroy() };
  }
  const url = process.env.TEST_DATABASE_URL!;
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const admin = createDb({ kind: 'postgres', url, ssl: false });
  await admin.raw('create schema ??', [schema]);
  await admin.destroy();
  const db = createDb({ kind: 'postgres', url, ssl: false }, { searchPath: schema });
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
      await db.raw('drop schema ?? cascade', [schema]);
      await db.destroy();
    },
  };
}
