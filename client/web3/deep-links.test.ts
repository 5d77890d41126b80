import { describe, expect, it } from 'vitest';
import { coinbaseDappLink, isMobileDevice, metamaskDappLink } from './deep-links';

const UA = {
  pixel7: 'Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36',
  iphone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  ipod: 'Mozilla/5.0 (iPod touch; CPU iPhone OS 12_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148',
  ipadOld: 'Mozilla/5.0 (iPad; CPU OS 12_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/12.1 Mobile/15E148 Safari/604.1',
  mac: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
  windows: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
  linux: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
};

describe('isMobileDevice', () => {
  it('is true for Android phones, iPhones, iPods and iPads', () => {
    expect(isMobileDevice({ userAgent: UA.pixel7 })).toBe(true);
    expect(isMobileDevice({ userAgent: UA.iphone, platform: 'iPhone', maxTouchPoints: 5 })).toBe(true);
    expect(isMobileDevice({ userAgent: UA.ipod })).toBe(true);
    expect(isMobileDevice({ userAgent: UA.ipadOld, platform: 'iPad' })).toBe(true);
  });

  it('counts iPadOS (a Mac user agent with touch points) as mobile', () => {
    expect(isMobileDevice({ userAgent: UA.mac, platform: 'MacIntel', maxTouchPoints: 5 })).toBe(true);
  });

  it('is false for desktops, including a Mac without touch', () => {
    expect(isMobileDevice({ userAgent: UA.mac, platform: 'MacIntel', maxTouchPoints: 0 })).toBe(false);
    expect(isMobileDevice({ userAgent: UA.windows, platform: 'Win32', maxTouchPoints: 10 })).toBe(false);
    expect(isMobileDevice({ userAgent: UA.linux, platform: 'Linux x86_64' })).toBe(false);
    expect(isMobileDevice({ userAgent: '' })).toBe(false);
  });
});

describe('metamaskDappLink', () => {
  it('is host + path + query, with no scheme and no percent-encoding', () => {
    expect(metamaskDappLink('https://shop.pogs.io/')).toBe('https://link.metamask.io/dapp/shop.pogs.io/');
    expect(metamaskDappLink('http://localhost:4319/')).toBe('https://link.metamask.io/dapp/localhost:4319/');
    expect(metamaskDappLink('https://shop.pogs.io/product/42?variant=7&ref=x#details')).toBe(
      'https://link.metamask.io/dapp/shop.pogs.io/product/42?variant=7&ref=x',
    );
  });
});

describe('coinbaseDappLink', () => {
  it('percent-encodes the whole URL into cb_url', () => {
    expect(coinbaseDappLink('https://shop.pogs.io/')).toBe('https://go.cb-w.com/dapp?cb_url=https%3A%2F%2Fshop.pogs.io%2F');
    expect(coinbaseDappLink('http://localhost:4319/product/42?variant=7&ref=x')).toBe(
      'https://go.cb-w.com/dapp?cb_url=http%3A%2F%2Flocalhost%3A4319%2Fproduct%2F42%3Fvariant%3D7%26ref%3Dx',
    );
    const link = new URL(coinbaseDappLink('https://shop.pogs.io/cart?a=1&b=2'));
    expect(link.searchParams.get('cb_url')).toBe('https://shop.pogs.io/cart?a=1&b=2');
  });
});
