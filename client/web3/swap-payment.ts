/**
 * Sending a swap quote's calls (paying with ETH or USDC, common/swap-pay.ts) through the shopper's
 * wallet: a wallet that batches atomically (EIP-5792) sends them as one `wallet_sendCalls`; a plain
 * key sends each as a transaction, the approve's receipt awaited before the swap. The swap is
 * estimated first: a swap the node says would revert (the pools now ask more than the quote's
 * bound) is not sent, and PriceMovedError says so. The swap pays its own gas (no paymaster).
 */
import type { SwapQuote, WalletCall } from '../../common/swap-pay';
import { INVALID_BALANCE_MESSAGE, PriceMovedError, TRANSACTION_FAILED_MESSAGE } from './payment-errors';
import { sendCalls, sendsAtomicBatch } from './sponsored-calls';
import { RECEIPT_TIMEOUT_MS } from './token-payment';
import type { Eip1193Provider } from './types';
import { declaredRpcErrorCode, errorMessage, WalletError } from './wallet-errors';

/**
 * A Uniswap pool writes an observation per second, so a swap may cost more gas in the block it
 * lands in than in the one it was estimated in: each transaction is sent with half again its estimate.
 */
export function withGasMargin(estimate: bigint): bigint {
  return (estimate * 3n) / 2n;
}

export interface SwapSendOptions {
  /** How long to wait for the approve's receipt, and for a batch's transaction. */
  timeoutMs: number;
  sleep?: (ms: number) => Promise<void>;
}

const RECEIPT_POLL_MS = 500;
/** JSON-RPC 3: "execution reverted" (geth, anvil, most providers). */
const EXECUTION_REVERTED = 3;

/** Whether a failed estimate means the call itself reverts (not a wallet, network or funds problem). */
function isRevert(error: unknown): boolean {
  if (declaredRpcErrorCode(error) === EXECUTION_REVERTED) return true;
  const message = errorMessage(error) ?? '';
  return /revert/i.test(message) && !/insufficient funds/i.test(message);
}

/**
 * What `owner` holds of the quote's coin, in its smallest unit: ETH's balance, or the balance of the
 * token the quote's approve is for (USDC).
 */
export async function coinBalance(wallet: Eip1193Provider, owner: string, quote: Pick<SwapQuote, 'payWith' | 'calls'>): Promise<bigint> {
  const answer =
    quote.payWith === 'ETH'
      ? await wallet.request({ method: 'eth_getBalance', params: [owner, 'latest'] })
      : await wallet.request({
          method: 'eth_call',
          params: [{ to: quote.calls[0]!.to, data: `0x70a08231${word(owner)}` }, 'latest'],
        });
  if (typeof answer !== 'string' || !/^0x[0-9a-f]+$/i.test(answer)) throw new WalletError(INVALID_BALANCE_MESSAGE);
  return BigInt(answer);
}

const quantity = (decimal: string) => `0x${BigInt(decimal).toString(16)}`;

/** The call as a transaction request from `from`. */
const txOf = (from: string, call: WalletCall) => ({ from, to: call.to, data: call.data, value: quantity(call.value) });

/**
 * Sends the quote's calls from `from` and resolves with the hash of the transaction that carries
 * the swap (the one the shop matches the payment by).
 */
export async function sendSwapCalls(
  wallet: Eip1193Provider,
  from: string,
  calls: readonly WalletCall[],
  opts: SwapSendOptions = { timeoutMs: RECEIPT_TIMEOUT_MS },
): Promise<string> {
  const swap = calls[calls.length - 1]!;
  if (await sendsAtomicBatch(wallet, from)) {
    // A lone swap can be estimated here; a batch's swap needs its approve first, and the wallet
    // estimates the batch as one (a swap past its bound fails there, before anything is spent).
    if (calls.length === 1) await estimate(wallet, txOf(from, swap), true);
    return sendCalls(wallet, { from, calls: calls.map((c) => ({ to: c.to, data: c.data, value: quantity(c.value) })) }, opts);
  }
  for (const call of calls.slice(0, -1)) {
    if (await alreadyApproved(wallet, from, call)) continue;
    const gas = await estimate(wallet, txOf(from, call), false);
    const hash = await send(wallet, { ...txOf(from, call), gas: quantity(withGasMargin(gas).toString()) });
    await waitForSuccess(wallet, hash, opts);
  }
  const gas = await estimate(wallet, txOf(from, swap), true);
  return send(wallet, { ...txOf(from, swap), gas: quantity(withGasMargin(gas).toString()) });
}

const APPROVE = '0x095ea7b3';
const ALLOWANCE = '0xdd62ed3e';
const word = (address: string) => address.slice(2).toLowerCase().padStart(64, '0');

/**
 * Whether `call` is an approve the token already covers (the allowance from an earlier try, whose
 * swap was not sent because the price moved): then the wallet is not asked for it again.
 */
async function alreadyApproved(wallet: Eip1193Provider, from: string, call: WalletCall): Promise<boolean> {
  if (!call.data.toLowerCase().startsWith(APPROVE) || call.data.length !== 10 + 128) return false;
  const spender = `0x${call.data.slice(34, 74)}`;
  const amount = BigInt(`0x${call.data.slice(74)}`);
  try {
    const answer = await wallet.request({
      method: 'eth_call',
      params: [{ to: call.to, data: `${ALLOWANCE}${word(from)}${word(spender)}` }, 'latest'],
    });
    return typeof answer === 'string' && /^0x[0-9a-f]+$/i.test(answer) && BigInt(answer) >= amount;
  } catch {
    return false; // not known: the approve is asked for
  }
}

async function estimate(wallet: Eip1193Provider, tx: ReturnType<typeof txOf>, isSwap: boolean): Promise<bigint> {
  let answer: unknown;
  try {
    answer = await wallet.request({ method: 'eth_estimateGas', params: [tx] });
  } catch (error) {
    if (isSwap && isRevert(error)) throw new PriceMovedError({ cause: error });
    throw error;
  }
  if (typeof answer !== 'string' || !/^0x[0-9a-f]+$/i.test(answer))
    throw new WalletError('The wallet could not estimate the swap’s network fee.');
  return BigInt(answer);
}

async function send(wallet: Eip1193Provider, tx: Record<string, string>): Promise<string> {
  const hash = await wallet.request({ method: 'eth_sendTransaction', params: [tx] });
  if (typeof hash !== 'string' || !/^0x[0-9a-f]{64}$/i.test(hash)) {
    throw new WalletError('The wallet did not say which transaction it sent. Check your wallet’s activity before paying again.');
  }
  return hash;
}

/** Waits for `hash`'s receipt (asked until there is one, within the time); a reverted or missing one fails. */
async function waitForSuccess(wallet: Eip1193Provider, hash: string, opts: SwapSendOptions): Promise<void> {
  const sleep = opts.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const until = Date.now() + opts.timeoutMs;
  for (;;) {
    const receipt = (await wallet.request({ method: 'eth_getTransactionReceipt', params: [hash] })) as { status?: string } | null;
    if (receipt) {
      if (receipt.status !== '0x1') throw new WalletError(TRANSACTION_FAILED_MESSAGE);
      return;
    }
    if (Date.now() >= until)
      throw new WalletError('The approval was not confirmed in time. Check your wallet’s activity before paying again.');
    await sleep(RECEIPT_POLL_MS);
  }
}
