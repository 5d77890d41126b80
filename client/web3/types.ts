/**
 * EIP-1193 / EIP-6963 shapes, kept free of any library so the eager bundle can name them.
 */

export interface RequestArguments {
  readonly method: string;
  readonly params?: readonly unknown[] | Record<string, unknown>;
}

export type ProviderListener = (...args: never[]) => void;

/** An EIP-1193 provider: `request`, and (usually) `on` / `removeListener` for its events. */
export interface Eip1193Provider {
  request(args: RequestArguments): Promise<unknown>;
  on?(event: string, listener: ProviderListener): unknown;
  removeListener?(event: string, listener: ProviderListener): unknown;
}

/** EIP-6963 `info`: uuid (per page session), name, icon (a data: URI) and rdns (reverse DNS id). */
export interface Eip6963ProviderInfo {
  uuid: string;
  name: string;
  icon: string;
  rdns: string;
}

export interface Eip6963ProviderDetail {
  info: Eip6963ProviderInfo;
  provider: Eip1193Provider;
}

/** The slice of the public config (`GET /api/config`) the wallet code needs. */
export interface WalletConfig {
  chainId: number;
  chainName: string;
  /** Public RPC offered to wallets that do not know Base yet (wallet_addEthereumChain). */
  chainRpcUrl: string;
  explorerUrl: string;
  walletConnectProjectId: string | null;
  /** True only in local mode with the embedded chain: announce the Demo Wallet. */
  demoWallet: boolean;
  shopName: string;
}

/** A toast the wallet code asks the app to show. */
export interface WalletNotice {
  title: string;
  description: string;
  variant: 'default' | 'destructive';
}
