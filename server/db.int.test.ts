import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from './test/databases';
import { createDb, migrate, migrationsPending, toCount, type Db } from './db';
import { migrations, renamedMigrations } from '../migrations';
import * as extraPaymentStatus from '../migrations/20261128000000_extra_payment_status';

// The same queries must mean the same on PGlite and on Postgres.
describe.each(testDatabaseKinds)('database on %s', (kind) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase(kind);
    await t.db.schema.createTable('probe', (tb) => {
      tb.integer('id');
      tb.decimal('amount', 38, 18);
    });
    await t.db('probe').insert([
      { id: 1, amount: '0.1' },
      { id: 2, amount: '12345678901234567890.123456789012345678' },
      { id: 3, amount: '3' },
    ]);
  });
  afterAll(async () => {
    await t?.destroy();
  });

  it('answers row counts for update and delete', async () => {
    expect(await t.db('probe').where({ id: 3 }).update({ amount: '4' })).toBe(1);
    expect(await t.db('probe').where({ id: 99 }).update({ amount: '4' })).toBe(0);
    expect(await t.db('probe').where({ id: 3 }).delete()).toBe(1);
    expect(await t.db('probe').where({ id: 3 }).delete()).toBe(0);
  });

  it('keeps numerics exact, as strings', async () => {
    const rows = await t.db('probe').orderBy('id').select('amount');
    expect(rows.map((r) => r.amount)).toEqual(['0.100000000000000000', '12345678901234567890.123456789012345678']);
  });

  it('gives migrations applied under an earlier name their name now, and runs none again', async () => {
    const db = t.db;
    const names = async () => (await db('knex_migrations').orderBy('id').select('name')).map((r: { name: string }) => r.name);
    const now = await names();
    // The database of a shop that applied them under the names they had then.
    for (const [earlier, renamed] of renamedMigrations) await db('knex_migrations').where({ name: renamed }).update({ name: earlier });
    expect(await names()).toEqual(expect.arrayContaining(renamedMigrations.map(([earlier]) => earlier)));
    expect(await migrationsPending(db)).toEqual(renamedMigrations.map(([, renamed]) => renamed));
    // Run again, they would fail (their tables exist): they are recognised instead.
    expect(await migrate(db)).toEqual({ applied: [], newer: [] });
    expect(await names()).toEqual(now);
    expect(await migrationsPending(db)).toEqual([]);
  });

  it('counts as numbers through toCount', async () => {
    const [{ n }] = await t.db('probe').count({ n: '*' });
    expect(toCount(n)).toBe(2);
  });

  it('renames the stored status of a further payment to a paid checkout (review, then extra-payment) both ways, and its index', async () => {
    const db = t.db;
    const statuses = async () =>
      (await db('chain_transfers').orderBy('log_index').select('status', 'status_before_refund')).map(
        (r: { status: string; status_before_refund: string | null }) => [r.status, r.status_before_refund],
      );
    const indexDef = async () =>
      String(
        (
          await db.raw(
            `select indexdef from pg_indexes where indexname = 'chain_transfers_unordered_created' and schemaname = current_schema()`,
          )
        ).rows[0]?.indexdef,
      );
    // The database as it was before the migration, with a transfer of each status of that day.
    await extraPaymentStatus.down(db);
    const before: Array<[string, string | null]> = [
      ['matched', null],
      ['unmatched', null],
      ['underpaid', null],
      ['review', null],
      ['removed', null],
      ['refunded', 'review'],
      ['refunded', 'unmatched'],
    ];
    await db('chain_transfers').insert(
      before.map(([status, statusBeforeRefund], i) => ({
        chain_id: 31337,
        tx_hash: `0x${'ab'.repeat(32)}`,
        log_index: i,
        block_number: 1,
        block_hash: `0x${'cd'.repeat(32)}`,
        token_address: `0x${'01'.repeat(20)}`,
        from_address: `0x${'02'.repeat(20)}`,
        to_address: `0x${'03'.repeat(20)}`,
        value_wei: '1',
        status,
        status_before_refund: statusBeforeRefund,
      })),
    );
    expect(await indexDef()).toContain("'review'");

    await extraPaymentStatus.up(db);
    const after = before.map(([s, b]): [string, string | null] => [
      s === 'review' ? 'extra-payment' : s,
      b === 'review' ? 'extra-payment' : b,
    ]);
    expect(await statuses()).toEqual(after);
    expect(await indexDef()).toContain("'extra-payment'");
    expect(await indexDef()).not.toContain("'review'");

    await extraPaymentStatus.down(db);
    expect(await statuses()).toEqual(before);
    expect(await indexDef()).toContain("'review'");
    expect(await indexDef()).not.toContain("'extra-payment'");

    await extraPaymentStatus.up(db);
    expect(await statuses()).toEqual(after);
    await db('chain_transfers').delete();
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)('migrations, as instances rolling meet them (Postgres)', () => {
  const url = process.env.TEST_DATABASE_URL!;
  const schema = `t_mig_${Date.now().toString(36)}`;
  const connect = () => createDb({ kind: 'postgres', url, ssl: false }, { searchPath: schema });
  const dbs: Db[] = [];
  beforeAll(async () => {
    const admin = createDb({ kind: 'postgres', url, ssl: false });
    await admin.raw('create schema ??', [schema]);
    await admin.destroy();
  });
  afterAll(async () => {
    for (const db of dbs) await db.destroy();
    const admin = createDb({ kind: 'postgres', url, ssl: false });
    await admin.raw('drop schema ?? cascade', [schema]);
    await admin.destroy();
  });

  it('two instances starting together both start: one migrates, the other waits and finds nothing to do', async () => {
    const [a, b] = [connect(), connect()];
    dbs.push(a, b);
    const [ra, rb] = await Promise.all([migrate(a), migrate(b)]);
    expect([ra.applied.length, rb.applied.length].sort((x, y) => x - y)).toEqual([0, migrations.length]);
    expect(await migrationsPending(a)).toEqual([]);
  });

  it('this version serves on a database a newer version migrated further, and says which migrations it does not know', async () => {
    const db = connect();
    dbs.push(db);
    await db('knex_migrations').insert({ name: '29990101000000_from_the_future.ts', batch: 99, migration_time: new Date() });
    const again = await migrate(db);
    expect(again).toEqual({ applied: [], newer: ['29990101000000_from_the_future.ts'] });
    expect(await migrationsPending(db)).toEqual([]);
  });
});
