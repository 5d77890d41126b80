import type { Knex } from 'knex';

// Indexes for the admin's desks at a real store's volume. Frozen in time: migrations never import
// models, so the statuses and the reason below are written out as they were that day.
//
// - orders_id_prefix, orders_payer_prefix, orders_tx_prefix: the orders view's case-insensitive
//   prefix search (`lower(col) collate "C" like 'abc%'`, in this order) reads these instead of
//   every order; the "C" collation makes a LIKE prefix an index range, and its order the index's,
//   whatever the database's collation.
// - orders_paid_at_id (replacing orders_paid_at_index): the orders view's pages (newest paid
//   first, a (paid_at, id) cursor) and the export's orders, each an index range.
// - orders_status_paid_at_id: the same under a status filter, however rare the status.
// - orders_flagged: the few orders whose transfers may be on the payments desk (on hold, overpaid,
//   late, or failed by a reorganisation), found without reading every order.
// - chain_transfers_unordered_created: the transfers that made no order, in the export's order
//   (created_at, id), so each export batch is an index range.

export async function up(knex: Knex): Promise<void> {
  await knex.raw('create index orders_id_prefix on orders ((lower(id) collate "C"))');
  await knex.raw('create index orders_payer_prefix on orders ((lower(customer_wallet) collate "C"))');
  await knex.raw('create index orders_tx_prefix on orders ((lower(tx_hash) collate "C"))');
  await knex.raw('create index orders_paid_at_id on orders (paid_at, id)');
  await knex.raw('drop index if exists orders_paid_at_index');
  await knex.raw('create index orders_status_paid_at_id on orders (status, paid_at, id)');
  await knex.raw(
    `create index orders_flagged on orders (intent_id)
       where status_reason = 'payment-reorged' or hold_reason is not null or overpaid or late`,
  );
  await knex.raw(
    `create index chain_transfers_unordered_created on chain_transfers (created_at, id)
       where order_id is null and status in ('unmatched', 'underpaid', 'review', 'refunded')`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists chain_transfers_unordered_created');
  await knex.raw('drop index if exists orders_flagged');
  await knex.raw('drop index if exists orders_status_paid_at_id');
  await knex.raw('create index if not exists orders_paid_at_index on orders (paid_at)');
  await knex.raw('drop index if exists orders_paid_at_id');
  await knex.raw('drop index if exists orders_tx_prefix');
  await knex.raw('drop index if exists orders_payer_prefix');
  await knex.raw('drop index if exists orders_id_prefix');
}
