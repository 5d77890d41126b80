import type { Knex } from 'knex';

// Who paid each transfer to the store wallet, and with what. A shopper may pay with ETH or USDC by
// one Uniswap swap whose recipient is the store wallet: the POGS then comes from the pool, and a
// refund must go to the payer the chain proves, never to the pool. Frozen in time: migrations never
// import models.
//
// - payer_address: lower case; the sender for a plain transfer, the router's caller or the smart
//   account of the user operation for a swap; null while not proven (a refund is then refused
//   when the transfer came from a pool, else it goes to from_address).
// - paid_with: 'POGS', 'ETH', 'USDC', or 'swap' (through a pool, coin or payer not proven); null
//   for a transfer not looked at yet.
// - amount_in: what the payer spent, in the coin's smallest unit; null for POGS and unproven swaps.
// Transfers recorded before swaps could pay were plain transfers: their sender paid in POGS.

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('chain_transfers', (t) => {
    t.text('payer_address').nullable();
    t.text('paid_with').nullable();
    t.specificType('amount_in', 'numeric(78,0)').nullable();
  });
  await knex('chain_transfers').update({ payer_address: knex.ref('from_address'), paid_with: 'POGS' });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('chain_transfers', (t) => {
    t.dropColumn('payer_address');
    t.dropColumn('paid_with');
    t.dropColumn('amount_in');
  });
}
