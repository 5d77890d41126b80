import type { Knex } from 'knex';

// Sign-In with Ethereum (EIP-4361): single-use nonces kept server-side, and the wallet a session
// has proven it holds.

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('siwe_nonces', (t) => {
    t.text('nonce').primary();
    t.text('session_id').notNullable().references('id').inTable('sessions').onDelete('CASCADE');
    t.text('address').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('used_at', { useTz: true });
    t.index(['expires_at']);
  });
  await knex.schema.alterTable('sessions', (t) => {
    /** Lower-case address proven by a SIWE signature; null when not signed in. */
    t.text('wallet_address');
    t.timestamp('wallet_expires_at', { useTz: true });
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('sessions', (t) => {
    t.dropColumn('wallet_address');
    t.dropColumn('wallet_expires_at');
  });
  await knex.schema.dropTableIfExists('siwe_nonces');
}
