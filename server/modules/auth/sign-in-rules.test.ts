import { SiweMessage } from 'siwe';
import { describe, expect, it } from 'vitest';
import { ErrorCode } from '../../../common/errors';
import { ISSUED_AT_SKEW_MS, messageRefusal, nonceRefusal, parseSignInMessage, type IssuedNonce, type MessageFields } from './sign-in-rules';

const NOW = new Date('2026-11-29T12:00:00Z');
const at = (ms: number) => new Date(NOW.getTime() + ms).toISOString();
const site = { domain: 'shop.example.com', uri: 'https://shop.example.com' };
const expected = { site, chainId: 8453, now: NOW };

/** A message as the shop issues it: this site, Base, issued now, ten minutes to sign. */
const issued: MessageFields = {
  domain: site.domain,
  uri: 'https://shop.example.com',
  chainId: 8453,
  issuedAt: at(0),
  expirationTime: at(10 * 60_000),
  notBefore: undefined,
};

describe('the sign-in message rules', () => {
  it.each<[string, Partial<MessageFields>]>([
    ['as issued', {}],
    ['a path on the same origin', { uri: 'https://shop.example.com/orders' }],
    ['issued a little ahead (a clock within the skew)', { issuedAt: at(ISSUED_AT_SKEW_MS) }],
    ['not before a moment that has come', { notBefore: at(0) }],
    ['expiring a millisecond from now', { expirationTime: at(1) }],
  ])('accepts a message %s', (_, change) => {
    expect(messageRefusal({ ...issued, ...change }, expected)).toBeNull();
  });

  it.each<[string, Partial<MessageFields>, RegExp]>([
    ['for another domain', { domain: 'evil.example' }, /for evil\.example, not this shop/],
    ['for a subdomain', { domain: 'a.shop.example.com' }, /not this shop/],
    ['naming this domain with another origin', { uri: 'https://evil.example' }, /not this shop/],
    ['naming plain http for an https shop', { uri: 'http://shop.example.com' }, /not this shop/],
    ['with another port', { uri: 'https://shop.example.com:8443' }, /not this shop/],
    ['whose uri is not a URL', { uri: 'not a url' }, /not this shop/],
    ['for Ethereum mainnet', { chainId: 1 }, /chain 1; this shop signs in on Base \(8453\)/],
    ['expired this very moment', { expirationTime: at(0) }, /expired/],
    ['expired an hour ago', { expirationTime: at(-3_600_000) }, /expired/],
    ['without an expiration (good for ever)', { expirationTime: undefined }, /expired/],
    ['not valid before a moment to come', { notBefore: at(1) }, /not valid yet/],
    ['issued beyond the clock skew', { issuedAt: at(ISSUED_AT_SKEW_MS + 1) }, /not valid yet/],
    ['with an expiration that is no date', { expirationTime: 'soon' }, /expired/],
  ])('refuses a message %s', (_, change, text) => {
    const refusal = messageRefusal({ ...issued, ...change }, expected);
    expect(refusal?.code).toBe(ErrorCode.invalidMessage);
    expect(refusal?.text).toMatch(text);
  });

  it('parses a message the shop wrote, and refuses a text that is none', () => {
    const text = new SiweMessage({
      ...issued,
      address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
      statement: 'Sign in to POGS Shop to see your orders.',
      version: '1',
      nonce: 'abcdefgh12345678',
    }).prepareMessage();
    expect(parseSignInMessage(text)).toBeInstanceOf(SiweMessage);
    expect(parseSignInMessage('hello')).toEqual({
      code: ErrorCode.invalidMessage,
      text: expect.stringMatching(/not a Sign-In with Ethereum message/),
    });
  });
});

describe('the nonce rules', () => {
  const mine: IssuedNonce = { sessionId: 'session-a', usedAt: null, expiresAt: new Date(NOW.getTime() + 60_000) };

  it('accepts the unused, unexpired nonce issued to this session', () => {
    expect(nonceRefusal(mine, 'session-a', NOW)).toBeNull();
  });

  it.each<[string, IssuedNonce | undefined, string | null]>([
    ['never issued', undefined, 'session-a'],
    ["issued to another session (a nonce lifted from someone else's message)", mine, 'session-b'],
    ['presented without a session', mine, null],
    ['already used once', { ...mine, usedAt: new Date(NOW.getTime() - 1) }, 'session-a'],
    ['expired this very moment', { ...mine, expiresAt: NOW }, 'session-a'],
    ['expired a minute ago', { ...mine, expiresAt: new Date(NOW.getTime() - 60_000) }, 'session-a'],
  ])('refuses a nonce %s', (_, nonce, sessionId) => {
    expect(nonceRefusal(nonce, sessionId, NOW)).toEqual({
      code: ErrorCode.invalidNonce,
      text: expect.stringMatching(/already used, has expired, or was not issued to this browser/),
    });
  });
});
