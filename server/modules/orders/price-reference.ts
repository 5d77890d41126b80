/**
 * The dollar reference an order keeps from its payment (docs/price-reference.md): written just
 * after settlement's transaction, by payments, with what the price reference read at the payment's
 * block; read back into the order's answers. Never part of what was paid.
 */
import type { Knex } from 'knex';
import type { OrderReference } from '../../../common/api';
import { formatUnits, parseUnits } from '../../../common/money';

/**
 * Records `reference` on order `orderId` once (a reference already kept is never replaced).
 * Payments calls it after the order's transaction committed, in its own connection.
 */
export async function recordOrderReference(db: Knex, orderId: string, reference: NonNullable<OrderReference>): Promise<void> {
  await db('orders').where({ id: orderId }).whereNull('reference_block').update({
    reference_usd_per_pogs: reference.usdPerPogs,
    reference_block: reference.block,
    reference_source: reference.source,
  });
}

/** The reference of an order's row (numeric columns come back as decimal text), or null. */
export function orderReferenceOf(row: {
  reference_usd_per_pogs: string | null;
  reference_block: string | number | null;
  reference_source: string | null;
}): OrderReference {
  if (row.reference_usd_per_pogs === null || row.reference_block === null || row.reference_source === null) return null;
  return {
    usdPerPogs: formatUnits(parseUnits(String(row.reference_usd_per_pogs)), 18, 0),
    block: Number(row.reference_block),
    source: row.reference_source,
  };
}
