import webpush from 'web-push';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config';
import { orderUpdatesCheck, pushProblems, vapidPairMatches } from './push-config';

const keys = webpush.generateVAPIDKeys();

describe('order updates settings', () => {
  it('are on with a matching key pair and a subject, in local and live mode alike', () => {
    const config = loadConfig({
      NODE_ENV: 'test',
      VAPID_PUBLIC_KEY: keys.publicKey,
      VAPID_PRIVATE_KEY: keys.privateKey,
      VAPID_SUBJECT: 'mailto:shop@example.com',
    });
    expect(config.push).toEqual({ kind: 'configured', keys: { ...keys, subject: 'mailto:shop@example.com' } });
    expect(orderUpdatesCheck(config.push)).toMatchObject({ status: 'ok' });
  });

  it('are made and kept in the data folder in local mode when not given', () => {
    const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: '/tmp/pogs-data' });
    expect(config.push).toEqual({ kind: 'generated', file: '/tmp/pogs-data/vapid-keys.json' });
    expect(config.defaults.some((d) => d.startsWith('order updates (Web Push)'))).toBe(true);
  });

  it('refuse a partial set or a mismatched pair, never repeating the private key', () => {
    expect(pushProblems({ VAPID_PUBLIC_KEY: keys.publicKey })).toEqual([
      expect.stringContaining('missing: VAPID_PRIVATE_KEY, VAPID_SUBJECT'),
    ]);
    const other = webpush.generateVAPIDKeys();
    const problems = pushProblems({ VAPID_PUBLIC_KEY: keys.publicKey, VAPID_PRIVATE_KEY: other.privateKey, VAPID_SUBJECT: 'mailto:a@b.c' });
    expect(problems).toEqual([expect.stringContaining('is not the public key')]);
    expect(problems.join()).not.toContain(other.privateKey);
    expect(vapidPairMatches(keys.publicKey, keys.privateKey)).toBe(true);
    expect(() =>
      loadConfig({ NODE_ENV: 'test', VAPID_PUBLIC_KEY: keys.publicKey, VAPID_PRIVATE_KEY: keys.privateKey, VAPID_SUBJECT: 'shop' }),
    ).toThrow(/VAPID_SUBJECT: must be a mailto: address or an https:\/\/ URL/);
  });

  it('are off in a live shop without them, which the doctor says', () => {
    expect(orderUpdatesCheck({ kind: 'off' })).toMatchObject({ status: 'warn', found: expect.stringMatching(/^off/) });
  });
});
