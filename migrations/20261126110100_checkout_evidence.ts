import type { Knex } from 'knex';

// What the payments desk may rank a checkout by when an unmatched transfer is attached: evidence
// a stranger cannot fake. Frozen in time: migrations never import models.
//
// - checkout_intents.source_key: where the checkout was opened from: a keyed hash (HMAC with the
//   server's secret) of the client's IP, an IPv6 client by its /64. Never the address itself. The
//   candidates of a transfer count the checkouts of one source (or one browser session) once, so
//   nobody fills the list by opening checkouts. Null for checkouts opened before this column, and
//   for an address no client owns (loopback, a private network): only the session counts then.
// - checkout_tx_reports: every transaction hash a checkout's browser reported
//   (POST /api/checkout/:id/transaction) and when it did, first report kept. The payer's browser
//   knows the hash when its wallet submits; a stranger learns it only once it is on chain. Hints
//   reported before this table have no trustworthy time and are not copied.

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('checkout_intents', (t) => {
    t.text('source_key');
  });
  await knex.schema.createTable('checkout_tx_reports', (t) => {
    t.increments('id').primary();
    t.text('intent_id').notNullable().references('id').inTable('checkout_intents').onDelete('CASCADE');
    /** Lower case, as the chain's transfers are recorded. */
    t.text('tx_hash').notNullable();
    t.timestamp('reported_at', { useTz: true }).notNullable();
    t.unique(['intent_id', 'tx_hash']);
    t.index(['tx_hash', 'reported_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('checkout_tx_reports');
  await knex.schema.alterTable('checkout_intents', (t) => {
    t.dropColumn('source_key');
  });
}
