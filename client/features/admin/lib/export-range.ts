import { paymentsExportQuerySchema } from '../../../../common/payments-desk';

export interface ExportRange {
  /** Inclusive ISO dates (YYYY-MM-DD), UTC days as the server reads them. */
  from: string;
  to: string;
}

const isoDay = (d: Date) => d.toISOString().slice(0, 10);

/** This month, in UTC: its first day to its last. */
export function thisMonth(now: Date = new Date()): ExportRange {
  const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const last = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 0));
  return { from: isoDay(first), to: isoDay(last) };
}

/** Why the server would refuse the range (its own schema's message), or null when it is fine. */
export function exportRangeProblem(range: ExportRange): string | null {
  const parsed = paymentsExportQuerySchema.safeParse(range);
  if (parsed.success) return null;
  const message = parsed.error.issues[0]?.message ?? 'choose two dates';
  return message.charAt(0).toUpperCase() + message.slice(1);
}

/** The CSV download's address: GET /api/admin/payments/export.csv?from=&to=. */
export function exportUrl(range: ExportRange): string {
  return `/api/admin/payments/export.csv?${new URLSearchParams({ from: range.from, to: range.to }).toString()}`;
}
