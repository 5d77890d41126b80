/**
 * The confirmation boundary, in one place: a transaction mined in block `block` has
 * `head − block + 1` confirmations when the chain's head is `head` (its own block counts, so it
 * has 1 at the head), and counts once it has the `required` number (the REQUIRED_CONFIRMATIONS
 * setting, at least 1). The watchers read events up to the last block so confirmed; a payment or
 * a refund reported by its hash is checked by the same count, so a transfer is never taken by one
 * path a block before the other would take it.
 */

/** The confirmations of a transaction mined in `block` at `head`: 1 at the head, 0 or less when the node has not seen that block. */
export function confirmationsOf(block: number, head: number): number {
  return head - block + 1;
}

/** Whether a transaction mined in `block` has `required` confirmations at `head`. */
export function isConfirmed(block: number, head: number, required: number): boolean {
  return confirmationsOf(block, head) >= required;
}

/** The last block whose transactions have `required` confirmations at `head` (a watcher reads up to it). */
export function lastConfirmedBlock(head: number, required: number): number {
  return head - (required - 1);
}
