import type { Knex } from 'knex';

// When an order's Shopify hand-off failed, for the admin's orders view and its "retry now".
// Frozen in time: migrations never import models.
//
// - outbox.last_error_at: when the job's last failed attempt ended (last_error says why). The
//   time a job succeeded is its done_at; a failure is no longer forgotten when a later attempt
//   succeeds (last_error stays, as history).
// - outbox.last_failed_attempt: the number of the attempt that failed last (0: none failed). A job
//   not done whose last_failed_attempt equals attempts has no attempt in flight: it waits for its
//   back-off, which the admin's retry may cut short; one with a later attempt is running (its
//   lease is next_attempt_at).

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('outbox', (t) => {
    t.timestamp('last_error_at', { useTz: true });
    t.integer('last_failed_attempt').notNullable().defaultTo(0);
  });
  // Jobs failing now: their last failure is their last update, and their last attempt failed.
  await knex('outbox')
    .whereNotNull('last_error')
    .whereNull('done_at')
    .update({ last_error_at: knex.ref('updated_at'), last_failed_attempt: knex.ref('attempts') });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('outbox', (t) => {
    t.dropColumn('last_failed_attempt');
    t.dropColumn('last_error_at');
  });
}
