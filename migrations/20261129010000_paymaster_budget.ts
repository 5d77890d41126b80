import type { Knex } from 'knex';

// What each sponsorship may cost and did cost (additive: new columns, and a row kind without a
// checkout). At signing the shop holds the most the operation can take from the deposit
// (max_cost_wei) until its window ends (valid_until); the paymaster's UserOperationEvent, once seen,
// gives what it really cost and whether it paid its checkout (outcome). A row without a checkout is
// an operation the paymaster paid that the shop never signed for (its signer key is in other hands).
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('paymaster_sponsorships', (t) => {
    t.uuid('checkout_id').nullable().alter();
    t.decimal('amount_wei', 78, 0).nullable().alter();
    t.text('paymaster');
    t.timestamp('valid_until', { useTz: true });
    t.decimal('max_cost_wei', 78, 0).notNullable().defaultTo(0);
    // 'pending' until its UserOperationEvent: 'paid', 'reverted', 'unpaid' (ran but did not pay the checkout), 'unrecorded'
    t.text('outcome').notNullable().defaultTo('pending');
    t.text('user_op_hash');
    t.text('tx_hash');
    t.decimal('actual_cost_wei', 78, 0);
    t.decimal('actual_gas_used', 78, 0);
    t.timestamp('settled_at', { useTz: true });
    t.index(['sender', 'created_at']);
    t.index(['sender', 'nonce']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex('paymaster_sponsorships').whereNull('checkout_id').delete();
  await knex.schema.alterTable('paymaster_sponsorships', (t) => {
    t.dropIndex(['sender', 'created_at']);
    t.dropIndex(['sender', 'nonce']);
    t.dropColumns(
      'paymaster',
      'valid_until',
      'max_cost_wei',
      'outcome',
      'user_op_hash',
      'tx_hash',
      'actual_cost_wei',
      'actual_gas_used',
      'settled_at',
    );
    t.uuid('checkout_id').notNullable().alter();
    t.decimal('amount_wei', 78, 0).notNullable().alter();
  });
}
