import { describe, expect, it } from 'vitest';
import { makeSignInLink, readSignInLink, SIGN_IN_LINK_TTL_MS, signInUrl } from './sign-in-link';

const HASH = 'scrypt$16384$8$1$c2FsdA$aGFzaA';
const AT = new Date('2026-11-28T12:00:00Z');

describe('the operator’s sign-in link', () => {
  it('reads back as made, until its 15 minutes end', () => {
    const link = makeSignInLink(HASH, AT);
    const read = readSignInLink(HASH, link, AT);
    expect(read).toEqual({ ok: true, nonce: link.split('.')[0], expiresAt: new Date(AT.getTime() + SIGN_IN_LINK_TTL_MS) });
    expect(readSignInLink(HASH, link, new Date(AT.getTime() + SIGN_IN_LINK_TTL_MS - 1000)).ok).toBe(true);
    expect(readSignInLink(HASH, link, new Date(AT.getTime() + SIGN_IN_LINK_TTL_MS))).toEqual({ ok: false, why: 'expired' });
  });

  it('is new every time (a nonce of 128 random bits)', () => {
    const nonces = new Set(Array.from({ length: 100 }, () => makeSignInLink(HASH, AT).split('.')[0]));
    expect(nonces.size).toBe(100);
  });

  it('is refused when any part changed, for another password, or ending further away than a link can', () => {
    const link = makeSignInLink(HASH, AT);
    const [nonce, expires, mac] = link.split('.') as [string, string, string];
    const refused = { ok: false, why: 'not-a-link' };
    expect(readSignInLink(`${HASH}x`, link, AT)).toEqual(refused);
    expect(readSignInLink(HASH, `${nonce}.${Number(expires) + 1}.${mac}`, AT)).toEqual(refused);
    expect(readSignInLink(HASH, `${nonce.slice(1)}A.${expires}.${mac}`, AT)).toEqual(refused);
    expect(readSignInLink(HASH, `${link} `, AT)).toEqual(refused);
    expect(readSignInLink(HASH, '', AT)).toEqual(refused);
    // A link the server's own key made, but lasting a day: not one the command makes.
    const early = new Date(AT.getTime() + 86_400_000 - SIGN_IN_LINK_TTL_MS);
    expect(readSignInLink(HASH, makeSignInLink(HASH, early), AT)).toEqual(refused);
  });

  it('is refused in every other spelling of its MAC, those that decode to the same bytes included', () => {
    const link = makeSignInLink(HASH, AT);
    const [nonce, expires, mac] = link.split('.') as [string, string, string];
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const others = [...alphabet].filter((c) => c !== mac.at(-1)).map((c) => `${mac.slice(0, -1)}${c}`);
    // 43 characters carry 258 bits for 256: three other last characters decode to the very same MAC.
    expect(others.filter((o) => Buffer.from(o, 'base64url').equals(Buffer.from(mac, 'base64url')))).toHaveLength(3);
    for (const other of others)
      expect(readSignInLink(HASH, `${nonce}.${expires}.${other}`, AT), other).toEqual({ ok: false, why: 'not-a-link' });
  });

  it('goes in the fragment of /admin on the public address', () => {
    expect(signInUrl('https://shop.example/', 'abc.1.def')).toBe('https://shop.example/admin#sign-in=abc.1.def');
  });
});
