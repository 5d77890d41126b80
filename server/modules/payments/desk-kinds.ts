/**
 * Which kind of problem a transfer to the store wallet is on the payments desk, and what the
 * accountant's export calls a transfer that made no order. One rule, written once here as tables:
 * the desk's items and the export's SQL are made from them; the queue the database keeps (the
 * payment_desk_items migration's triggers) has it written out in SQL, and admin/desk/desk-queue.int.test.ts
 * checks that copy against attentionKindSql after every kind of change.
 *
 * A transfer that made no order is judged by its status alone (a refunded one by the status it had
 * before), whatever its checkout's order says (STATUS_KINDS). The statuses are the payments
 * module's vocabulary (TransferStatus); the export names a transfer by its status:
 *
 * | chain_transfers.status | what it is                                        | desk kind  | export status   |
 * |------------------------|---------------------------------------------------|------------|-----------------|
 * | removed                | the watcher undid it in a reorganisation          | `reorged`  | (left out: it carried no money) |
 * | unmatched              | no exact amount, no proven sender                 | `unmatched`| `unmatched`     |
 * | underpaid              | its checkout waits for the rest                   | `underpaid`| `underpaid`     |
 * | extra-payment          | its checkout was already paid: all of it excess   | `overpaid` | `extra-payment` |
 * | refunded               | money went back: the kind of `status_before_refund` (unmatched if unknown) | | `refunded` |
 *
 * The desk's kind `overpaid` is money beyond what was owed: an extra payment, or the excess of an
 * order overpaid (below).
 *
 * A matched transfer counts towards its checkout's order, and is on the desk only through that
 * order's facts, the first that holds winning (MATCHED_RULES):
 *
 * 1. the order was failed by a reorganisation (any of its transfers): `reorged`;
 * 2. the transfer that paid the order, the order on hold (paid after the stock was gone): `out-of-stock`;
 * 3. the transfer that paid the order, the order overpaid (excess ≥ a cent): `overpaid`;
 * 4. the transfer that paid the order, the order late: `late`.
 *
 * So an order both on hold and overpaid is `out-of-stock`, one both overpaid and late is
 * `overpaid`. Any other matched transfer (a plain payment, an earlier part of a finished one)
 * needs nobody: looked up by itself (to refund it from the orders view) it is an item of kind
 * `paid` (itemKindOf). In the export a matched transfer is its order's row.
 */
import type { AttentionItem, AttentionKind } from '../../../common/payments-desk';
import { isTransferStatus, type TransferStatus } from './transfer-status';

/** The facts about a transfer and its checkout's order that decide its kind. */
export interface TransferFacts {
  status: string;
  statusBeforeRefund: string | null;
  /** The order was failed by a reorganisation (status_reason payment-reorged). */
  orderReorged: boolean;
  /** This transfer is the one that paid the order (the order's tx hash and log index). */
  paying: boolean;
  /** The order is on hold (hold_reason set: paid after the stock was gone). */
  onHold: boolean;
  overpaid: boolean;
  late: boolean;
}

type Fact = Exclude<keyof TransferFacts, 'status' | 'statusBeforeRefund'>;

/** The status of a transfer that counts towards its checkout's order: its kind comes from MATCHED_RULES. */
export const MATCHED: TransferStatus = 'matched';
/** A transfer that made no order and had money sent back: judged by its status_before_refund. */
const REFUNDED: TransferStatus = 'refunded';
/** What a refunded transfer was judged as when its status before the refund is unknown. */
const UNMATCHED: TransferStatus = 'unmatched';

/** The kind of a transfer that made no order, by the status it was judged with. */
const STATUS_KINDS: Readonly<Partial<Record<TransferStatus, AttentionKind>>> = Object.freeze({
  removed: 'reorged',
  unmatched: 'unmatched',
  underpaid: 'underpaid',
  'extra-payment': 'overpaid',
});

/** A matched transfer's kind, in precedence order: the first rule whose facts all hold. */
const MATCHED_RULES: ReadonlyArray<{ when: readonly Fact[]; kind: AttentionKind }> = Object.freeze([
  { when: ['orderReorged'], kind: 'reorged' },
  { when: ['paying', 'onHold'], kind: 'out-of-stock' },
  { when: ['paying', 'overpaid'], kind: 'overpaid' },
  { when: ['paying', 'late'], kind: 'late' },
]);

