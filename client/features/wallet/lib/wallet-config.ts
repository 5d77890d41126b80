import type { PublicConfig } from '../../../../common/api';
import { BASE_CHAIN_ID } from '../../../../common/chain';
import type { WalletConfig } from '../../../web3/types';

/** Base's public RPC and explorer, used only when /api/config could not be read. */
const FALLBACK: WalletConfig = Object.freeze({
  chainId: BASE_CHAIN_ID,
  chainName: 'Base',
  chainRpcUrl: 'https://mainnet.base.org',
  explorerUrl: 'https://basescan.org',
  walletConnectProjectId: null,
  demoWallet: false,
  shopName: 'POGS Shop',
});

/**
 * The wallet's view of the public config: null while it is loading; the Base defaults (no
 * WalletConnect, no Demo Wallet) when it failed, so browser wallets still work.
 */
export function toWalletConfig(config: PublicConfig | undefined, failed: boolean): WalletConfig | null {
  if (!config) return failed ? FALLBACK : null;
  return {
    chainId: config.chainId,
    chainName: config.chainName,
    chainRpcUrl: config.chainRpcUrl || FALLBACK.chainRpcUrl,
    explorerUrl: config.explorerUrl || FALLBACK.explorerUrl,
    walletConnectProjectId: config.walletConnectProjectId?.trim() || null,
    // Strictly true: anything else (missing field from an older server) means no Demo Wallet.
    demoWallet: config.demoWallet === true,
    shopName: config.shopName,
  };
}
