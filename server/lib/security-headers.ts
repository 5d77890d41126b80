/**
 * The security headers of every answer (helmet's, worked out once at start): the Content-Security-Policy
 * the shop's pages run under, no framing, no MIME sniffing, a referrer that stops at our origin,
 * HSTS in production over https, a Permissions-Policy turning off what the shop never uses, and
 * the cross-origin isolation headers. Why each source of the policy is there: docs/security.md; the
 * e2e suite fails on any violation (e2e/fixtures/test.ts).
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Middleware } from 'koa';
import helmet from 'helmet';
import type { Config } from '../config';
import { BASE_PUBLIC_RPC_URL } from '../config';
import { boundedMemo } from './bounded-memo';

/** Shopify's image CDN: product photos of a real store. */
const SHOPIFY_CDN = 'https://cdn.shopify.com';

/**
 * WalletConnect's sources as Reown documents them for its libraries (its relay, RPC, Verify and
 * modal APIs, and Coinbase's WalletLink socket), loaded only when a shopper picks WalletConnect.
 */
const WALLETCONNECT = {
  connect: [
    'https://rpc.walletconnect.com',
    'https://rpc.walletconnect.org',
    'https://relay.walletconnect.com',
    'https://relay.walletconnect.org',
    'wss://relay.walletconnect.com',
    'wss://relay.walletconnect.org',
    'https://pulse.walletconnect.com',
    'https://pulse.walletconnect.org',
    'https://api.web3modal.com',
    'https://api.web3modal.org',
    'https://keys.walletconnect.com',
    'https://keys.walletconnect.org',
    'https://notify.walletconnect.com',
    'https://notify.walletconnect.org',
    'https://echo.walletconnect.com',
    'https://echo.walletconnect.org',
    'https://push.walletconnect.com',
    'https://push.walletconnect.org',
    'wss://www.walletlink.org',
  ],
  frame: [
    'https://verify.walletconnect.com',
    'https://verify.walletconnect.org',
    'https://secure.walletconnect.com',
    'https://secure.walletconnect.org',
  ],
  img: ['https://walletconnect.org', 'https://walletconnect.com', 'https://secure.walletconnect.com', 'https://secure.walletconnect.org'],
  /** The modal's typeface (its bundle names it; not in Reown's list). */
  font: ['https://fonts.reown.com'],
};

/** Whether the shop is served over https in production: HSTS and upgrading stray http requests then. */
function servedOverHttps(config: Config): boolean {
  return config.env === 'production' && new URL(config.publicUrl).protocol === 'https:';
}

/**
 * Where product photos come from besides Shopify's CDN: in local mode the emulator's, under
 * /shopify-emulator at PUBLIC_URL (the shop's own origin, unless the browser uses another name for
 * it); with SHOPIFY_API_ORIGIN, the origin the store is reached at (a rehearsal's emulator).
 */
function photoOrigins(config: Config): string[] {
  if (config.mode === 'local') return [new URL(config.publicUrl).origin];
  return config.shopify.apiOriginConfigured ? [config.shopify.apiOrigin] : [];
}

/**
 * The policy's directives, without the hashes of a page's own inline script (added per answer:
 * `allowInlineScripts`). No `'unsafe-inline'` and no `'unsafe-eval'` for scripts.
 */
export function policyDirectives(config: Config): Record<string, string[]> {
  const photos = [SHOPIFY_CDN, ...photoOrigins(config)];
  return {
    'default-src': ["'self'"],
    'base-uri': ["'self'"],
    'object-src': ["'none'"],
    'script-src': ["'self'"],
    'script-src-attr': ["'none'"],
    // React's server-rendered style attributes, the emulator's pages and WalletConnect's modal
    // (which adds <style> elements) need inline styles; styles run no code.
    'style-src': ["'self'", "'unsafe-inline'"],
    // data: the wallets' EIP-6963 icons; blob: WalletConnect's wallet pictures.
    'img-src': ["'self'", 'data:', 'blob:', ...photos, ...WALLETCONNECT.img],
    'font-src': ["'self'", ...WALLETCONNECT.font],
    // The service worker fetches the photos it caches; WalletConnect reads the chain through the
    // public RPC /api/config names (its rpcMap); the Demo Wallet is /api, the same origin.
    'connect-src': ["'self'", ...photos, BASE_PUBLIC_RPC_URL, ...WALLETCONNECT.connect],
    'frame-src': WALLETCONNECT.frame,
    // The service worker; blob: the worker canvas-confetti draws in, made by the shop's own code.
    'worker-src': ["'self'", 'blob:'],
    'manifest-src': ["'self'"],
    // The emulator's invoice form posts to itself; the shop has no form of its own.
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
    ...(servedOverHttps(config) ? { 'upgrade-insecure-requests': [] } : {}),
  };
}

