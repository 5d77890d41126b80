/**
 * WalletConnect v2 (`@walletconnect/ethereum-provider`, with its QR modal). Hundreds of KB:
 * the wallet controller `import()`s this module only when the shopper picks WalletConnect, or
 * when the wallet used last was WalletConnect (silent reconnect). Never in the main bundle.
 */
import { EthereumProvider } from '@walletconnect/ethereum-provider';
import type { WalletConfig } from './types';

export type WalletConnectProvider = Awaited<ReturnType<typeof EthereumProvider.init>>;

export const WALLETCONNECT_DESCRIPTION = 'Heritage merchandise priced and paid in $POGS on the Base network.';

export function walletConnectOptions(config: WalletConfig, origin: string) {
  return {
    projectId: config.walletConnectProjectId ?? '',
    // optionalChains, not chains: a required chain blocks wallets that lack it.
    optionalChains: [config.chainId] as [number],
    rpcMap: { [config.chainId]: config.chainRpcUrl },
    showQrModal: true,
    metadata: {
      name: config.shopName || 'POGS Shop',
      description: WALLETCONNECT_DESCRIPTION,
      // Must be this site's origin (WalletConnect's Verify API).
      url: origin,
      icons: [`${origin}/icons/icon-192.png`],
    },
  };
}

let pending: Promise<WalletConnectProvider> | null = null;

/** One WalletConnect provider per page (it keeps its session in localStorage). */
export function getWalletConnectProvider(config: WalletConfig): Promise<WalletConnectProvider> {
  if (!config.walletConnectProjectId) return Promise.reject(new Error('WalletConnect is not configured'));
  pending ??= EthereumProvider.init(walletConnectOptions(config, window.location.origin)).catch((error: unknown) => {
    pending = null; // let the next attempt try again
    throw error;
  });
  return pending;
}
