/**
 * The accountant's export (common/payments-desk.ts PAYMENTS_EXPORT_COLUMNS), from `from` to `to`
 * (whole UTC days, inclusive) as CSV (RFC 4180, CRLF), header first, oldest first, read in batches
 * so a year is never held at once. One row per payment the store kept track of:
 * - each order paid in the range (date paid; status the order's; amount paid what all its
 *   transfers carried; refunded what went back against it; its Shopify order name);
 * - each transfer seen in the range that made no order: `unmatched`, `underpaid` (its checkout
 *   still waits), `extra-payment` (it came after its checkout's order; the order's id is given),
 *   `refunded` (it went back before any order; refunded says how much).
 * An order's row ends with its amount paid in dollars at its payment's block, when it kept a
 * dollar reference (docs/price-reference.md). A transfer a reorganisation removed carried no money and is left out. Summing amount_paid minus
 * amount_refunded gives what the store wallet kept. Which transfers are listed, and the status of
 * each, are the rule of payments' desk-kinds.ts; payments reads the rows in batches (exportBatch).
 */
import { Readable } from 'node:stream';
import { PAYMENTS_EXPORT_COLUMNS } from '../../../common/payments-desk';
import type { Db } from '../../db';
import { csvLine, dayRange } from './csv';
import { EXPORT_BATCH, exportBatch, type ExportRow } from './desk/export-reads';
import { iso, pog, wei } from './desk-format';
import { usdReference } from '../../../common/usd-reference';

/** The export from `from` to `to` (ISO dates, UTC, inclusive), streamed. */
export function paymentsExportCsv(db: Db, from: string, to: string): Readable {
  const { start, end } = dayRange(from, to);
  // One chunk per batch (a chunk per line would cost more than the rows).
  async function* chunks(): AsyncGenerator<string> {
    yield csvLine(PAYMENTS_EXPORT_COLUMNS);
    let after: ExportRow | null = null;
    for (;;) {
      const batch: ExportRow[] = await exportBatch(db, start, end, after);
      let text = '';
      for (const r of batch) {
        const fields = [iso(r.at), r.order_id ?? '', r.status, r.tx_hash, r.sender, pog(wei(r.paid_wei)), pog(wei(r.refunded_wei))];
        const usd = r.usd_per_pogs === null ? null : usdReference(wei(r.paid_wei), r.usd_per_pogs);
        text += csvLine([...fields, r.name ?? '', usd ?? '']);
      }
      if (text) yield text;
      if (batch.length < EXPORT_BATCH) return;
      after = batch.at(-1)!;
    }
  }
  return Readable.from(chunks());
}
