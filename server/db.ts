/**
 * Database access: knex on Postgres (`pg`) or on embedded PGlite, bound to Objection. The same
 * migrations and queries run on both; tests run on both.
 */
import fs from 'node:fs';
import knexFactory, { type Knex } from 'knex';
import ClientPgLite from 'knex-pglite';
import { Model } from 'objection';
import type { DatabaseConfig } from './config';
import { migrations } from '../migrations';

export type Db = Knex;

/**
 * knex-pglite names knex's `del` method "DEL" where knex's Postgres dialect expects "DELETE", so a
 * delete answered the raw result instead of its row count (and `if (deleted)` was always true).
 */
const PgLiteClient = class extends (ClientPgLite as unknown as new (config: Knex.Config) => object) {
  processResponse(obj: { method?: string } | null, runner: unknown) {
    const fixed = obj?.method === 'del' ? { ...obj, method: 'delete' } : obj;
    return (ClientPgLite.prototype as unknown as { processResponse: (o: unknown, r: unknown) => unknown }).processResponse.call(
      this,
      fixed,
      runner,
    );
  }
};

const migrationSource: Knex.MigrationSource<[string, Knex.Migration]> = {
  getMigrations: async () => migrations,
  getMigrationName: ([name]) => name,
  getMigration: async ([, migration]) => migration,
};

export function createDb(config: DatabaseConfig, opts: { searchPath?: string } = {}): Db {
  let db: Db;
  if (config.kind === 'postgres') {
    db = knexFactory({
      client: 'pg',
      connection: { connectionString: config.url, ssl: config.ssl ? { rejectUnauthorized: true } : undefined },
      searchPath: opts.searchPath ? [opts.searchPath] : undefined,
      pool: { min: 0, max: 10 },
    });
  } else {
    if (config.dir !== ':memory:') fs.mkdirSync(config.dir, { recursive: true });
    db = knexFactory({
      // knex-pglite's types predate knex 3's Client typing
      client: PgLiteClient as unknown as typeof knexFactory.Client,
      dialect: 'postgres',
      connection: config.dir === ':memory:' ? {} : { filename: config.dir },
    } as Knex.Config);
  }
  Model.knex(db);
  return db;
}

/** Runs every pending migration; safe to call on every start. */
export async function migrate(db: Db): Promise<string[]> {
  const [, applied] = (await db.migrate.latest({ migrationSource })) as [number, string[]];
  return applied;
}

/** Postgres `count(*)` is a bigint: pg answers a string, PGlite a number. */
export function toCount(value: unknown): number {
  return Number(value ?? 0);
}

/** Which database a knex instance talks to (a test's config may not say: it is given a Db). */
export function dbKind(db: Db): 'postgres' | 'pglite' {
  return db.client.config.client === 'pg' ? 'postgres' : 'pglite';
}
