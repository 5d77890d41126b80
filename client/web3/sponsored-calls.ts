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

/** Whether the wallet says it can have a paymaster pay its gas on Base (no answer in time, or an error: it cannot). */
export async function offersPaymaster(wallet: Eip1193Provider, from: string, timeoutMs = CAPABILITIES_TIMEOUT_MS): Promise<boolean> {
  try {
    const asked = wallet.request({ method: 'wallet_getCapabilities', params: [from, [BASE_CHAIN_ID_HEX]] }) as Promise<Record<
      string,
      { paymasterService?: { supported?: boolean } } | undefined
    > | null>;
    const capabilities = await withinTime(asked, timeoutMs);
    return capabilities?.[BASE_CHAIN_ID_HEX]?.paymasterService?.supported === true;
  } catch {
    return false; // a wallet that does not know the method: a plain transfer
  }
}

/**
 * Sends `transfer(to, amountWei)` on `token` from `from` as one call with the shop's paymaster,
 * and resolves with the hash of the transaction that carried it once the wallet knows it (its
 * status 200 or a receipt), within `timeoutMs`.
 */
export async function sendSponsoredTransfer(
  wallet: Eip1193Provider,
  call: { from: string; token: string; to: string; amountWei: bigint; paymaster: PaymasterCapability },
  opts: { timeoutMs: number; sleep?: (ms: number) => Promise<void> },
): Promise<string> {
  const sent = (await wallet.request({
    method: 'wallet_sendCalls',
    params: [
      {
        version: '2.0.0',
        chainId: BASE_CHAIN_ID_HEX,
        from: call.from,
        atomicRequired: true,
        calls: [{ to: call.token, data: ERC20.encodeFunctionData('transfer', [call.to, call.amountWei]), value: '0x0' }],
        capabilities: { paymasterService: { url: call.paymaster.url, context: call.paymaster.context } },
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
