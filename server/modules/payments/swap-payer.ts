/**
 * Who paid a transfer to the store wallet, and with what (common/swap-pay.ts PaidWith), proven by
 * the chain alone (pure: the caller fetches the transaction and its receipt). A shopper paying
 * with ETH or USDC sends one Uniswap swap whose recipient is the store wallet: the POGS Transfer
 * then comes from the pool, not from the shopper, and a refund to its sender would go to the pool.
 *
 * - A transfer whose sender is not one of the configured routes' POGS-side pools is a plain
 *   payment: its sender paid.
 * - The transaction calls the router: the router takes the input from its caller, the
 *   transaction's sender.
 * - The transaction calls the EntryPoint (ERC-4337 v0.7): the smart account whose user operation
 *   made the transfer paid. An operation's logs come before its UserOperationEvent, so it is the
 *   first such event of the EntryPoint after the Transfer, and it must say the operation succeeded.
 *   The bundler (the transaction's sender) never paid.
 * - Anything else (another contract, a relay, an aggregator): through a swap, payer not proven.
 *
 * The coin: USDC when the payer sent USDC in the same transaction (or operation), ETH when the
 * router wrapped ETH (WETH's Deposit to the router), else unproven. Only logs emitted by the
 * configured contracts count: anyone can emit an event that looks like one.
 */
import { dataSlice, getAddress, id } from 'ethers';
import type { PaidWith } from '../../../common/swap-pay';
import { TRANSFER_TOPIC, type RawLog } from './verify';

/** The shop's swap route facts, lower case (null when no route is set). */
export interface SwapFacts {
  /** SwapRouter02. */
  router: string;
  /** The ERC-4337 v0.7 EntryPoint. */
  entryPoint: string;
  /** The POGS-side pools of the configured routes: the senders of a swap's POGS. */
  pools: readonly string[];
  usdc: string;
  weth: string;
}

/** The transaction that carried the transfer, as eth_getTransactionByHash gives it. */
export interface TransactionFacts {
  hash: string;
  from: string;
  /** Null for a contract creation. */
  to: string | null;
  value: bigint;
}

export const USER_OPERATION_EVENT_TOPIC = id('UserOperationEvent(bytes32,address,address,uint256,bool,uint256,uint256)');
export const WETH_DEPOSIT_TOPIC = id('Deposit(address,uint256)');

const lower = (a: string) => a.toLowerCase();
const WORD = /^0x[0-9a-fA-F]{64}$/;
const topicAddress = (topic: string) => lower(getAddress(dataSlice(topic, 12)));

/** Whether a transfer's sender is one of the routes' pools: only then is it a swap. */
export function fromRoutePool(from: string, swap: SwapFacts | null): boolean {
  return swap !== null && swap.pools.includes(lower(from));
}

const unproven: PaidWith = { coin: 'swap', amountIn: null, payer: null };

/**
 * How the transfer `transfer` (a log of `logs`, the receipt's) was paid. `tx` is the transaction;
 * it is needed only when the transfer came from a route pool.
 */
export function paidWithOf(input: {
  transfer: { txHash: string; logIndex: number; from: string };
  tx: TransactionFacts | null;
  logs: readonly RawLog[];
  swap: SwapFacts | null;
}): PaidWith {
  const { transfer, tx, swap } = input;
  const from = lower(transfer.from);
  if (!swap || !fromRoutePool(from, swap)) return { coin: 'POGS', amountIn: null, payer: from };
  if (!tx || lower(tx.hash) !== lower(transfer.txHash) || tx.to === null) return unproven;
  const logs = input.logs.filter((l) => !l.removed && lower(l.transactionHash) === lower(transfer.txHash));
  const to = lower(tx.to);

  if (to === lower(swap.router)) return coinOf(lower(tx.from), logs, swap);

  if (to === lower(swap.entryPoint)) {
    const ops = logs
      .map((log) => userOperationEvent(log, swap.entryPoint))
      .filter((e): e is UserOperationEvent => e !== null)
      .sort((a, b) => a.logIndex - b.logIndex);
    const index = ops.findIndex((e) => e.logIndex > transfer.logIndex);
    const op = ops[index];
    if (!op || !op.success) return unproven;
    // The operation's own logs: after the previous operation's event, before its own.
    const after = index > 0 ? ops[index - 1]!.logIndex : -1;
    return coinOf(
      op.sender,
      logs.filter((l) => l.logIndex > after && l.logIndex < op.logIndex),
      swap,
    );
  }
  return unproven;
}

/** The coin `payer` paid with, from the logs of its swap. */
function coinOf(payer: string, logs: readonly RawLog[], swap: SwapFacts): PaidWith {
  const usdc = logs
    .filter((l) => lower(l.address) === lower(swap.usdc) && l.topics.length === 3 && lower(l.topics[0]!) === TRANSFER_TOPIC)
    .filter((l) => WORD.test(l.data) && topicAddress(l.topics[1]!) === payer);
  if (usdc.length) return { coin: 'USDC', amountIn: sum(usdc).toString(), payer };
  const wrapped = logs
    .filter((l) => lower(l.address) === lower(swap.weth) && l.topics.length === 2 && lower(l.topics[0]!) === WETH_DEPOSIT_TOPIC)
    .filter((l) => WORD.test(l.data) && topicAddress(l.topics[1]!) === lower(swap.router));
  if (wrapped.length) return { coin: 'ETH', amountIn: sum(wrapped).toString(), payer };
  return { coin: 'swap', amountIn: null, payer };
}

const sum = (logs: readonly RawLog[]) => logs.reduce((total, l) => total + BigInt(l.data), 0n);

interface UserOperationEvent {
  logIndex: number;
  sender: string;
  success: boolean;
}

/** The EntryPoint's UserOperationEvent(userOpHash, sender, paymaster, nonce, success, actualGasCost, actualGasUsed), or null. */
function userOperationEvent(log: RawLog, entryPoint: string): UserOperationEvent | null {
  if (lower(log.address) !== lower(entryPoint)) return null;
  if (log.topics.length !== 4 || lower(log.topics[0]!) !== USER_OPERATION_EVENT_TOPIC) return null;
  if (!/^0x[0-9a-fA-F]{256}$/.test(log.data)) return null;
  const success = BigInt(dataSlice(log.data, 32, 64));
  if (success > 1n) return null;
  return { logIndex: log.logIndex, sender: topicAddress(log.topics[2]!), success: success === 1n };
}
