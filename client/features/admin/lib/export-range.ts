import { BOOKS_FILES, type BooksFile } from '../../../../common/books';
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

/** The files the export offers for one range: the payments desk's, and the books (docs/books.md). */
export type ExportFile = 'payments' | BooksFile;

/** Each file as the dialog offers it, in order: its name and a short line on what it is for. */
export const EXPORT_FILES: ReadonlyArray<{ file: ExportFile; label: string; hint: string }> = [
  { file: 'payments', label: 'Payments', hint: 'Every payment and refund, as on this desk.' },
  { file: 'koinly', label: 'Koinly (tax tool)', hint: 'To import into Koinly as a custom CSV.' },
  { file: 'ledger', label: 'Order ledger', hint: 'One line per order: items, dollars, refunds.' },
];

const PATHS: Record<ExportFile, string> = { payments: '/api/admin/payments/export.csv', ...BOOKS_FILES };

/** A file's download address for the range: GET <path>?from=&to=. */
export function exportUrl(file: ExportFile, range: ExportRange): string {
  return `${PATHS[file]}?${new URLSearchParams({ from: range.from, to: range.to }).toString()}`;
}

/** The name the file is saved under (the server's own: "koinly-2026-01-01-to-2026-01-31.csv"). */
export function exportFileName(file: ExportFile, range: ExportRange): string {
  return `${file}-${range.from}-to-${range.to}.csv`;
}
