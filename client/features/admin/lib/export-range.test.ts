import { describe, expect, it } from 'vitest';
import { EXPORT_FILES, exportFileName, exportRangeProblem, exportUrl, thisMonth } from './export-range';

describe('the export range', () => {
  it('starts as this month in UTC, first day to last', () => {
    expect(thisMonth(new Date('2026-02-14T12:00:00Z'))).toEqual({ from: '2026-02-01', to: '2026-02-28' });
    expect(thisMonth(new Date('2028-02-29T23:59:59Z'))).toEqual({ from: '2028-02-01', to: '2028-02-29' });
    expect(thisMonth(new Date('2026-12-31T23:00:00Z'))).toEqual({ from: '2026-12-01', to: '2026-12-31' });
  });

  it("says why the server would refuse a range, in its own schema's words", () => {
    expect(exportRangeProblem({ from: '2026-01-01', to: '2026-01-31' })).toBeNull();
    expect(exportRangeProblem({ from: '2026-02-01', to: '2026-01-31' })).toBe('To must be the same day as from or later');
    expect(exportRangeProblem({ from: '2025-01-01', to: '2026-01-02' })).toBe('From and to must be at most one year apart');
    expect(exportRangeProblem({ from: '', to: '2026-01-02' })).toBe('Use an ISO date, YYYY-MM-DD');
  });

  it('links each file for the one range, saved under the name the server gives it', () => {
    const range = { from: '2026-01-01', to: '2026-01-31' };
    expect(EXPORT_FILES.map((f) => [exportUrl(f.file, range), exportFileName(f.file, range)])).toEqual([
      ['/api/admin/payments/export.csv?from=2026-01-01&to=2026-01-31', 'payments-2026-01-01-to-2026-01-31.csv'],
      ['/api/admin/books/koinly.csv?from=2026-01-01&to=2026-01-31', 'koinly-2026-01-01-to-2026-01-31.csv'],
      ['/api/admin/books/ledger.csv?from=2026-01-01&to=2026-01-31', 'ledger-2026-01-01-to-2026-01-31.csv'],
    ]);
    expect(EXPORT_FILES.map((f) => f.label)).toEqual(['Payments', 'Koinly (tax tool)', 'Order ledger']);
  });
});
