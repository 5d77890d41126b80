import type { Knex } from 'knex';

// The user operations the shop's paymaster signed (additive: a new table). One per checkout amount:
// a checkout's amount (its full amount, or the remainder an underpaid one asks for) is sponsored
// for one account and one EntryPoint nonce only, so at most one sponsored operation can pay it.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('paymaster_sponsorships', (t) => {
    t.increments('id').primary();
    t.uuid('checkout_id').notNullable();
    t.decimal('amount_wei', 78, 0).notNullable();
    t.text('sender').notNullable();
    t.text('nonce').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.unique(['checkout_id', 'amount_wei']);
    t.index(['created_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('paymaster_sponsorships');
}
