import type { Knex } from 'knex';

// Refunds verified on chain, and the Shopify order's name. Frozen in time: migrations never
// import models.
//
// - refunds: one row per POG transfer from the store wallet back to a payer that the server
//   verified on chain, against the store transfer it refunds (and that transfer's order, if any).
//   Keyed like chain_transfers by (chain id, tx hash, log index), so one refund transaction is
//   recorded once, for one transfer.
// - chain_transfers.status may now also be 'refunded': a transfer that made no order and had
//   money sent back; it never counts towards a checkout again. `status_before_refund` keeps what
//   it was (unmatched, underpaid, review, removed), so the desk's history still says why.
// - chain_transfers.refund_hold_until: the admin is about to refund this transfer (the desk
//   prepared the refund before the store wallet sent it): until then a sign-in does not adopt it
//   and no admin attaches it, so money on its way back never pays for an order.
// - orders.shopify_order_name: the name Shopify gives the order once the shopper completes the
//   draft (e.g. "#1001"), for the admin and the accountant's export.

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('refunds', (t) => {
    t.increments('id').primary();
    t.integer('transfer_id').notNullable().references('id').inTable('chain_transfers');
    t.text('order_id').references('id').inTable('orders');
    t.integer('chain_id').notNullable();
    t.text('tx_hash').notNullable();
    t.integer('log_index').notNullable();
    t.bigInteger('block_number').notNullable();
    t.text('to_address').notNullable();
    t.specificType('amount_wei', 'numeric(78,0)').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    // The label of the admin session that recorded it (as in admin_audit_log).
    t.text('session_label');
    t.unique(['chain_id', 'tx_hash', 'log_index']);
    t.index(['transfer_id']);
    t.index(['order_id']);
    t.index(['created_at']);
  });
  await knex.raw('alter table refunds add constraint refunds_amount_positive check (amount_wei > 0)');
  await knex.schema.alterTable('chain_transfers', (t) => {
    t.text('status_before_refund');
    t.timestamp('refund_hold_until', { useTz: true });
  });
  await knex.schema.alterTable('orders', (t) => {
    t.text('shopify_order_name');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('orders', (t) => {
    t.dropColumn('shopify_order_name');
  });
  await knex.schema.alterTable('chain_transfers', (t) => {
    t.dropColumn('status_before_refund');
    t.dropColumn('refund_hold_until');
  });
  await knex.schema.dropTableIfExists('refunds');
}
