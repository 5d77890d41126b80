import type { Knex } from 'knex';

// The dollar reference an order keeps from its payment (docs/price-reference.md): dollars per 1
// POGS (exact decimal, up to 18 places), the block it was read at, and where it came from. Null
// when there was none to read; written just after the order, never part of what was paid.
// Frozen in time: migrations never import models.

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('orders', (t) => {
    t.decimal('reference_usd_per_pogs', 40, 18).nullable();
    t.bigInteger('reference_block').nullable();
    t.text('reference_source').nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('orders', (t) => {
    t.dropColumn('reference_usd_per_pogs');
    t.dropColumn('reference_block');
    t.dropColumn('reference_source');
  });
}
