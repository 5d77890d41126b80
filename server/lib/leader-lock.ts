/**
 * "Only one of these runs per database, however many servers run" (the chain watcher): a Postgres
 * session-level advisory lock held on a dedicated connection for as long as this process leads.
 * If the connection dies, Postgres releases the lock and another instance takes over. PGlite is
 * a single-process database, so the process that opened it is always the leader.
 *
 * The lock is per schema (its state, e.g. the watcher's cursor, lives in the schema): shops or
 * test runs sharing one Postgres database in different schemas never wait for each other.
 */
import type { Db } from '../db';

interface PgConnection {
  query(sql: string, params?: unknown[]): Promise<{ rows: Array<Record<string, unknown>> }>;
  on?(event: 'error', listener: (err: Error) => void): void;
}

export class LeaderLock {
  private connection: PgConnection | null = null;
  private broken = false;

  constructor(
    private readonly db: Db,
    private readonly key: number,
    private readonly kind: 'postgres' | 'pglite',
  ) {}

  /** True while this process holds the lock; tries to take it when it does not. */
  async acquire(): Promise<boolean> {
    if (this.kind === 'pglite') return true;
    if (this.connection && !this.broken) return true;
    if (this.connection) await this.release();
    const client = this.db.client as unknown as {
      acquireConnection(): Promise<PgConnection>;
      releaseConnection(c: PgConnection): Promise<void>;
    };
    const connection = await client.acquireConnection();
    try {
      const { rows } = await connection.query('select pg_try_advisory_lock(hashtext(current_schema()), $1) as ok', [this.key]);
      if (rows[0]?.ok === true) {
        this.connection = connection;
        this.broken = false;
        connection.on?.('error', () => {
          this.broken = true;
        });
        return true;
      }
    } catch {
      // fall through: not the leader this time
    }
    await client.releaseConnection(connection);
    return false;
  }

  async release(): Promise<void> {
    const connection = this.connection;
    if (!connection) return;
    this.connection = null;
    const client = this.db.client as unknown as { releaseConnection(c: PgConnection): Promise<void> };
    try {
      if (!this.broken) await connection.query('select pg_advisory_unlock(hashtext(current_schema()), $1)', [this.key]);
    } catch {
      // the session is gone, and its lock with it
    }
    await client.releaseConnection(connection);
  }
}
