import type { Knex } from 'knex';

// Payment integrity (design: docs/payments.md).
//
// - A checkout can be identified by more than one exact amount: its full amount and, after an
//   underpayment, the remainder still due. `checkout_amounts` holds them; an amount identifies its
//   checkout until it is released (the checkout closed), and no two unreleased amounts are equal.
// - Stock is claimed when money is on its way or in (`stock_claimed_until`), no longer when a
//   checkout is opened.
// - A sender may be matched to a checkout by its address only when the checkout's session proved
//   that wallet by a signature (sessions.wallet_address, looked up by address).
// - A transfer remembers the order it helped pay (several transfers can pay one order).
// - An order paid after its stock was gone is kept, flagged, and not handed to Shopify.

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('checkout_amounts', (t) => {
    t.increments('id').primary();
    t.text('intent_id').notNullable().references('id').inTable('checkout_intents').onDelete('CASCADE');
    t.integer('chain_id').notNullable();
    t.specificType('amount_wei', 'numeric(78,0)').notNullable();
    /** full: the whole price + suffix; remainder: what was still due after an underpayment + suffix. */
    t.text('purpose').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    /** Set when the checkout can no longer be paid: the amount is free for another checkout. */
    t.timestamp('released_at', { useTz: true });
    t.index(['intent_id']);
  });
  await knex.raw('create unique index checkout_amounts_live on checkout_amounts (chain_id, amount_wei) where released_at is null');

  // Every existing checkout keeps its amount; those that can no longer be paid free it.
  await knex.raw(`
    insert into checkout_amounts (intent_id, chain_id, amount_wei, purpose, created_at, released_at)
    select id, chain_id, amount_wei, 'full', created_at,
           case when status in ('open', 'expired', 'underpaid', 'paid') then null else now() end
    from checkout_intents`);
  await knex.raw('drop index if exists checkout_intents_amount_open');

  await knex.schema.alterTable('checkout_intents', (t) => {
    /** While in the future, the checkout's items are held for it: its payment is on its way or in. */
    t.timestamp('stock_claimed_until', { useTz: true });
    t.index(['stock_claimed_until']);
  });
  await knex.schema.alterTable('sessions', (t) => {
    t.index(['wallet_address']);
  });

  await knex.schema.alterTable('chain_transfers', (t) => {
    t.text('order_id').references('id').inTable('orders');
    t.index(['intent_id']);
  });
  // Transfers that already made an order point at it.
  await knex.raw(`
    update chain_transfers ct set order_id = o.id
    from orders o
    where o.chain_id = ct.chain_id and o.tx_hash = ct.tx_hash and o.log_index = ct.log_index`);

  // The stock rule sums what orders took per variant.
  await knex.schema.alterTable('order_items', (t) => {
    t.index(['variant_id']);
  });
  await knex.schema.alterTable('orders', (t) => {
    /** False when the order was paid after its items were gone: nothing was taken from stock. */
    t.boolean('stock_taken').notNullable().defaultTo(true);
    /** Why the order waits for the admin instead of going to Shopify (e.g. 'out-of-stock'). */
    t.text('hold_reason');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('order_items', (t) => {
    t.dropIndex(['variant_id']);
  });
  await knex.schema.alterTable('orders', (t) => {
    t.dropColumn('stock_taken');
    t.dropColumn('hold_reason');
  });
  await knex.schema.alterTable('chain_transfers', (t) => {
    t.dropIndex(['intent_id']);
    t.dropColumn('order_id');
  });
  await knex.schema.alterTable('sessions', (t) => {
    t.dropIndex(['wallet_address']);
  });
  await knex.schema.alterTable('checkout_intents', (t) => {
    t.dropIndex(['stock_claimed_until']);
    t.dropColumn('stock_claimed_until');
  });
  await knex.schema.dropTableIfExists('checkout_amounts');
  await knex.raw(
    `create unique index if not exists checkout_intents_amount_open on checkout_intents (chain_id, amount_wei) where status in ('open', 'expired')`,
  );
}
