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
 * - The transaction calls an EntryPoint (ERC-4337 v0.6 to v0.8): the smart account whose user operation
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
  /**
   * The ERC-4337 EntryPoints whose user operations may carry a swap (v0.6, v0.7 and v0.8 share the
   * UserOperationEvent and log an operation's own events before it).
   */
  entryPoints: readonly string[];
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
/** An EntryPoint's BeforeExecution(), logged once at the start of each bundle's execution. */
export const BEFORE_EXECUTION_TOPIC = id('BeforeExecution()');
const BUNDLE_TOPICS = new Set([USER_OPERATION_EVENT_TOPIC, BEFORE_EXECUTION_TOPIC]);

const lower = (a: string) => a.toLowerCase();
const WORD = /^0x[0-9a-fA-F]{64}$/;
const topicAddress = (topic: string) => lower(getAddress(dataSlice(topic, 12)));

/** Whether a transfer's sender is one of the routes' pools: only then is it a swap. */
export function fromRoutePool(from: string, swap: SwapFacts | null): boolean {
  return swap !== null && swap.pools.includes(lower(from));
}

const unproven: PaidWith = { coin: 'swap', amountIn: null, payer: null };
/** A payer counts only with what it paid in: its USDC sent, or the ether the router wrapped. */
const proven = (paid: PaidWith): PaidWith => (paid.coin === 'swap' ? unproven : paid);

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

  // Someone else's signed user operation can be run inside a transaction of a stranger's (a bundle
  // nested in another EntryPoint's, or in a token's callback during a router call): the money
  // moved would be the operation's sender's, and the stranger would be taken as its payer. So a
  // call to the router with any EntryPoint's events in it proves nothing, and neither does a call to
  // an EntryPoint with another contract's such events in it or with more than one bundle in it.
  const bundles = logs.filter((l) => l.topics.length > 0 && BUNDLE_TOPICS.has(lower(l.topics[0]!)));

  if (to === lower(swap.router)) return bundles.length ? unproven : proven(coinOf(lower(tx.from), logs, swap));

  if (swap.entryPoints.some((entryPoint) => lower(entryPoint) === to)) {
    if (bundles.some((l) => lower(l.address) !== to)) return unproven;
    if (bundles.filter((l) => lower(l.topics[0]!) === BEFORE_EXECUTION_TOPIC).length !== 1) return unproven;
    const ops = logs
      .map((log) => userOperationEvent(log, to))
      .filter((e): e is UserOperationEvent => e !== null)
      .sort((a, b) => a.logIndex - b.logIndex);
    const index = ops.findIndex((e) => e.logIndex > transfer.logIndex);
    const op = ops[index];
    if (!op || !op.success) return unproven;
    // The operation's own logs: after the previous operation's event, before its own.
    const after = index > 0 ? ops[index - 1]!.logIndex : -1;
    return proven(
      coinOf(
        op.sender,
        logs.filter((l) => l.logIndex > after && l.logIndex < op.logIndex),
        swap,
      ),
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
