import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { MAX_ATTEMPTS, RETRY_DELAYS_MS, retryDelayMs } from './schedule';
import { newWebhookSecret, signedHeaders } from './signing';

describe('Standard Webhooks signing', () => {
  it('makes secrets in the format’s form, each one new', () => {
    const a = newWebhookSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(a.slice('whsec_'.length), 'base64')).toHaveLength(32);
    expect(newWebhookSecret()).not.toBe(a);
  });

  it('signs with every secret given, each signature verified by the reference library alone', () => {
    const [now, before] = [newWebhookSecret(), newWebhookSecret()];
    const body = JSON.stringify({ type: 'order.paid', timestamp: '2026-11-29T09:00:00.000Z', data: { total: '12.50' } });
    const headers = signedHeaders([now, before], 'msg_1', new Date(), body);
    expect(headers['webhook-signature']!.split(' ')).toEqual([expect.stringMatching(/^v1,/), expect.stringMatching(/^v1,/)]);
    for (const secret of [now, before]) expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(newWebhookSecret()).verify(body, headers)).toThrow();
    expect(() => new Webhook(now).verify(body.replace('12.50', '12.51'), headers)).toThrow();
    expect(() => new Webhook(now).verify(body, signedHeaders([now], 'msg_1', new Date(Date.now() - 10 * 60_000), body))).toThrow();
  });
});

describe('the retry schedule', () => {
  it('is the Standard Webhooks one: at once, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, then given up', () => {
    expect(MAX_ATTEMPTS).toBe(8);
    expect(Array.from({ length: MAX_ATTEMPTS }, (_, i) => retryDelayMs(i + 1))).toEqual([
      5_000,
      5 * 60_000,
      30 * 60_000,
      2 * 3600_000,
      5 * 3600_000,
      10 * 3600_000,
      10 * 3600_000,
      null,
    ]);
    // About a day and a bit in all: more than WEBHOOK_DISABLE_AFTER_MS, so a dead endpoint is disabled on its way.
    expect(RETRY_DELAYS_MS.reduce((a, b) => a + b, 0)).toBe(27 * 3600_000 + 35 * 60_000 + 5_000);
  });
});
