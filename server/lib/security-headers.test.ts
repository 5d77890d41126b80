import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { inlineScriptSource, PERMISSIONS_POLICY, policyDirectives } from './security-headers';

/** A well-formed hash line: the config checks its form only. */
const ADMIN_HASH = 'scrypt$1024$8$1$475XHI1GYAbhmSdP3z6HeA==$g/ItdRHw4pbGv+PZUIfKl0x0OOHa2TPG2vYv0Xx9Q3c=';
const live = {
  DATABASE_URL: 'postgres://shop@db.internal:5432/shop',
  PUBLIC_URL: 'https://shop.pogs.example',
  SHOPIFY_STORE_DOMAIN: 'pogs-store.myshopify.com',
  SHOPIFY_CLIENT_ID: '0123456789abcdef0123456789abcdef',
  SHOPIFY_CLIENT_SECRET: 'a-client-secret',
  BASE_RPC_URL: 'https://base-rpc.provider.example/v1/secret-key',
  POG_TOKEN_ADDRESS: '0x1111111111111111111111111111111111111111',
  STORE_WALLET_ADDRESS: '0x2222222222222222222222222222222222222222',
  ADMIN_PASSWORD_HASH: ADMIN_HASH,
};

describe('the Content-Security-Policy', () => {
  it('runs scripts of the shop only: no inline script without its hash, no eval, no plugin, never framed', () => {
    for (const config of [loadConfig({}), loadConfig({ ...live, NODE_ENV: 'production' })]) {
      const d = policyDirectives(config);
      expect(d['script-src']).toEqual(["'self'"]);
      expect(d['script-src-attr']).toEqual(["'none'"]);
      expect(d['default-src']).toEqual(["'self'"]);
      expect(d['object-src']).toEqual(["'none'"]);
      expect(d['base-uri']).toEqual(["'self'"]);
      expect(d['frame-ancestors']).toEqual(["'none'"]);
      expect(d['form-action']).toEqual(["'self'"]);
      expect(Object.values(d).flat()).not.toContain("'unsafe-eval'");
      // Frames are WalletConnect's Verify and secure frames only.
      expect(d['frame-src'].every((s) => /^https:\/\/(verify|secure)\.walletconnect\.(com|org)$/.test(s))).toBe(true);
    }
  });

  it("shows Shopify's photos (and the emulator's in local mode), and never names the shop's own RPC", () => {
    const local = policyDirectives(loadConfig({ PUBLIC_URL: 'http://localhost:4000' }));
    expect(local['img-src']).toEqual(
      expect.arrayContaining(["'self'", 'data:', 'blob:', 'https://cdn.shopify.com', 'http://localhost:4000']),
    );
    // The service worker fetches the photos it caches.
    expect(local['connect-src']).toEqual(expect.arrayContaining(['https://cdn.shopify.com', 'http://localhost:4000']));

    const production = policyDirectives(loadConfig({ ...live, NODE_ENV: 'production' }));
    expect(production['img-src']).toContain('https://cdn.shopify.com');
    expect(production['img-src']).not.toContain('https://shop.pogs.example');
    // The browser reads the chain only through WalletConnect's rpcMap, the public RPC; the
    // shop's own BASE_RPC_URL (often with a key in it) is the server's alone.
    expect(production['connect-src']).toContain('https://mainnet.base.org');
    expect(
      Object.values(production)
        .flat()
        .some((s) => s.includes('provider.example')),
    ).toBe(false);
    expect(production['connect-src']).toEqual(expect.arrayContaining(['wss://relay.walletconnect.org', 'wss://relay.walletconnect.com']));

    // A store reached at another origin (a rehearsal's emulator) shows its photos from there.
    const rehearsal = policyDirectives(
      loadConfig({ ...live, NODE_ENV: 'production', PUBLIC_URL: 'http://localhost:4100', SHOPIFY_API_ORIGIN: 'https://127.0.0.1:8443' }),
    );
    expect(rehearsal['img-src']).toContain('https://127.0.0.1:8443');
  });

  it('upgrades stray http requests only in production over https', () => {
    expect(policyDirectives(loadConfig({ ...live, NODE_ENV: 'production' }))['upgrade-insecure-requests']).toEqual([]);
    expect(policyDirectives(loadConfig({ ...live, NODE_ENV: 'production', PUBLIC_URL: 'http://localhost:4100' }))).not.toHaveProperty(
      'upgrade-insecure-requests',
    );
    expect(policyDirectives(loadConfig({}))).not.toHaveProperty('upgrade-insecure-requests');
  });

  it('allows an inline script by the SHA-256 of its exact text, as browsers compute it', () => {
    const text = '\nconsole.log("hi");\n';
    expect(inlineScriptSource(text)).toBe(`'sha256-${createHash('sha256').update(text).digest('base64')}'`);
    expect(inlineScriptSource(text)).not.toBe(inlineScriptSource(text.trim()));
  });
});

describe('the Permissions-Policy', () => {
  it('turns off the devices and payment features the shop never uses, and keeps the clipboard for the copy buttons', () => {
    for (const feature of ['camera', 'microphone', 'geolocation', 'payment', 'usb']) expect(PERMISSIONS_POLICY).toContain(`${feature}=()`);
    expect(PERMISSIONS_POLICY).toContain('clipboard-write=(self)');
  });
});
