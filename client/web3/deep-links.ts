/**
 * Phones without a wallet in the browser: detect a phone or tablet the way
 * RainbowKit does, and build the links that reopen this page inside a wallet app's browser.
 * Pure; library-free, so the chooser can use it before the wallet code loads.
 */

export interface DeviceHints {
  userAgent: string;
  platform?: string;
  maxTouchPoints?: number;
}

/** Android, iPhone/iPod, or iPad (including iPadOS, which reports itself as a touch Mac). */
export function isMobileDevice({ userAgent, platform = '', maxTouchPoints = 0 }: DeviceHints): boolean {
  const android = /android/i.test(userAgent);
  const smallIos = /iPhone|iPod/.test(userAgent);
  const largeIos = /iPad/.test(userAgent) || (platform === 'MacIntel' && maxTouchPoints > 1);
  return android || smallIos || largeIos;
}

/** The current browser's hints (empty outside a browser). */
export function currentDeviceHints(): DeviceHints {
  if (typeof navigator === 'undefined') return { userAgent: '' };
  return { userAgent: navigator.userAgent, platform: navigator.platform, maxTouchPoints: navigator.maxTouchPoints };
}

/**
 * MetaMask's in-app browser: `https://link.metamask.io/dapp/<host><path><query>`, with no scheme
 * and NOT percent-encoded (an encoded path opens a blank tab). The fragment is dropped.
 */
export function metamaskDappLink(pageUrl: string | URL): string {
  const url = new URL(pageUrl);
  return `https://link.metamask.io/dapp/${url.host}${url.pathname}${url.search}`;
}

/** Coinbase Wallet's in-app browser: `https://go.cb-w.com/dapp?cb_url=<percent-encoded URL>`. */
export function coinbaseDappLink(pageUrl: string | URL): string {
  const url = new URL(pageUrl);
  return `https://go.cb-w.com/dapp?cb_url=${encodeURIComponent(url.href)}`;
}
