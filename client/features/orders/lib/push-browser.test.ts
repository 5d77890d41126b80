import { describe, expect, it } from 'vitest';
import { keyBytes } from './push-browser';

describe('the VAPID key as bytes', () => {
  it('decodes unpadded base64url', () => {
    const bytes = new Uint8Array([4, 250, 251, 252, 253, 254, 255, 0, 1]);
    expect([...keyBytes(Buffer.from(bytes).toString('base64url'))]).toEqual([...bytes]);
    expect(keyBytes(Buffer.alloc(65, 7).toString('base64url'))).toHaveLength(65);
  });
});
