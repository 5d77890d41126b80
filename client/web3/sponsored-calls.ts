/**
 * Paying with no ETH, where the wallet can (EIP-5792 with ERC-7677): a smart wallet that offers
 * `paymasterService` on Base sends the token transfer as `wallet_sendCalls` with the shop's
 * paymaster, which pays its gas; the transaction that carries it is read from
 * `wallet_getCallsStatus`. Wallets without the capability (plain keys, MetaMask) keep the plain
 * transfer.
 */
import { Interface } from 'ethers';
import { BASE_CHAIN_ID_HEX } from '../../common/chain';
import type { PaymasterCapability } from '../../common/api';
import { TRANSACTION_FAILED_MESSAGE } from './payment-errors';
import type { Eip1193Provider } from './types';
import { WalletError } from './wallet-errors';

const ERC20 = new Interface(['function transfer(address to, uint256 amount) returns (bool)']);

/**
 * How long to wait before asking the wallet again whether the calls made a transaction yet: soon at
 * first (a bundler includes an operation within a block or two, and each second waited here is a
 * second the shopper waits), then less often, at most once a second.
 */
export function callsPollDelay(attempt: number): number {
  return Math.min(1000, Math.round(200 * 1.5 ** attempt));
}

/**
 * How long a wallet may take to say what it can. A wallet that knows the method answers at once; one
 * that does not may never answer (a phone wallet through a relay), and the payment must not wait on it.
 */
export const CAPABILITIES_TIMEOUT_MS = 3000;

interface BaseCapabilities {
  paymasterService?: { supported?: boolean };
  /** EIP-5792 2.0.0: 'supported' (it batches atomically), 'ready' (it can, once the shopper upgrades the account). */
  atomic?: { status?: string };
  /** The draft before it. */
  atomicBatch?: { supported?: boolean };
}

/** What the wallet says it can do on Base; null when it does not say in time, or does not know the method. */
async function capabilitiesOnBase(wallet: Eip1193Provider, from: string, timeoutMs: number): Promise<BaseCapabilities | null> {
  try {
    const asked = wallet.request({ method: 'wallet_getCapabilities', params: [from, [BASE_CHAIN_ID_HEX]] }) as Promise<Record<
      string,
      BaseCapabilities | undefined
    > | null>;
    return (await withinTime(asked, timeoutMs))?.[BASE_CHAIN_ID_HEX] ?? null;
  } catch {
    return null;
  }
}

/** Whether the wallet says it can have a paymaster pay its gas on Base (no answer in time, or an error: it cannot). */
export async function offersPaymaster(wallet: Eip1193Provider, from: string, timeoutMs = CAPABILITIES_TIMEOUT_MS): Promise<boolean> {
  return (await capabilitiesOnBase(wallet, from, timeoutMs))?.paymasterService?.supported === true;
}

/** Whether the wallet sends a batch of calls atomically on Base (all or none; no answer in time, or an error: it does not). */
export async function sendsAtomicBatch(wallet: Eip1193Provider, from: string, timeoutMs = CAPABILITIES_TIMEOUT_MS): Promise<boolean> {
  const capabilities = await capabilitiesOnBase(wallet, from, timeoutMs);
  return (
    capabilities?.atomic?.status === 'supported' ||
    capabilities?.atomic?.status === 'ready' ||
    capabilities?.atomicBatch?.supported === true
  );
}

/**
 * Sends `transfer(to, amountWei)` on `token` from `from` as one call with the shop's paymaster,
 * and resolves with the hash of the transaction that carried it once the wallet knows it (its
 * status 200 or a receipt), within `timeoutMs`.
 */
export function sendSponsoredTransfer(
  wallet: Eip1193Provider,
  call: { from: string; token: string; to: string; amountWei: bigint; paymaster: PaymasterCapability },
  opts: CallsOptions,
): Promise<string> {
  return sendCalls(
    wallet,
    {
      from: call.from,
      calls: [{ to: call.token, data: ERC20.encodeFunctionData('transfer', [call.to, call.amountWei]), value: '0x0' }],
      capabilities: { paymasterService: { url: call.paymaster.url, context: call.paymaster.context } },
    },
    opts,
  );
}

export interface CallsOptions {
  timeoutMs: number;
  sleep?: (ms: number) => Promise<void>;
}

/**
 * Sends `calls` from `from` as one atomic EIP-5792 batch (`wallet_sendCalls`), and resolves with
 * the hash of the transaction that carried them once the wallet knows it (its status 200 or a
 * receipt), within `timeoutMs`.
 */
export async function sendCalls(
  wallet: Eip1193Provider,
  batch: { from: string; calls: Array<{ to: string; data: string; value: string }>; capabilities?: Record<string, unknown> },
  opts: CallsOptions,
): Promise<string> {
  const sent = (await wallet.request({
    method: 'wallet_sendCalls',
    params: [
      {
        version: '2.0.0',
        chainId: BASE_CHAIN_ID_HEX,
        from: batch.from,
        atomicRequired: true,
        calls: batch.calls,
        ...(batch.capabilities ? { capabilities: batch.capabilities } : {}),
      },
    ],
  })) as string | { id?: string };
  // EIP-5792 v2 answers { id }; wallets of its first draft answer the id itself.
  const id = typeof sent === 'string' ? sent : sent?.id;
  if (!id) throw new WalletError('The wallet did not say which payment it sent. Check your wallet’s activity before paying again.');
  const sleep = opts.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const until = Date.now() + opts.timeoutMs;
  for (let attempt = 0; ; attempt++) {
    // A wallet that does not answer, or fails to (an id it does not know yet), is asked again until
    // the time is up: the payment may be on its way, so the shopper is told to look before paying again.
    const status = await withinTime(
      wallet.request({ method: 'wallet_getCallsStatus', params: [id] }) as Promise<CallsStatus | null>,
      until - Date.now(),
    ).catch(() => null);
    // 400 and up: the batch failed off chain or reverted (2.0.0); 'FAILURE' in older drafts; a
    // receipt with status 0: included, but the transfer reverted.
    if (
      (typeof status?.status === 'number' && status.status >= 400) ||
      status?.status === 'FAILURE' ||
      status?.receipts?.some((r) => r.status === '0x0')
    ) {
      throw new WalletError(TRANSACTION_FAILED_MESSAGE);
    }
    const hash = status?.receipts?.find((r) => r.transactionHash)?.transactionHash;
    if (hash) return hash;
    if (Date.now() >= until) throw new WalletError(NOT_SENT_YET_MESSAGE);
    await sleep(callsPollDelay(attempt));
  }
}

const NOT_SENT_YET_MESSAGE = 'The wallet has not sent the payment yet. Check your wallet’s activity before paying again.';

interface CallsStatus {
  status?: number | string;
  receipts?: Array<{ transactionHash?: string; status?: string }>;
}

/** `promise`'s answer, or null when it has none within `ms`. */
function withinTime<T>(promise: Promise<T>, ms: number): Promise<T | null> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const silence = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), Math.max(0, ms))));
  return Promise.race([promise, silence]).finally(() => clearTimeout(timer));
}
