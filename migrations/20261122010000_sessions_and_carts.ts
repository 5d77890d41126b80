import type { Knex } from 'knex';

// Anonymous shopper sessions and their carts. The session cookie carries a random token; only its
// SHA-256 is stored, so a copy of the database cannot be replayed as someone's cookie.

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('sessions', (t) => {
    t.text('id').primary(); // sha256(token), hex
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('last_seen_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.index(['expires_at']);
  });

  await knex.schema.createTable('cart_items', (t) => {
    t.text('id').primary(); // random UUID: not guessable, not a counter
    t.text('session_id').notNullable().references('id').inTable('sessions').onDelete('CASCADE');
    t.text('variant_id').notNullable().references('shopify_id').inTable('variants');
    t.integer('quantity').notNullable();
    t.timestamps(true, true, false);
    t.unique(['session_id', 'variant_id']);
  });
  await knex.raw('alter table cart_items add constraint cart_items_quantity_range check (quantity between 1 and 10)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('cart_items');
  await knex.schema.dropTableIfExists('sessions');
}
