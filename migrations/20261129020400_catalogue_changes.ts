import type { Knex } from 'knex';

// What each catalogue version changed (server/modules/catalogue/change-log.ts): the row ids of the
// products a change concerned, or null for "anything" (a sync, the demo pricing, a change that did
// not say). Written in the change's own transaction with the version it bumped, so an instance
// whose list is at version v can bring it to a newer one by reading only the products the versions
// after v name. Old rows are swept as new ones come: the table holds the last few thousand
// versions at most. Frozen in time: migrations never import models.

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('catalogue_changes', (t) => {
    t.bigInteger('version').primary();
    t.specificType('product_ids', 'integer[]').nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('catalogue_changes');
}
