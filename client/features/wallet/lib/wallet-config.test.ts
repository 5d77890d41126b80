import { describe, expect, it } from 'vitest';
import type { PublicConfig } from '../../../../common/api';
import { toWalletConfig } from './wallet-config';

const config: PublicConfig = {
  shopName: 'POGS Shop',
  productName: 'POGS',
  tokenSymbol: 'POG',
  currencyLabel: '$POGS',
  tokenDecimals: 18,
  chainId: 8453,
  chainName: 'Base',
  explorerUrl: 'https://basescan.org',
  communityUrl: 'https://discord.gg/x',
  brandUrl: 'https://pogs.example',
  walletConnectProjectId: null,
  chainRpcUrl: 'https://mainnet.base.org',
  demoWallet: false,
  mode: 'live',
  tokenAddress: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
  storeWallet: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
  gasPaidByShop: false,
  payWith: [],
};

describe('toWalletConfig', () => {
  it('is null while loading and Base defaults without extras when the config failed', () => {
    expect(toWalletConfig(undefined, false)).toBeNull();
    expect(toWalletConfig(undefined, true)).toMatchObject({ chainId: 8453, demoWallet: false, walletConnectProjectId: null });
  });

  it('offers the Demo Wallet only when the server says exactly true', () => {
    expect(toWalletConfig({ ...config, demoWallet: true, mode: 'local' }, false)?.demoWallet).toBe(true);
    expect(toWalletConfig(config, false)?.demoWallet).toBe(false);
    expect(toWalletConfig({ ...config, demoWallet: 'yes' as unknown as boolean }, false)?.demoWallet).toBe(false);
  });

  it('treats a blank WalletConnect project id as none', () => {
    expect(toWalletConfig({ ...config, walletConnectProjectId: '  ' }, false)?.walletConnectProjectId).toBeNull();
    expect(toWalletConfig({ ...config, walletConnectProjectId: 'abc' }, false)?.walletConnectProjectId).toBe('abc');
  });
});