/**
 * Features the shop never uses, off for it and every frame in it (only names Chromium knows: it
 * logs an error for any other); the copy buttons write to the clipboard.
 */
export const PERMISSIONS_POLICY = [
  'accelerometer=()',
  'autoplay=()',
  'camera=()',
  'display-capture=()',
  'encrypted-media=()',
  'geolocation=()',
  'gyroscope=()',
  'hid=()',
  'idle-detection=()',
  'magnetometer=()',
  'microphone=()',
  'midi=()',
  'payment=()',
  'publickey-credentials-get=()',
  'screen-wake-lock=()',
  'serial=()',
  'usb=()',
  'xr-spatial-tracking=()',
  'clipboard-write=(self)',
].join(', ');

/**
 * What other origins may load: the icons a wallet shows beside the shop's name (WalletConnect's
 * metadata), and the local demo's product photos (its emulator's CDN), whose URLs name PUBLIC_URL's
 * address (localhost by default) while the page may have been opened at another (127.0.0.1).
 */
const SHARED_ASSETS = /^\/(icons\/|favicon\.svg$|shopify-emulator\/cdn\/images\/)/;

/** The CSP source of an inline script: the SHA-256 of its text, exactly as between its tags. */
export function inlineScriptSource(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

const inlineScripts = new WeakMap<ServerResponse, readonly string[]>();

/** Lets this answer's page run its own inline scripts (their `inlineScriptSource`s), and no other. */
export function allowInlineScripts(ctx: { res: ServerResponse }, sources: readonly string[]): void {
  inlineScripts.set(ctx.res, sources);
}

type NodeMiddleware = (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) => void;

/**
 * The headers a helmet middleware sets, worked out once: with a configuration that names no
 * function, they are the same on every answer. It is run on a stand-in response that records them.
 */
function headersSetBy(middleware: NodeMiddleware): Array<[string, string]> {
  const set: Array<[string, string]> = [];
  const res = { setHeader: (name: string, value: string) => void set.push([name, String(value)]), removeHeader: () => undefined };
  middleware({} as IncomingMessage, res as unknown as ServerResponse, () => undefined);
  return set;
}

/** Most distinct inline-script sets whose policy is kept (each page kind has one per build). */
const PAGE_POLICIES_KEPT = 64;

/** Every answer's security headers, worked out once (a page's policy once per set of inline scripts). */
export interface SecurityHeaderSet {
  /** Set before the answer is made: the same on every answer but Cross-Origin-Resource-Policy. */
  before(path: string): ReadonlyArray<readonly [string, string]>;
  /** Set once the answer is known: the policy, with a page's inline scripts allowed by their hashes. */
  policy(scripts: readonly string[] | undefined): ReadonlyArray<readonly [string, string]>;
}

export function securityHeaderSet(config: Config): SecurityHeaderSet {
  const directives = policyDirectives(config);
  const fixed = headersSetBy(
    helmet({
      contentSecurityPolicy: false,
      crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
      // Set below, per path.
      crossOriginResourcePolicy: false,
      referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
      strictTransportSecurity: servedOverHttps(config) ? { maxAge: 365 * 24 * 60 * 60, includeSubDomains: true } : false,
      xFrameOptions: { action: 'deny' },
    }),
  );
  fixed.push(['Permissions-Policy', PERMISSIONS_POLICY]);
  const shared = [...fixed, ['Cross-Origin-Resource-Policy', 'cross-origin'] as const];
  const ownOrigin = [...fixed, ['Cross-Origin-Resource-Policy', 'same-origin'] as const];
  const policyWith = (scripts: readonly string[]) =>
    headersSetBy(
      helmet.contentSecurityPolicy({
        useDefaults: false,
        directives: { ...directives, 'script-src': [...directives['script-src']!, ...scripts] },
      }),
    );
  const plainPolicy = policyWith([]);
  // A page's policy adds its inline scripts' hashes; the pages of a build have few such sets.
  const pagePolicies = boundedMemo<Array<[string, string]>>(PAGE_POLICIES_KEPT);
  return {
    before: (path) => (SHARED_ASSETS.test(path) ? shared : ownOrigin),
    policy: (scripts) => (scripts?.length ? pagePolicies(scripts.join(' '), () => policyWith(scripts)) : plainPolicy),
  };
}

export function securityHeaders(headers: SecurityHeaderSet): Middleware {
  return async (ctx, next) => {
    for (const [name, value] of headers.before(ctx.path)) ctx.set(name, value);
    try {
      await next();
    } finally {
      // Once the answer is known: a page's inline scripts are allowed by their hashes.
      for (const [name, value] of headers.policy(inlineScripts.get(ctx.res))) ctx.set(name, value);
    }
  };
}
