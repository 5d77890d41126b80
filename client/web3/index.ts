/**
 * The wallet code's public surface, loaded with `import()` (never statically from the eager
 * bundle, see load-web3.ts): the page's WalletController, the Base network helper, the token
 * payment and the wallet messages.
 * ethers is imported here; WalletConnect and the Demo Wallet are further `import()`s inside.
 */
import { getAddress } from 'ethers';
import { WalletController, type WalletConnectLike } from './wallet-controller';

export { WalletController } from './wallet-controller';
export type { WalletOption, WalletSnapshot } from './wallet-controller';
export { ensureBaseNetwork } from './ensure-base-network';
export { createTokenPayment } from './token-payment';
export { coinBalance, sendSwapCalls } from './swap-payment';

let controller: WalletController | null = null;

/** The page's one wallet session. */
export function getWalletController(): WalletController {
  controller ??= new WalletController({
    target: window,
    storage: (() => {
      try {
        return window.localStorage;
      } catch {
        return null;
      }
    })(),
    checksum: getAddress,
    loadWalletConnect: async (config) =>
      (await (await import('./walletconnect')).getWalletConnectProvider(config)) as unknown as WalletConnectLike,
    loadDemoWallet: async (target) => (await import('./demo-wallet')).installDemoWallet(target),
  });
  return controller;
}
