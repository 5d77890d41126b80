/**
 * The data of the merchant's `payment.needs_attention` webhook event (docs/webhooks.md): the
 * transfer to the store wallet that entered the payments desk's queue, as the shop has it when the
 * event is first sent, with the kind it entered as and what its checkout still lacks or received
 * beyond its total. Amounts are exact decimal strings of POGS beside their wei.
 */
import type { Db } from '../../db';
import { formatUnits } from '../../../common/money';
import { receivedWei } from './checkout-received';

const pogs = (wei: bigint) => formatUnits(wei, 18, 2);

/** `subject` is `<transfer id>:<kind>` (the desk's trigger writes it); null when the transfer is gone. */
export async function transferEventData(db: Db, subject: string) {
  const [id, kind] = subject.split(':');
  if (!id || !/^\d{1,18}$/.test(id)) return null;
  const t = await db('chain_transfers').where({ id }).first();
  if (!t) return null;
  const value = BigInt(t.value_wei);
  let due: bigint | null = null;
  let excess: bigint | null = null;
  if (kind === 'overpaid' && t.status === 'extra-payment') excess = value;
  else if (t.intent_id && (kind === 'underpaid' || kind === 'overpaid')) {
    const intent = await db('checkout_intents').where({ id: t.intent_id }).first('total_wei');
    const counted = await receivedWei(db, t.intent_id);
    const total = BigInt(intent.total_wei);
    if (kind === 'underpaid') due = total > counted ? total - counted : 0n;
    else excess = counted > total ? counted - total : 0n;
  }
  return {
    transfer: {
      id: String(t.id),
      kind,
      status: t.status,
      chainId: t.chain_id,
      txHash: t.tx_hash,
      logIndex: t.log_index,
      blockNumber: Number(t.block_number),
      from: t.from_address,
      amount: pogs(value),
      amountWei: value.toString(),
      /** Underpaid: what its checkout still lacks. */
      due: due === null ? null : pogs(due),
      dueWei: due === null ? null : due.toString(),
      /** Overpaid: what it (or its checkout) received beyond the total. */
      excess: excess === null ? null : pogs(excess),
      excessWei: excess === null ? null : excess.toString(),
      checkoutId: t.intent_id ?? null,
      orderId: t.order_id ?? null,
      at: new Date(t.created_at).toISOString(),
    },
  };
}
