import { describe, expect, it } from 'vitest';
import { NO_SIGNATURE_MESSAGE, personalSign, utf8ToHex } from './personal-sign';
import type { Eip1193Provider, RequestArguments } from './types';

const ADDRESS = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';

function wallet(answer: () => unknown): Eip1193Provider & { calls: RequestArguments[] } {
  const calls: RequestArguments[] = [];
  return {
    calls,
    async request(args) {
      calls.push(args);
      return answer();
    },
  };
}

describe('utf8ToHex', () => {
  it('encodes the text as UTF-8 bytes', () => {
    expect(utf8ToHex('hello')).toBe('0x68656c6c6f');
    expect(utf8ToHex('')).toBe('0x');
    expect(utf8ToHex('é\n')).toBe('0xc3a90a');
  });
});

describe('personalSign', () => {
  it('sends personal_sign with the hex-encoded message, then the address', async () => {
    const w = wallet(() => '0xabcdef');
    await expect(personalSign(w, ADDRESS, 'Sign in')).resolves.toBe('0xabcdef');
    expect(w.calls).toEqual([{ method: 'personal_sign', params: [utf8ToHex('Sign in'), ADDRESS] }]);
  });

  it("passes the wallet's refusal through", async () => {
    const refusal = { code: 4001, message: 'User rejected the request.' };
    const w = wallet(() => {
      throw refusal;
    });
    await expect(personalSign(w, ADDRESS, 'Sign in')).rejects.toBe(refusal);
  });

  it('fails when the wallet answers without a signature', async () => {
    await expect(
      personalSign(
        wallet(() => null),
        ADDRESS,
        'x',
      ),
    ).rejects.toThrow(NO_SIGNATURE_MESSAGE);
    await expect(
      personalSign(
        wallet(() => 'nope'),
        ADDRESS,
        'x',
      ),
    ).rejects.toThrow(NO_SIGNATURE_MESSAGE);
  });
});
