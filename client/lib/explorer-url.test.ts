import { describe, expect, it } from 'vitest';
import { explorerUrl, publicExplorerUrl } from './explorer-url';

const hash = '0x' + 'ab'.repeat(32);

describe('explorerUrl', () => {
  it('links a transaction or an address on the configured explorer', () => {
    expect(explorerUrl({ explorerUrl: 'https://basescan.org' }, 'tx', hash)).toBe(`https://basescan.org/tx/${hash}`);
    expect(explorerUrl({ explorerUrl: 'https://basescan.org//' }, 'address', '0xabc')).toBe('https://basescan.org/address/0xabc');
  });

  it('is null without an explorer, without a value, or for the local chain', () => {
    expect(explorerUrl({ explorerUrl: '' }, 'tx', hash)).toBeNull();
    expect(explorerUrl({ explorerUrl: null }, 'tx', hash)).toBeNull();
    expect(explorerUrl({ explorerUrl: 'https://basescan.org' }, 'tx', null)).toBeNull();
    const local = publicExplorerUrl({ explorerUrl: 'https://basescan.org', demoWallet: true });
    expect(explorerUrl({ explorerUrl: local }, 'tx', hash)).toBeNull();
    expect(publicExplorerUrl({ explorerUrl: 'https://basescan.org', demoWallet: false })).toBe('https://basescan.org');
  });
});
