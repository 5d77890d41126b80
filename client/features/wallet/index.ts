/**
 * The wallet feature's public surface (composed by app/): the session provider and hook, and the
 * header control. The wallet code itself (client/web3: ethers, WalletConnect, the Demo Wallet)
 * loads lazily behind these.
 */
export { WalletProvider, useWallet } from './context/wallet-provider';
export { WalletButton } from './components/wallet-button';
export { toWalletConfig } from './lib/wallet-config';
