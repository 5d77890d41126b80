import { describe, expect, it } from 'vitest';
import { installOffer, isIosSafari, type InstallContext } from './install-prompt';

const IPHONE_SAFARI =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 15_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/15.0 Mobile/15E148 Safari/604.1';
const IPHONE_CHROME =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/120.0.6099.119 Mobile/15E148 Safari/604.1';
const IPADOS_SAFARI =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15';
const PIXEL_CHROME =
  'Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36';

const base: InstallContext = {
  userAgent: PIXEL_CHROME,
  maxTouchPoints: 5,
  standalone: undefined,
  displayModeStandalone: false,
  dismissed: false,
  canPrompt: false,
};

describe('isIosSafari', () => {
  it('knows Safari on iPhone and on an iPad that says Macintosh', () => {
    expect(isIosSafari(IPHONE_SAFARI, 5)).toBe(true);
    expect(isIosSafari(IPADOS_SAFARI, 5)).toBe(true);
  });
  it('is not Safari on a Mac, Chrome on iOS or Android', () => {
    expect(isIosSafari(IPADOS_SAFARI, 0)).toBe(false);
    expect(isIosSafari(IPHONE_CHROME, 5)).toBe(false);
    expect(isIosSafari(PIXEL_CHROME, 5)).toBe(false);
  });
});

describe('installOffer', () => {
  it('offers the button once the browser fired beforeinstallprompt', () => {
    expect(installOffer(base)).toBeNull();
    expect(installOffer({ ...base, canPrompt: true })).toBe('button');
  });
  it('offers the Home Screen hint on iOS Safari in the browser', () => {
    expect(installOffer({ ...base, userAgent: IPHONE_SAFARI, standalone: false })).toBe('ios-hint');
  });
  it('offers nothing once installed (standalone either way) or dismissed', () => {
    expect(installOffer({ ...base, userAgent: IPHONE_SAFARI, standalone: true })).toBeNull();
    expect(installOffer({ ...base, userAgent: IPHONE_SAFARI, displayModeStandalone: true })).toBeNull();
    expect(installOffer({ ...base, canPrompt: true, displayModeStandalone: true })).toBeNull();
    expect(installOffer({ ...base, userAgent: IPHONE_SAFARI, dismissed: true })).toBeNull();
    expect(installOffer({ ...base, canPrompt: true, dismissed: true })).toBeNull();
  });
});
