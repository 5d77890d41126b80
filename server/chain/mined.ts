import type { BaseContract, Provider, TransactionReceipt, TransactionResponse } from 'ethers';

/**
 * Waits for a transaction's receipt by asking the node for it until it has one.
 *
 * Not ethers' `tx.wait()`, `waitForTransaction()` or `waitForDeployment()`: those ask once, then wait
 * for the next block event, and ethers' block poller takes the block it first sees as its start
 * without announcing it. A transaction mined between the first ask and that first poll (anvil mines
 * as soon as it is sent; a loaded machine is slow to ask) is in a block that is never announced, and
 * on a chain that mines only when sent to, no later block comes: the wait never ends. Asking for the
 * receipt itself has no such gap.
 *
 * A reverted transaction throws, as `wait()` does; so does one not mined within `timeoutMs`.
 */
export async function mined(
  sent: TransactionResponse | Promise<TransactionResponse>,
  opts: { timeoutMs?: number; pollMs?: number } = {},
): Promise<TransactionReceipt> {
  const tx = await sent;
  const receipt = await receiptOf(tx.provider, tx.hash, opts);
  if (receipt.status !== 1) throw new Error(`transaction ${tx.hash} reverted (block ${receipt.blockNumber})`);
  return receipt;
}

/** The receipt of `hash` once mined, reverted or not (see `mined`). */
export async function receiptOf(
  provider: Provider,
  hash: string,
  { timeoutMs = 60_000, pollMs = 50 }: { timeoutMs?: number; pollMs?: number } = {},
): Promise<TransactionReceipt> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const receipt = await provider.getTransactionReceipt(hash);
    if (receipt) return receipt;
    if (Date.now() >= deadline) throw new Error(`transaction ${hash} was not mined within ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}

/** A contract being deployed, once its deployment is mined (see `mined`). */
export async function deployed<C extends BaseContract>(deploying: C | Promise<C>, opts?: { timeoutMs?: number }): Promise<C> {
  const contract = await deploying;
  const tx = contract.deploymentTransaction();
  if (!tx) throw new Error('not a contract being deployed: it has no deployment transaction');
  await mined(tx, opts);
  return contract;
}
