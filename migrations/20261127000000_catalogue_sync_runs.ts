import type { Knex } from 'knex';

// Frozen in time: migrations never import models.
//
// catalogue_sync_runs: every catalogue sync (the admin's button, the start-up and the periodic one)
// is a row here. At most one row is 'running' (a unique index over a constant, limited to running
// rows), so however many server instances share the database, a second start finds the running one
// instead of starting another. The instance running it renews `lease_until` while it works; a
// running row whose lease ran out belongs to an instance that died, and the next start ends it as
// failed.
//
// variants.inventory_read_at: when the variant's stock was read from Shopify. A stock change from a
// webhook is newer than a full sync's snapshot taken before it: an older read never overwrites it.

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('catalogue_sync_runs', (t) => {
    t.bigIncrements('id').primary();
    t.text('status').notNullable();
    t.text('trigger').notNullable();
    t.text('phase').notNullable();
    t.text('method');
    t.integer('products_read').notNullable().defaultTo(0);
    t.integer('total');
    t.timestamp('started_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('finished_at', { useTz: true });
    t.timestamp('lease_until', { useTz: true }).notNullable();
    t.text('error');
    t.jsonb('result');
  });
  await knex.raw(
    `alter table catalogue_sync_runs add constraint catalogue_sync_runs_status check (status in ('running', 'succeeded', 'failed'))`,
  );
  await knex.raw(`create unique index catalogue_sync_runs_one_running on catalogue_sync_runs ((true)) where status = 'running'`);
  await knex.schema.alterTable('variants', (t) => {
    t.timestamp('inventory_read_at', { useTz: true });
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('variants', (t) => {
    t.dropColumn('inventory_read_at');
  });
  await knex.schema.dropTableIfExists('catalogue_sync_runs');
}
