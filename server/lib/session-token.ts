/**
 * A session cookie's token, the shopper's and the admin's alike, is stored only as its SHA-256:
 * the hash is the session's id in the database, so a copy of the table opens no session.
 */
import { createHash } from 'node:crypto';

/** The database id of the session a cookie token names. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
