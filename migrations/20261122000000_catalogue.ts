import type { Knex } from 'knex';

// Frozen in time: migrations never import models.
//
// Ownership of columns matters here. Catalogue sync writes only the Shopify-owned columns; the
// admin-owned ones (POG price, active, available stock, sold out, custom title) survive every sync.

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('products', (t) => {
    t.increments('id').primary();
    // Shopify-owned
    t.text('shopify_gid').notNullable().unique();
    t.text('shopify_id').notNullable().unique();
    t.text('handle').notNullable().defaultTo('');
    t.text('title').notNullable();
    t.text('description_html').notNullable().defaultTo('');
    t.text('vendor').notNullable().defaultTo('');
    t.text('product_type').notNullable().defaultTo('');
    t.jsonb('tags').notNullable().defaultTo('[]');
    t.jsonb('images').notNullable().defaultTo('[]');
    t.text('featured_image_url');
    t.text('shopify_status').notNullable();
    t.timestamp('shopify_updated_at', { useTz: true });
    /** Set when a sync no longer finds the product in Shopify; cleared if it comes back. */
    t.timestamp('removed_at', { useTz: true });
    t.timestamp('last_synced_at', { useTz: true });
    // admin-owned
    t.text('custom_title');
    t.timestamps(true, true, false);
  });

  await knex.schema.createTable('variants', (t) => {
    t.increments('id').primary();
    t.integer('product_id').notNullable().references('id').inTable('products').onDelete('CASCADE');
    // Shopify-owned
    t.text('shopify_gid').notNullable().unique();
    t.text('shopify_id').notNullable().unique();
    t.text('title').notNullable();
    t.text('sku');
    t.integer('position').notNullable().defaultTo(0);
    t.decimal('shopify_price', 38, 18);
    t.integer('inventory_quantity');
    t.boolean('available_for_sale').notNullable().defaultTo(true);
    t.jsonb('selected_options').notNullable().defaultTo('[]');
    t.text('image_url');
    t.timestamp('removed_at', { useTz: true });
    t.timestamp('last_synced_at', { useTz: true });
    // admin-owned
    t.decimal('pog_price', 38, 18);
    t.boolean('is_active').notNullable().defaultTo(false);
    t.integer('available_stock');
    t.boolean('is_sold_out').notNullable().defaultTo(false);
    t.timestamps(true, true, false);
    t.index(['product_id']);
  });
  await knex.raw('alter table variants add constraint variants_pog_price_non_negative check (pog_price is null or pog_price >= 0)');
  await knex.raw(
    'alter table variants add constraint variants_available_stock_non_negative check (available_stock is null or available_stock >= 0)',
  );

  // Small key/value facts shared by every server instance (catalogue version, last sync, …).
  await knex.schema.createTable('app_state', (t) => {
    t.text('key').primary();
    t.jsonb('value').notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('app_state');
  await knex.schema.dropTableIfExists('variants');
  await knex.schema.dropTableIfExists('products');
}
