/**
 * Asks the chain who paid a transfer to the store wallet (swap-payer.ts judges it). Only a transfer
 * from a route pool costs calls: the transaction and its receipt, within one timeout. A chain that
 * does not answer (or does not give the transaction yet) throws: the caller records nothing of the
 * transfer yet.
 */
import type { PaidWith } from '../../../common/swap-pay';
import type { ChainClient } from './chain-client';
import { fromRoutePool, paidWithOf, type SwapFacts } from './swap-payer';
import { TRANSFER_TOPIC, type ReceiptFacts, type StoreTransfer } from './verify';
import { dataSlice } from 'ethers';

/** The transaction and its receipt, asked once per hash however many of its transfers a pass meets. */
export type PayerLookups = Map<string, Promise<{ tx: Awaited<ReturnType<ChainClient['transaction']>>; fresh: ReceiptFacts | null }>>;

/**
 * How `transfer` was paid. `lookups`: the answers already asked for in this pass (a transaction
 * holding many transfers to the store costs one lookup, not one per transfer).
 */
export async function lookUpPaidWith(
  chain: ChainClient,
  swap: SwapFacts | null,
  transfer: Pick<StoreTransfer, 'txHash' | 'logIndex' | 'from' | 'value' | 'blockHash'>,
  lookups: PayerLookups = new Map(),
): Promise<PaidWith> {
  if (!fromRoutePool(transfer.from, swap)) return paidWithOf({ transfer, tx: null, logs: [], swap });
  const key = transfer.txHash.toLowerCase();
  let asked = lookups.get(key);
  if (!asked) {
    asked = chain.withinTimeout(async () => {
      const [tx, fresh] = await Promise.all([chain.transaction(transfer.txHash), chain.receipt(transfer.txHash)]);
      return { tx, fresh };
    });
    // A failed lookup is asked again on the next pass, not remembered.
    asked.catch(() => lookups.delete(key));
    lookups.set(key, asked);
  }
  const { tx, fresh } = await asked;
  // The node gave the transfer's log but not its transaction (a lagging node behind a balancer):
  // nothing is judged from half the facts; the transfer is looked at again on the next pass.
  if (!tx || !fresh) throw new Error(`the chain does not give transaction ${transfer.txHash} yet: who paid it is asked again later`);
  // The receipt must hold the very log the transfer was read from (another node, another fork
  // would place the logs elsewhere, and the payer is read from their order).
  const own = fresh.logs.find((l) => l.logIndex === transfer.logIndex);
  if (
    !own ||
    own.blockHash.toLowerCase() !== transfer.blockHash.toLowerCase() ||
    own.topics.length !== 3 ||
    own.topics[0]!.toLowerCase() !== TRANSFER_TOPIC ||
    dataSlice(own.topics[1]!, 12).toLowerCase() !== transfer.from.toLowerCase() ||
    BigInt(own.data) !== transfer.value
  ) {
    throw new Error(
      `the receipt of ${transfer.txHash} does not hold its transfer at log ${transfer.logIndex} yet: who paid it is asked again later`,
    );
  }
  const logs = fresh.status === 1 ? fresh.logs : [];
  return paidWithOf({ transfer, tx, logs, swap });
}
