/**
 * The books (common/books.ts, docs/books.md) from `from` to `to` (whole UTC days, inclusive) as
 * CSV (RFC 4180, CRLF, formulas neutralised by csvLine), header first, oldest first, read a batch
 * at a time (desk/books-reads.ts) so a year is never held at once:
 * - koinlyCsv: Koinly's universal import, one row per transfer the store wallet received (an
 *   order's payment tagged as income, worth its dollars at payment when the order kept a
 *   reference) and one per refund it sent, the two read side by side and merged by time;
 * - ledgerCsv: one row per order paid, with its lines, its reference, its refunds and its hashes.
 */
import { Readable } from 'node:stream';
import { KOINLY_COLUMNS, LEDGER_COLUMNS } from '../../../common/books';
import { usdReference } from '../../../common/usd-reference';
import type { Db } from '../../db';
import {
  BOOKS_CURRENCY,
  itemsText,
  KOINLY_INCOME,
  koinlyDate,
  NET_WORTH_CURRENCY,
  plainDecimal,
  receivedDescription,
  sentDescription,
} from './books-text';
import { csvLine, dayRange } from './csv';
import { BOOKS_BATCH, ledgerBatch, receivedBatch, sentBatch, type LedgerRow, type ReceivedRow, type SentRow } from './desk/books-reads';
import { iso, pog, wei } from './desk-format';

/** Rows read a batch at a time: `peek` the next (reading the next batch when this one is used up), `shift` past it. */
function batched<T, K>(read: (after: K | null) => Promise<T[]>, keyOf: (row: T) => K) {
  let rows: T[] = [];
  let i = 0;
  let done = false;
  let after: K | null = null;
  return {
    async peek(): Promise<T | undefined> {
      if (i < rows.length || done) return rows[i];
      rows = await read(after);
      i = 0;
      done = rows.length < BOOKS_BATCH;
      if (rows.length > 0) after = keyOf(rows.at(-1)!);
      return rows[0];
    },
    shift() {
      i++;
    },
  };
}

const time = (at: Date | string) => new Date(at).getTime();

function receivedLine(r: ReceivedRow): string {
  const income = r.order_id !== null && !r.order_reorged;
  const usd = r.order_id !== null && r.usd_per_pogs !== null ? usdReference(wei(r.value_wei), r.usd_per_pogs) : null;
  return csvLine([
    koinlyDate(r.at),
    '',
    '',
    pog(wei(r.value_wei)),
    BOOKS_CURRENCY,
    '',
    '',
    usd ?? '',
    usd === null ? '' : NET_WORTH_CURRENCY,
    income ? KOINLY_INCOME : '',
    receivedDescription(r),
    r.tx_hash,
  ]);
}

function sentLine(s: SentRow): string {
  return csvLine([koinlyDate(s.at), pog(wei(s.amount_wei)), BOOKS_CURRENCY, '', '', '', '', '', '', '', sentDescription(s), s.tx_hash]);
}

/** Koinly's universal file from `from` to `to` (ISO dates, UTC, inclusive), streamed: transfers in and refunds out, by time (at the same instant, in first). */
export function koinlyCsv(db: Db, from: string, to: string): Readable {
  const { start, end } = dayRange(from, to);
  async function* chunks(): AsyncGenerator<string> {
    yield csvLine(KOINLY_COLUMNS);
    const received = batched(
      (after: number | null) => receivedBatch(db, start, end, after),
      (r) => r.id,
    );
    const sent = batched(
      (after: number | null) => sentBatch(db, start, end, after),
      (s) => s.id,
    );
    // One chunk per BOOKS_BATCH rows (a chunk per line would cost more than the rows).
    let text = '';
    let n = 0;
    for (;;) {
      const r = await received.peek();
      const s = await sent.peek();
      if (!r && !s) break;
      if (r && (!s || time(r.at) <= time(s.at))) {
        text += receivedLine(r);
        received.shift();
      } else {
        text += sentLine(s!);
        sent.shift();
      }
      if (++n % BOOKS_BATCH === 0) {
        yield text;
        text = '';
      }
    }
    if (text) yield text;
  }
  return Readable.from(chunks());
}

function ledgerLine(o: LedgerRow): string {
  const paid = wei(o.amount_paid_wei);
  const refunded = o.refunds.reduce((sum, r) => sum + wei(r.amount_wei), 0n);
  const usd = o.usd_per_pogs === null ? null : usdReference(paid, o.usd_per_pogs);
  return csvLine([
    o.id,
    iso(o.at),
    o.status,
    itemsText(o.items),
    pog(paid),
    plainDecimal(o.usd_per_pogs),
    usd ?? '',
    o.usd_per_pogs === null ? '' : (o.reference_source ?? ''),
    o.usd_per_pogs === null || o.reference_block === null ? '' : String(o.reference_block),
    pog(refunded),
    o.refunds.map((r) => r.tx_hash).join('; '),
    pog(paid - refunded),
    o.shopify_order_name ?? '',
    o.txHashes.join('; '),
  ]);
}

/** The order ledger from `from` to `to` (ISO dates, UTC, inclusive), streamed: each order paid, oldest first. */
export function ledgerCsv(db: Db, from: string, to: string): Readable {
  const { start, end } = dayRange(from, to);
  async function* chunks(): AsyncGenerator<string> {
    yield csvLine(LEDGER_COLUMNS);
    let after: string | null = null;
    for (;;) {
      const batch: LedgerRow[] = await ledgerBatch(db, start, end, after);
      const text = batch.map(ledgerLine).join('');
      if (text) yield text;
      if (batch.length < BOOKS_BATCH) return;
      after = batch.at(-1)!.id;
    }
  }
  return Readable.from(chunks());
}
