/**
 * Makes the wallet use Base (chain id 8453 = 0x2105) before a payment: nothing to do when it
 * already is; otherwise `wallet_switchEthereumChain`, and when the wallet does not know Base (4902)
 * `wallet_addEthereumChain` then switch again. Any refusal ends in the 'Please switch to Base
 * Network…' error.
 */
import { BASE_CHAIN_ID, BASE_CHAIN_ID_HEX } from '../../common/chain';
import { rpcErrorCode, UNRECOGNIZED_CHAIN, WalletError, WRONG_NETWORK_MESSAGE } from './wallet-errors';
import type { Eip1193Provider } from './types';

export interface BaseNetworkOptions {
  /** Public RPC for wallets that must add Base (config.chainRpcUrl). */
  rpcUrl: string;
  /** Block explorer (config.explorerUrl). */
  explorerUrl: string;
}

/** The wallet_addEthereumChain parameters for Base. */
export function baseChainParameters({ rpcUrl, explorerUrl }: BaseNetworkOptions) {
  return {
    chainId: BASE_CHAIN_ID_HEX,
    chainName: 'Base',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: [rpcUrl],
    blockExplorerUrls: [explorerUrl],
  };
}

/** Whether a chain id (hex string, decimal string or number) is Base. */
export function isBaseChainId(chainId: unknown): boolean {
  if (typeof chainId === 'number') return chainId === BASE_CHAIN_ID;
  if (typeof chainId !== 'string' || chainId.trim() === '') return false;
  const value = chainId.trim().toLowerCase();
  try {
    return BigInt(value) === BigInt(BASE_CHAIN_ID);
  } catch {
    return false;
  }
}

/**
 * MetaMask reports an unknown chain as 4902; MetaMask mobile wraps it in -32603 with
 * data.originalError.code 4902, and some wallets only say "Unrecognized chain".
 */
function isUnknownChain(error: unknown): boolean {
  if (rpcErrorCode(error) === UNRECOGNIZED_CHAIN) return true;
  const nested = (error as { data?: { originalError?: { code?: unknown } } } | null)?.data?.originalError?.code;
  if (nested === UNRECOGNIZED_CHAIN) return true;
  const message = (error as { message?: unknown } | null)?.message;
  return typeof message === 'string' && /unrecognized chain|unknown chain|chain .* not (been )?added/i.test(message);
}

async function switchToBase(provider: Eip1193Provider): Promise<void> {
  await provider.request({ method: 'wallet_switchEthereumChain', params: [{ chainId: BASE_CHAIN_ID_HEX }] });
}

export async function ensureBaseNetwork(provider: Eip1193Provider, options: BaseNetworkOptions): Promise<void> {
  try {
    if (isBaseChainId(await provider.request({ method: 'eth_chainId' }))) return;
  } catch {
    // A wallet that cannot say its chain is asked to switch anyway.
  }
  try {
    await switchToBase(provider);
  } catch (switchError) {
    if (!isUnknownChain(switchError))
      throw new WalletError(WRONG_NETWORK_MESSAGE, { code: rpcErrorCode(switchError) ?? undefined, cause: switchError });
    try {
      await provider.request({ method: 'wallet_addEthereumChain', params: [baseChainParameters(options)] });
      // Most wallets switch when adding; ask again for the ones that do not (a no-op otherwise).
      await switchToBase(provider);
    } catch (addError) {
      throw new WalletError(WRONG_NETWORK_MESSAGE, { code: rpcErrorCode(addError) ?? undefined, cause: addError });
    }
  }
}
