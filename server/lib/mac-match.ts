/**
 * Whether a presented MAC is exactly the expected one, compared in constant time as text.
 *
 * Compared as text, not as decoded bytes: base64url's last character carries spare bits, so several
 * strings decode to the same bytes. A signed value has one spelling; any other spelling of it is a
 * value this server never issued, and is refused.
 */
import { timingSafeEqual } from 'node:crypto';

export function macMatches(given: string, expected: string): boolean {
  const a = Buffer.from(given, 'utf8');
  const b = Buffer.from(expected, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}
