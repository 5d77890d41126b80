import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

const ADMIN_HASH = 'scrypt$1024$8$1$475XHI1GYAbhmSdP3z6HeA==$g/ItdRHw4pbGv+PZUIfKl0x0OOHa2TPG2vYv0Xx9Q3c=';
const live = {
  NODE_ENV: 'production',
  DATABASE_URL: 'postgres://shop@db.internal:5432/shop',
  PUBLIC_URL: 'https://shop.pogs.example',
  SHOPIFY_STORE_DOMAIN: 'pogs-store.myshopify.com',
  SHOPIFY_CLIENT_ID: '0123456789abcdef0123456789abcdef',
  SHOPIFY_CLIENT_SECRET: 'a-client-secret',
  BASE_RPC_URL: 'https://mainnet.base.org',
  POG_TOKEN_ADDRESS: '0x1111111111111111111111111111111111111111',
  STORE_WALLET_ADDRESS: '0x2222222222222222222222222222222222222222',
  ADMIN_PASSWORD_HASH: ADMIN_HASH,
};
const reference = {
  PRICE_REFERENCE_POOL: '0x3333333333333333333333333333333333333333',
  PRICE_REFERENCE_USD_FEED: '0x4444444444444444444444444444444444444444',
  PRICE_REFERENCE_SEQUENCER_FEED: '0x5555555555555555555555555555555555555555',
  PRICE_REFERENCE_FEED_MAX_AGE_SECONDS: '1500',
};

function refused(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
    return [];
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
}

describe('the dollar reference’s settings', () => {
  it('is off when no pool is configured, with the default rules', () => {
    expect(loadConfig(live).priceReference).toEqual({
      contracts: null,
      windowSeconds: 1800,
      feedMaxAgeSeconds: 3600,
      sequencerGraceSeconds: 3600,
      maxGapBps: 200,
    });
  });

  it('reads the pool, both feeds and the rules together', () => {
    const config = loadConfig({
      ...live,
      ...reference,
      PRICE_REFERENCE_TWAP_SECONDS: '3600',
      PRICE_REFERENCE_SEQUENCER_GRACE_SECONDS: '1800',
      PRICE_REFERENCE_MAX_GAP_BPS: '300',
    });
    expect(config.priceReference).toEqual({
      contracts: {
        pool: reference.PRICE_REFERENCE_POOL,
        usdFeed: reference.PRICE_REFERENCE_USD_FEED,
        sequencerFeed: reference.PRICE_REFERENCE_SEQUENCER_FEED,
      },
      windowSeconds: 3600,
      feedMaxAgeSeconds: 1500,
      sequencerGraceSeconds: 1800,
      maxGapBps: 300,
    });
  });

  it.each([
    ['PRICE_REFERENCE_USD_FEED', /PRICE_REFERENCE_USD_FEED is not: .*ETH\/USD on Base/],
    ['PRICE_REFERENCE_SEQUENCER_FEED', /PRICE_REFERENCE_SEQUENCER_FEED is not: .*sequencer uptime feed/],
    ['PRICE_REFERENCE_FEED_MAX_AGE_SECONDS', /PRICE_REFERENCE_FEED_MAX_AGE_SECONDS is not: .*heartbeat/],
  ])('refuses a live shop with the pool but without %s, saying what to add', (missing, message) => {
    const { [missing as keyof typeof reference]: _left, ...rest } = reference;
    const problems = refused({ ...live, ...rest });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(message);
  });

  it('refuses a feed without the pool', () => {
    expect(refused({ ...live, PRICE_REFERENCE_USD_FEED: reference.PRICE_REFERENCE_USD_FEED })).toEqual([
      'PRICE_REFERENCE_USD_FEED is set without PRICE_REFERENCE_POOL: set the pool to show the dollar reference, or remove it',
    ]);
  });

  it('explains malformed values and windows out of bounds', () => {
    const problems = refused({
      ...live,
      ...reference,
      PRICE_REFERENCE_POOL: '0x123',
      PRICE_REFERENCE_TWAP_SECONDS: '60',
      PRICE_REFERENCE_MAX_GAP_BPS: '0',
    });
    expect(problems.join('\n')).toMatch(/PRICE_REFERENCE_POOL: must be a 0x-prefixed 20-byte address/);
    expect(problems.join('\n')).toMatch(/PRICE_REFERENCE_TWAP_SECONDS/);
    expect(problems.join('\n')).toMatch(/PRICE_REFERENCE_MAX_GAP_BPS/);
  });
});
