/**
 * The operator's way in for the admin while strangers keep every new browser paused (the brake in
 * login-lock.ts): a one-time sign-in link, made on the server by `npm run admin:link` (in the image
 * `node dist-server/admin-link.js`), that makes the browser opening it one that logged in before.
 * The password is still needed; the browser's logins are then counted on their own, past the brake
 * and any lock of its address. Pure (no I/O): the command and the service (known-browsers.ts) share it.
 *
 * A link is `<nonce>.<expires, seconds>.<HMAC-SHA256 of both>`, keyed from the admin password's hash
 * line: the command needs only the server's settings (not its database, which a running local shop
 * holds), and a new admin password voids every link not yet used. Only the server's settings make
 * one; whoever has them can read the hash already. The service records each nonce it accepts, so a
 * link works once.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { ADMIN_SIGN_IN_FRAGMENT } from '../../../common/admin';
import { macMatches } from '../../lib/mac-match';

/** How long a link can be used after it is made. */
export const SIGN_IN_LINK_TTL_MS = 15 * 60_000;
/** A link whose end is further away than its whole time plus this (clocks of two machines) was not made here. */
const CLOCK_SKEW_MS = 5 * 60_000;
const LINK = /^([A-Za-z0-9_-]{22})\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/;

function mac(passwordHash: string, nonce: string, expiresSeconds: number): Buffer {
  const key = createHmac('sha256', passwordHash).update('admin-sign-in-link').digest();
  return createHmac('sha256', key).update(`${nonce}.${expiresSeconds}`).digest();
}

/** A new link's value, usable until SIGN_IN_LINK_TTL_MS after `at`. */
export function makeSignInLink(passwordHash: string, at: Date): string {
  const nonce = randomBytes(16).toString('base64url');
  const expires = Math.floor((at.getTime() + SIGN_IN_LINK_TTL_MS) / 1000);
  return `${nonce}.${expires}.${mac(passwordHash, nonce, expires).toString('base64url')}`;
}

/** The address the operator hands the admin: the shop's /admin with the link in its fragment. */
export function signInUrl(publicUrl: string, link: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/admin#${ADMIN_SIGN_IN_FRAGMENT}=${link}`;
}

/** What a link presented at `now` is: usable (its nonce and end), or why not. */
export type LinkReading = { ok: true; nonce: string; expiresAt: Date } | { ok: false; why: 'not-a-link' | 'expired' };

export function readSignInLink(passwordHash: string, value: string, now: Date): LinkReading {
  const m = LINK.exec(value);
  if (!m) return { ok: false, why: 'not-a-link' };
  const [, nonce, expiresText, given] = m as unknown as [string, string, string, string];
  const expires = Number(expiresText);
  if (!macMatches(given, mac(passwordHash, nonce, expires).toString('base64url'))) return { ok: false, why: 'not-a-link' };
  const expiresAt = new Date(expires * 1000);
  if (expiresAt.getTime() - now.getTime() > SIGN_IN_LINK_TTL_MS + CLOCK_SKEW_MS) return { ok: false, why: 'not-a-link' };
  return expiresAt > now ? { ok: true, nonce, expiresAt } : { ok: false, why: 'expired' };
}
