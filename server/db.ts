/**
 * Database access: knex on Postgres (`pg`) or on embedded PGlite, bound to Objection. The same
 * migrations and queries run on both; tests run on both.
 */
import { isLostDatabaseConnection } from './lib/db-errors';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import knexFactory, { type Knex } from 'knex';
import type ClientPgLiteType from 'knex-pglite';
import type { PGlite } from '@electric-sql/pglite';
import { Model } from 'objection';
import type { DatabaseConfig } from './config';
import type { Logger } from './lib/logger';
import { migrations, renamedMigrations } from '../migrations';

export type Db = Knex;

/**
 * knex's client for embedded PGlite, loaded only when the database is PGlite: knex-pglite and
 * PGlite itself are development dependencies (local mode, the tests), absent from the production
 * image, which runs on Postgres. Loaded with require so createDb stays synchronous.
 *
 * knex-pglite names knex's `del` method "DEL" where knex's Postgres dialect expects "DELETE", so a
 * delete answered the raw result instead of its row count (and `if (deleted)` was always true):
 * the class returned fixes that.
 */
function pgLiteClient(): typeof knexFactory.Client {
  let ClientPgLite: typeof ClientPgLiteType;
  try {
    ClientPgLite = createRequire(import.meta.url)('knex-pglite') as typeof ClientPgLiteType;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'MODULE_NOT_FOUND') throw err;
    throw new Error('the embedded PGlite database is not installed (a production build runs on Postgres): set DATABASE_URL', {
      cause: err,
    });
  }
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
  // knex-pglite's types predate knex 3's Client typing
  return PgLiteClient as unknown as typeof knexFactory.Client;
}

const migrationSource: Knex.MigrationSource<[string, Knex.Migration]> = {
  getMigrations: async () => migrations,
  getMigrationName: ([name]) => name,
  getMigration: async ([, migration]) => migration,
};

/** How long connecting to Postgres, or waiting for a pooled connection, may take. */
const CONNECT_TIMEOUT_MS = 10_000;

export function createDb(
  config: DatabaseConfig,
  opts: {
    searchPath?: string;
    logger?: Logger;
    /** This PGlite, already open, instead of one the pool opens on its first use. */
    pglite?: PGlite;
  } = {},
): Db {
  let db: Db;
  if (config.kind === 'postgres') {
    db = knexFactory({
      client: 'pg',
      connection: {
        connectionString: config.url,
        ssl: config.ssl ? { rejectUnauthorized: true } : undefined,
        connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      },
      searchPath: opts.searchPath ? [opts.searchPath] : undefined,
      pool: { min: 0, max: 10 },
      acquireConnectionTimeout: CONNECT_TIMEOUT_MS,
      // knex's own warnings (a connection that failed, say) go to the shop's log, not the console.
      ...(opts.logger ? { log: knexLog(opts.logger) } : {}),
    });
  } else {
    if (config.dir !== ':memory:') fs.mkdirSync(config.dir, { recursive: true });
    const client = pgLiteClient();
    // A PGlite already open (main.ts sets up the local one first, local-database.ts; the tests
    // start theirs from a migrated dump), or one the pool opens on first use.
    const connection: object = opts.pglite ? { pglite: opts.pglite } : config.dir === ':memory:' ? {} : { filename: config.dir };
    db = knexFactory({ client, dialect: 'postgres', connection } as Knex.Config);
  }
  Model.knex(db);
  return db;
}

function knexLog(logger: Logger): Knex.Config['log'] {
  const text = (message: unknown) => (message instanceof Error ? message.message : String(message));
  // A connection that could not be had or was lost is an outage: whoever met it reports it, once
  // per outage (lib/outages.ts); knex's own line for each attempt (with a stack) is only for debugging.
  const lost = (message: unknown) =>
    /^(Acquire connection error|Connection Error):/.test(text(message)) || isLostDatabaseConnection(message);
  return {
    warn: (message: unknown) =>
      lost(message)
        ? logger.debug({ reason: text(message).split('\n')[0] }, 'database')
        : logger.warn({ reason: text(message) }, 'database'),
    error: (message: unknown) => logger.error({ reason: text(message) }, 'database'),
    deprecate: (method: string, alternative: string) => logger.debug({ method, alternative }, 'database: deprecated call'),
    debug: () => {},
  };
}

/** Advisory lock key held while one instance migrates ("MIGR"). */
const MIGRATION_LOCK = 0x4d494752;

/**
 * Runs every pending migration; safe to call on every start. A database a newer version already
 * migrated further (instances rolling forward, or this version rolled back to) is not an error:
 * migrations are additive within a release, so this version keeps serving on it; `newer` names
 * the migrations it does not know, for the caller to say so.
 */
export async function migrate(db: Db): Promise<{ applied: string[]; newer: string[] }> {
  // Renamed, then run, on the pool's connections as knex runs migrations (committed before it
  // reads what was applied); the lock below keeps other instances out meanwhile.
  const latest = async () => {
    await renameApplied(db);
    const [, names] = (await db.migrate.latest({ migrationSource, disableMigrationsListValidation: true })) as [number, string[]];
    return names;
  };
  // Instances started together all migrate: on Postgres one holds this lock while it runs them,
  // and the others wait for it (and then find nothing left to do). PGlite has one process.
  const applied =
    dbKind(db) === 'postgres'
      ? await db.transaction(async (trx) => {
          await trx.raw('select pg_advisory_xact_lock(?)', [MIGRATION_LOCK]);
          return latest();
        })
      : await latest();
  const ours = new Set(migrations.map(([name]) => name));
  const newer = (await appliedMigrations(db)).filter((name) => !ours.has(name));
  return { applied, newer };
}

/**
 * Gives the rows of migrations applied under an earlier name (migrations/index.ts,
 * `renamedMigrations`) the name they have now, so they are not run again. Nothing to do on a new
 * database (no knex_migrations yet) or once done.
 */
async function renameApplied(db: Db): Promise<void> {
  if (!(await db.schema.hasTable('knex_migrations'))) return;
  for (const [earlier, now] of renamedMigrations) {
    await db('knex_migrations').where({ name: earlier }).update({ name: now });
  }
}

async function appliedMigrations(db: Db): Promise<string[]> {
  return (await db('knex_migrations').orderBy('id').select('name')).map((row: { name: string }) => row.name);
}

/** This version's migrations not applied yet (read only: for readiness). */
export async function migrationsPending(db: Db): Promise<string[]> {
  const applied = new Set(await appliedMigrations(db));
  return migrations.map(([name]) => name).filter((name) => !applied.has(name));
}

/** Postgres `count(*)` is a bigint: pg answers a string, PGlite a number. */
export function toCount(value: unknown): number {
  return Number(value ?? 0);
}

/** Which database a knex instance talks to (a test's config may not say: it is given a Db). */
export function dbKind(db: Db): 'postgres' | 'pglite' {
  return db.client.config.client === 'pg' ? 'postgres' : 'pglite';
}
