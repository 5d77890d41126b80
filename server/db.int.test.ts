import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from './test/databases';
import { toCount } from './db';

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

  it('counts as numbers through toCount', async () => {
    const [{ n }] = await t.db('probe').count({ n: '*' });
    expect(toCount(n)).toBe(2);
  });
});
