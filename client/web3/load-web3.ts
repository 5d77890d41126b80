/**
 * Loads the wallet code (ethers, the controller, the payment helpers) once, on demand: the eager
 * bundle imports only this file. WalletConnect and the Demo Wallet stay further `import()`s.
 */
export type Web3Module = typeof import('./index');

let web3Loading: Promise<Web3Module> | null = null;

export function loadWeb3(): Promise<Web3Module> {
  web3Loading ??= import('./index').catch((error: unknown) => {
    web3Loading = null; // offline or a stale build: let the next tap try again
    throw error;
  });
  return web3Loading;
}
