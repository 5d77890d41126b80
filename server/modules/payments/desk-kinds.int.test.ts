/**
 * The payments desk's rule in SQL (desk-kinds.ts: the kinds and the export's status) against the
 * same rule in JavaScript, for every status and every overlap of facts, on each database.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attentionKindSchema } from '../../../common/payments-desk';
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from '../../test/databases';
import { attentionKindOf, attentionKindSql, exportStatusOf, exportStatusSql, type FactsSql, type TransferFacts } from './desk-kinds';

describe.each(testDatabaseKinds)('the desk rule in SQL on %s', (kind) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await database?.destroy();
  });

  it('computes every kind and export status in SQL as the rule does in JavaScript, for every status and every overlap of facts', async () => {
    const names = ['orderReorged', 'paying', 'onHold', 'overpaid', 'late'] as const;
    const statuses: Array<[string, string | null]> = [
      ['matched', null],
      ['unmatched', null],
      ['underpaid', null],
      ['extra-payment', null],
      ['removed', null],
      ['refunded', null],
      ...['unmatched', 'underpaid', 'extra-payment', 'removed'].map((s): [string, string] => ['refunded', s]),
      // A status the desk does not know needs nobody, in both.
      ['pending', null],
    ];
    const cases: TransferFacts[] = statuses.flatMap(([status, statusBeforeRefund]) =>
      Array.from({ length: 32 }, (_, bits) => ({
        status,
        statusBeforeRefund,
        ...(Object.fromEntries(names.map((n, i) => [n, Boolean(bits & (2 ** i))])) as Record<(typeof names)[number], boolean>),
      })),
    );
    const sql: FactsSql = {
      status: 'f.status',
      statusBeforeRefund: 'f.before',
      orderReorged: 'f.reorged',
      paying: 'f.paying',
      onHold: 'f.on_hold',
      overpaid: 'f.overpaid',
      late: 'f.late',
    };
    const values = cases.map((_, i) => `(${i}, ?, ?::text, ?::boolean, ?::boolean, ?::boolean, ?::boolean, ?::boolean)`).join(', ');
    const bindings = cases.flatMap((c) => [c.status, c.statusBeforeRefund, c.orderReorged, c.paying, c.onHold, c.overpaid, c.late]);
    const result = await database.db.raw(
      `select f.n, ${attentionKindSql(sql)} as kind,
              ${exportStatusSql('f.status')} as exported
         from (values ${values}) as f(n, status, before, reorged, paying, on_hold, overpaid, late) order by f.n`,
      bindings,
    );
    const rows: Array<{ kind: string | null; exported: string | null }> = result.rows;
    expect(rows).toHaveLength(cases.length);
    rows.forEach((row, i) => {
      const c = cases[i]!;
      const what = JSON.stringify(c);
      expect(row.kind, what).toBe(attentionKindOf(c));
      // The export's status of a transfer that made no order, by its status alone.
      expect(row.exported, what).toBe(exportStatusOf(c.status));
    });
    // Every kind is among the cases.
    expect(new Set(cases.map((c) => attentionKindOf(c)))).toEqual(new Set([...attentionKindSchema.options, null]));
  });
});
