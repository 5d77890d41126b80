import type { Knex } from 'knex';

// Indexes for the books exports (docs/books.md). Frozen in time: migrations never import models.
//
// - chain_transfers_created_id: every transfer the store wallet received, in the Koinly file's
//   order (created_at, id), so each of its batches is an index range whatever the transfer made.
// - refunds_created_id (replacing refunds_created_at_index): every refund the store wallet sent,
//   in the same order.
// - chain_transfers_order_id: the transfers that paid each order of a ledger batch.

export async function up(knex: Knex): Promise<void> {
  await knex.raw('create index chain_transfers_created_id on chain_transfers (created_at, id)');
  await knex.raw('create index refunds_created_id on refunds (created_at, id)');
  await knex.raw('drop index if exists refunds_created_at_index');
  await knex.raw('create index chain_transfers_order_id on chain_transfers (order_id)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists chain_transfers_order_id');
  await knex.raw('create index if not exists refunds_created_at_index on refunds (created_at)');
  await knex.raw('drop index if exists refunds_created_id');
  await knex.raw('drop index if exists chain_transfers_created_id');
}
