import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { notSavedText, savedOfflineText, savedResultsText } from './saved-offline-text';

describe('savedOfflineText', () => {
  it('says how many products the device has saved', () => {
    expect(savedOfflineText('offline', 24, false)).toBe("You're offline — showing the 24 products saved on this device.");
    expect(savedOfflineText('offline', 1, false)).toBe("You're offline — showing the 1 product saved on this device.");
    expect(savedOfflineText('unreachable', 3, false)).toBe("Can't reach the shop — showing the 3 products saved on this device.");
  });

  it('says when none are saved, and when the browser refused to save', () => {
    expect(savedOfflineText('offline', 0, false)).toBe(
      "You're offline — no products are saved on this device. Connect to the internet to browse the shop.",
    );
    expect(savedOfflineText('offline', 0, true)).toBe(
      "You're offline — no products are saved on this device. Connect to the internet to browse the shop. This browser didn't let the shop save more on this device.",
    );
    expect(savedOfflineText('unreachable', 0, false)).toContain('The shop shows again once it answers.');
  });
});

describe('notSavedText', () => {
  it('says the product is not saved, and what brings it', () => {
    expect(notSavedText('offline')).toBe(
      "You're offline, and this product isn't saved on this device for offline browsing. Connect to the internet to see it.",
    );
    expect(notSavedText('unreachable')).toContain("Can't reach the shop, and this product isn't saved");
  });
});

describe('savedResultsText', () => {
  it('says the results come from the products saved on the device, and what searches the whole shop', () => {
    expect(savedResultsText('offline', 90)).toBe(
      'Results from the 90 products saved on this device. Connect to the internet to search the whole shop.',
    );
    expect(savedResultsText('offline', 1)).toContain('the 1 product saved on this device.');
    expect(savedResultsText('unreachable', 3)).toBe(
      'Results from the 3 products saved on this device. The whole shop is searched again once it answers.',
    );
  });
});

describe('the offline search as docs/offline-and-install.md describes it', () => {
  const root = new URL('../../../../', import.meta.url);
  const doc = readFileSync(new URL('docs/offline-and-install.md', root), 'utf8').replace(/\s+/g, ' ');

  it('quotes the line as the home says it', () => {
    expect(doc).toContain(`"${savedResultsText('offline', 7).replace('7', '{n}')}"`);
  });
});
