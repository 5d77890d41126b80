import type { Knex } from 'knex';

// The operator's sign-in links that were used (server/modules/admin/sign-in-link.ts): a link is
// made without the database, so the shop records each one it accepts, by its nonce, to accept it
// once. A row is deleted once its link has expired (it could not be used again anyway). Frozen
// in time: migrations never import models.

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('admin_sign_in_links_used', (t) => {
    t.text('nonce').primary();
    t.timestamp('used_at', { useTz: true }).notNullable();
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.index(['expires_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('admin_sign_in_links_used');
}
