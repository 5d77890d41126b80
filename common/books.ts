/**
 * The books: what the store wallet received and sent, for a date range, in files an accountant
 * loads (docs/books.md). Behind the admin session, streamed like the payments desk's export, with
 * the same range rules (paymentsExportQuerySchema: inclusive ISO dates, UTC, at most a year apart).
 *
 * GET /api/admin/books/koinly.csv?from=&to=  one row per transfer in or refund out (Koinly's universal format)
 * GET /api/admin/books/ledger.csv?from=&to=  one row per order paid in the range
 */

/** Koinly's universal import columns, in this order (its header names, as Koinly reads them). */
export const KOINLY_COLUMNS = [
  'Date',
  'Sent Amount',
  'Sent Currency',
  'Received Amount',
  'Received Currency',
  'Fee Amount',
  'Fee Currency',
  'Net Worth Amount',
  'Net Worth Currency',
  'Label',
  'Description',
  'TxHash',
] as const;

/** The per-order ledger's columns, in this order. */
export const LEDGER_COLUMNS = [
  'order_id',
  'paid_at_utc',
  'status',
  'items',
  'pogs_paid',
  'usd_per_pogs',
  'usd_at_payment',
  'reference_source',
  'reference_block',
  'pogs_refunded',
  'refund_tx_hashes',
  'pogs_net',
  'shopify_order_name',
  'tx_hashes',
] as const;

/** The files the admin can download, and their routes. */
export const BOOKS_FILES = {
  koinly: '/api/admin/books/koinly.csv',
  ledger: '/api/admin/books/ledger.csv',
} as const;
export type BooksFile = keyof typeof BOOKS_FILES;
