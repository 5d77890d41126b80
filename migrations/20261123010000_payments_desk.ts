import type { Knex } from 'knex';

// The admin's payments desk. Frozen in time: migrations never import models.
//
// - payment_desk_resolutions: a transfer the admin marked resolved, with their note. One row per
//   transfer at most (the primary key), so resolving twice keeps the first answer. The transfer's
//   own status stays what settlement and the watcher wrote: the desk only records that a person
//   has dealt with it.

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('payment_desk_resolutions', (t) => {
    t.integer('transfer_id').primary().references('id').inTable('chain_transfers').onDelete('CASCADE');
    t.timestamp('resolved_at', { useTz: true }).notNullable();
    t.text('note').notNullable();
    // The label of the admin session that resolved it (as in admin_audit_log).
    t.text('session_label');
  });
  // The export reads orders by the day they were paid.
  await knex.schema.alterTable('orders', (t) => {
    t.index(['paid_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('orders', (t) => {
    t.dropIndex(['paid_at']);
  });
  await knex.schema.dropTableIfExists('payment_desk_resolutions');
}