/** What the export calls a transfer that made no order; a status not here is not exported as a transfer. */
const EXPORT_STATUSES: Readonly<Partial<Record<TransferStatus, string>>> = Object.freeze({
  unmatched: 'unmatched',
  underpaid: 'underpaid',
  'extra-payment': 'extra-payment',
  refunded: 'refunded',
});

/** The status the transfer was judged with: for a refunded one, what it was before (unmatched if unknown). */
export function judgedStatusOf<S extends string>(status: S, statusBeforeRefund: S | null): S | TransferStatus {
  return status === REFUNDED ? (statusBeforeRefund ?? UNMATCHED) : status;
}

/**
 * The transfer's kind on the desk, or null when it needs nobody: the rule in JavaScript, which the
 * SQL below (attentionKindSql) is tested against for every combination of facts.
 * @internal The desk itself reads the kind in SQL; only the tests call this.
 */
export function attentionKindOf(facts: TransferFacts): AttentionKind | null {
  const status = judgedStatusOf(facts.status, facts.statusBeforeRefund);
  if (status === MATCHED) return MATCHED_RULES.find((rule) => rule.when.every((fact) => facts[fact]))?.kind ?? null;
  return isTransferStatus(status) ? (STATUS_KINDS[status] ?? null) : null;
}

/**
 * The kind of an item looked up by itself, whatever it is: its kind on the desk (`kind`, what
 * attentionKindOf or attentionKindSql gave), else `paid` for a matched transfer (never queued, but
 * refundable), else null (no item).
 */
export function itemKindOf(kind: AttentionKind | null, status: string): AttentionItem['kind'] | null {
  return kind ?? (status === MATCHED ? 'paid' : null);
}

/**
 * The export's status of a transfer that made no order, or null when it is not exported as a
 * transfer: the rule in JavaScript, which exportStatusSql is tested against.
 * @internal The export reads the status in SQL; only the tests call this.
 */
export function exportStatusOf(status: string): string | null {
  return isTransferStatus(status) ? (EXPORT_STATUSES[status] ?? null) : null;
}

/** The statuses the export lists as transfers of their own. */
export const EXPORTED_TRANSFER_STATUSES: readonly TransferStatus[] = Object.freeze(Object.keys(EXPORT_STATUSES) as TransferStatus[]);

/** SQL for each fact: boolean expressions over the query's columns (nullable ones count as false). */
export type FactsSql = Record<Fact, string> & { status: string; statusBeforeRefund: string };

/** A literal of the tables above (statuses and kinds are lower-case words and hyphens only). */
const literal = (word: string) => {
  if (!/^[a-z-]+$/.test(word)) throw new Error(`not a status or kind: ${word}`);
  return `'${word}'`;
};

/** judgedStatusOf in SQL. */
function judgedStatusSql(sql: Pick<FactsSql, 'status' | 'statusBeforeRefund'>): string {
  return `(case when ${sql.status} = ${literal(REFUNDED)} then coalesce(${sql.statusBeforeRefund}, ${literal(UNMATCHED)}) else ${sql.status} end)`;
}

/** The kind of a transfer that made no order, in SQL: it reads the transfer's status alone. */
function unorderedKindSql(sql: Pick<FactsSql, 'status' | 'statusBeforeRefund'>): string {
  const whens = Object.entries(STATUS_KINDS).map(([status, kind]) => `when ${literal(status)} then ${literal(kind)}`);
  return `(case ${judgedStatusSql(sql)} ${whens.join(' ')} end)`;
}

/** attentionKindOf in SQL: a text expression, null when the transfer needs nobody. */
export function attentionKindSql(sql: FactsSql): string {
  const whens = MATCHED_RULES.map((rule) => `when ${rule.when.map((fact) => `(${sql[fact]})`).join(' and ')} then ${literal(rule.kind)}`);
  return `(case when ${judgedStatusSql(sql)} = ${literal(MATCHED)} then (case ${whens.join(' ')} end) else ${unorderedKindSql(sql)} end)`;
}

/** The export's status of a transfer that made no order, in SQL, for a status among EXPORTED_TRANSFER_STATUSES. */
export function exportStatusSql(status: string): string {
  const whens = EXPORTED_TRANSFER_STATUSES.map((s) => `when ${literal(s)} then ${literal(EXPORT_STATUSES[s]!)}`);
  return `(case ${status} ${whens.join(' ')} end)`;
}
