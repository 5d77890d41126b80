/**
 * What every CSV file the admin downloads shares (the payments desk's export, the books): one
 * record per line as RFC 4180 says, with formulas kept from running, and the date range's instants.
 */

/**
 * What a spreadsheet may run as a formula: =, +, - or @ first, after any spaces or control
 * characters it skips (" =1+1", "\u00a0@SUM(A1)"), or a tab or CR first (OWASP's CSV injection list).
 */
const FORMULA_START = /^(?:[\s\p{Cc}]*[=+\-@]|[\t\r])/u;

/**
 * One CSV record (RFC 4180): a field with a comma, quote or line break is quoted, its quotes
 * doubled. A field a spreadsheet would run as a formula (FORMULA_START: text from Shopify, say)
 * gets a leading apostrophe, so it is shown as text.
 */
export function csvLine(fields: readonly string[]): string {
  return (
    fields
      .map((field) => {
        const f = FORMULA_START.test(field) ? `'${field}` : field;
        return /[",\r\n]/.test(f) ? `"${f.replace(/"/g, '""')}"` : f;
      })
      .join(',') + '\r\n'
  );
}

/** The instants of a range of whole UTC days, `from` to `to` inclusive (ISO dates): [start, end). */
export function dayRange(from: string, to: string): { start: Date; end: Date } {
  const start = new Date(`${from}T00:00:00Z`);
  const end = new Date(`${to}T00:00:00Z`);
  end.setUTCDate(end.getUTCDate() + 1);
  return { start, end };
}
