import type { Knex } from 'knex';

// One name for a further payment to a checkout that was already paid (kept for a refund): the
// status `review` becomes `extra-payment`, the word the accountant's export already showed. Frozen
// in time: migrations never import models, so the statuses are written out as they were that day.
//
// - chain_transfers.status and chain_transfers.status_before_refund (what a refunded transfer
//   was): `review` is rewritten `extra-payment`;
// - chain_transfers_unordered_created (the export's transfers that made no order) is a partial
//   index over those statuses: made again with the new word, so the export's query still reads it.
// No check constraint names the statuses.

async function rename(knex: Knex, from: string, to: string, indexStatuses: string): Promise<void> {
  await knex('chain_transfers').where({ status: from }).update({ status: to });
  await knex('chain_transfers').where({ status_before_refund: from }).update({ status_before_refund: to });
  await knex.raw('drop index if exists chain_transfers_unordered_created');
  await knex.raw(
    `create index chain_transfers_unordered_created on chain_transfers (created_at, id)
       where order_id is null and status in (${indexStatuses})`,
  );
}

export async function up(knex: Knex): Promise<void> {
  await rename(knex, 'review', 'extra-payment', `'unmatched', 'underpaid', 'extra-payment', 'refunded'`);
}

export async function down(knex: Knex): Promise<void> {
  await rename(knex, 'extra-payment', 'review', `'unmatched', 'underpaid', 'review', 'refunded'`);
}
