import type { Knex } from 'knex';

// Order news by Web Push (docs/order-updates.md). `push_subscriptions`: the browsers a signed-in
// wallet asked to be told about its orders: the push service's endpoint (unique: one browser's
// subscription belongs to one wallet) and the keys its messages are encrypted to (RFC 8291), with
// the bookkeeping that drops one that keeps failing. `push_deliveries`: which subscriptions one
// news job (an `outbox` row) already reached, so a retry after a partial failure sends only to the
// rest; emptied when the job is done. `orders.tracking_url`: the parcel's tracking page, from
// Shopify's fulfilment webhooks. Frozen in time: migrations never import models.

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('push_subscriptions', (t) => {
    t.increments('id').primary();
    /** Lower-case 0x address of the signed-in wallet that subscribed. */
    t.text('wallet').notNullable();
    t.text('endpoint').notNullable().unique();
    t.text('p256dh').notNullable();
    t.text('auth').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('last_success_at', { useTz: true });
    t.timestamp('last_failure_at', { useTz: true });
    t.text('last_error');
    /** Failed sends since the last success; the subscription is dropped at the bound. */
    t.integer('failures').notNullable().defaultTo(0);
    t.index(['wallet', 'created_at']);
  });
  await knex.schema.createTable('push_deliveries', (t) => {
    t.integer('job_id').notNullable().references('id').inTable('outbox').onDelete('CASCADE');
    t.integer('subscription_id').notNullable().references('id').inTable('push_subscriptions').onDelete('CASCADE');
    t.primary(['job_id', 'subscription_id']);
  });
  await knex.schema.alterTable('orders', (t) => {
    t.text('tracking_url');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('orders', (t) => {
    t.dropColumn('tracking_url');
  });
  await knex.schema.dropTableIfExists('push_deliveries');
  await knex.schema.dropTableIfExists('push_subscriptions');
}
