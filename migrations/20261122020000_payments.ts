import type { Knex } from 'knex';

// Checkout intents, on-chain transfers, orders, the Shopify hand-off outbox and received webhooks
// (docs/payments.md). Amounts are whole numbers of wei in numeric(78,0): exact, never floats.

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('checkout_intents', (t) => {
    t.text('id').primary(); // random UUID
    t.text('session_id').references('id').inTable('sessions').onDelete('SET NULL');
    /** Lower-case address expected to pay; null = any sender ("pay from another wallet"). */
    t.text('customer_wallet');
    t.integer('chain_id').notNullable();
    t.text('token_address').notNullable();
    t.text('store_wallet').notNullable();
    t.specificType('total_wei', 'numeric(78,0)').notNullable();
    t.specificType('amount_wei', 'numeric(78,0)').notNullable();
    /** open → paid | expired | underpaid; expired → paid (late) | closed. */
    t.text('status').notNullable();
    t.timestamp('expires_at', { useTz: true }).notNullable();
    /** After this, an expired intent stops matching payments and frees its amount. */
    t.timestamp('match_until', { useTz: true }).notNullable();
    t.text('tx_hash_hint');
    t.timestamps(true, true, false);
    t.index(['session_id']);
    t.index(['status', 'expires_at']);
  });
  // No two intents that can still be paid share an amount: the amount is how a payment is found.
  await knex.raw(
    `create unique index checkout_intents_amount_open on checkout_intents (chain_id, amount_wei) where status in ('open', 'expired')`,
  );

  await knex.schema.createTable('checkout_intent_items', (t) => {
    t.increments('id').primary();
    t.text('intent_id').notNullable().references('id').inTable('checkout_intents').onDelete('CASCADE');
    t.text('variant_id').notNullable().references('shopify_id').inTable('variants');
    t.text('product_id').notNullable();
    t.text('title').notNullable();
    t.decimal('unit_price', 38, 18).notNullable();
    t.integer('quantity').notNullable();
    t.index(['intent_id']);
    t.index(['variant_id']);
  });

  await knex.schema.createTable('chain_transfers', (t) => {
    t.increments('id').primary();
    t.integer('chain_id').notNullable();
    t.text('tx_hash').notNullable();
    t.integer('log_index').notNullable();
    t.bigInteger('block_number').notNullable();
    t.text('block_hash').notNullable();
    t.text('token_address').notNullable();
    t.text('from_address').notNullable();
    t.text('to_address').notNullable();
    t.specificType('value_wei', 'numeric(78,0)').notNullable();
    /** matched | unmatched | underpaid | review | removed */
    t.text('status').notNullable();
    t.text('intent_id').references('id').inTable('checkout_intents');
    t.text('note');
    t.timestamps(true, true, false);
    t.unique(['chain_id', 'tx_hash', 'log_index']);
    t.index(['status']);
    t.index(['block_number']);
  });

  await knex.schema.createTable('orders', (t) => {
    t.text('id').primary();
    t.text('intent_id').notNullable().unique().references('id').inTable('checkout_intents');
    t.text('session_id').references('id').inTable('sessions').onDelete('SET NULL');
    t.text('customer_wallet').notNullable();
    t.text('status').notNullable();
    t.specificType('total_wei', 'numeric(78,0)').notNullable();
    t.specificType('amount_paid_wei', 'numeric(78,0)').notNullable();
    t.boolean('overpaid').notNullable().defaultTo(false);
    /** Paid after the checkout expired. */
    t.boolean('late').notNullable().defaultTo(false);
    t.integer('chain_id').notNullable();
    t.text('tx_hash').notNullable();
    t.integer('log_index').notNullable();
    t.bigInteger('block_number').notNullable();
    t.boolean('needs_shipping').notNullable().defaultTo(true);
    t.text('shopify_draft_order_id');
    t.text('shopify_invoice_url');
    t.text('shopify_order_id');
    t.text('status_reason');
    t.timestamp('paid_at', { useTz: true }).notNullable();
    t.timestamp('confirmed_at', { useTz: true });
    t.timestamp('shipped_at', { useTz: true });
    t.timestamps(true, true, false);
    // One transfer pays at most one order, whoever asks and however often.
    t.unique(['chain_id', 'tx_hash', 'log_index']);
    t.index(['customer_wallet']);
    t.index(['session_id']);
    t.index(['shopify_order_id']);
    t.index(['shopify_draft_order_id']);
  });

  await knex.schema.createTable('order_items', (t) => {
    t.increments('id').primary();
    t.text('order_id').notNullable().references('id').inTable('orders').onDelete('CASCADE');
    t.text('variant_id').notNullable();
    t.text('product_id').notNullable();
    t.text('title').notNullable();
    t.decimal('unit_price', 38, 18).notNullable();
    t.integer('quantity').notNullable();
    t.index(['order_id']);
  });

  // Jobs written in the same transaction as the state they follow from (transactional outbox).
  await knex.schema.createTable('outbox', (t) => {
    t.increments('id').primary();
    t.text('kind').notNullable();
    t.text('order_id').notNullable().references('id').inTable('orders').onDelete('CASCADE');
    t.integer('attempts').notNullable().defaultTo(0);
    t.timestamp('next_attempt_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.text('last_error');
    t.timestamp('done_at', { useTz: true });
    t.timestamps(true, true, false);
    t.unique(['kind', 'order_id']);
    t.index(['done_at', 'next_attempt_at']);
  });

  await knex.schema.createTable('webhook_events', (t) => {
    t.text('webhook_id').primary();
    t.text('topic').notNullable();
    t.text('event_id');
    t.text('resource_id');
    t.timestamp('received_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of [
    'webhook_events',
    'outbox',
    'order_items',
    'orders',
    'chain_transfers',
    'checkout_intent_items',
    'checkout_intents',
  ]) {
    await knex.schema.dropTableIfExists(table);
  }
}
