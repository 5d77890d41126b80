/**
 * Asks the chain who paid a transfer to the store wallet (swap-payer.ts judges it). Only a transfer
 * from a route pool costs calls: the transaction and its receipt, within one timeout. A chain that
 * does not answer (or does not give the transaction yet) throws: the caller records nothing of the
 * transfer yet.
 */
import type { PaidWith } from '../../../common/swap-pay';
import type { ChainClient } from './chain-client';
import { fromRoutePool, paidWithOf, type SwapFacts } from './swap-payer';
import type { StoreTransfer } from './verify';

/** How `transfer` was paid. */
export async function lookUpPaidWith(
  chain: ChainClient,
  swap: SwapFacts | null,
  transfer: Pick<StoreTransfer, 'txHash' | 'logIndex' | 'from'>,
): Promise<PaidWith> {
  if (!fromRoutePool(transfer.from, swap)) return paidWithOf({ transfer, tx: null, logs: [], swap });
  const { tx, fresh } = await chain.withinTimeout(async () => {
    const [tx, fresh] = await Promise.all([chain.transaction(transfer.txHash), chain.receipt(transfer.txHash)]);
    return { tx, fresh };
  });
  // The node gave the transfer's log but not its transaction (a lagging node behind a balancer):
  // nothing is judged from half the facts; the transfer is looked at again on the next pass.
  if (!tx || !fresh) throw new Error(`the chain does not give transaction ${transfer.txHash} yet: who paid it is asked again later`);
  const logs = fresh.status === 1 ? fresh.logs : [];
  return paidWithOf({ transfer, tx, logs, swap });
}
