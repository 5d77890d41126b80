import { describe, expect, it } from 'vitest';
import { sameAddress } from './same-address';

describe('sameAddress', () => {
  it('ignores the checksum case', () => {
    expect(sameAddress('0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC', '0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc')).toBe(true);
    expect(sameAddress('0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC', '0x90F79bf6EB2c4f870365E785982E1f101E93b906')).toBe(false);
  });

  it('treats a missing address as none', () => {
    expect(sameAddress(null, undefined)).toBe(true);
    expect(sameAddress(null, '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC')).toBe(false);
  });
});
