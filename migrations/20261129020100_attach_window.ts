import type { Knex } from 'knex';

// The payments desk's attach candidates at a real store's volume. Frozen in time: migrations never
// import models.
//
// - checkout_intents_attach_window: the checkouts of one chain and store wallet opened in a window
//   (the week before a transfer was seen), read as one index range instead of every checkout the
//   shop ever opened. The candidates' other filters (status, token, a search) are applied to that
//   range.

export async function up(knex: Knex): Promise<void> {
  await knex.raw('create index checkout_intents_attach_window on checkout_intents (chain_id, store_wallet, created_at)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists checkout_intents_attach_window');
}
