/**
 * A checkout's sponsorship ticket: what the shopper's browser hands its wallet (in ERC-7677's
 * paymaster context) so the paymaster service knows which checkout an operation pays. The wallet
 * calls the service without the shop's cookies, so the ticket is what proves that the session
 * that made the checkout asked: only that session is given it (GET /api/checkout/:id/paymaster),
 * and nobody can make one without the key (an HMAC of the checkout's id). The key is derived from
 * the server's own secret for this use only (server/lib/server-secret.ts), whoever the sponsor is.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** Checkout `checkoutId`'s ticket. */
export function ticketFor(key: Buffer, checkoutId: string): string {
  return `${checkoutId}.${createHmac('sha256', key).update(checkoutId).digest('base64url')}`;
}

/** The checkout a ticket names, or null when it is not one of ours. */
export function checkoutOfTicket(key: Buffer, ticket: unknown): string | null {
  if (typeof ticket !== 'string' || ticket.length > 200) return null;
  const dot = ticket.indexOf('.');
  if (dot < 1) return null;
  const checkoutId = ticket.slice(0, dot);
  const given = Buffer.from(ticket.slice(dot + 1));
  const expected = Buffer.from(ticketFor(key, checkoutId).slice(dot + 1));
  return given.length === expected.length && timingSafeEqual(given, expected) ? checkoutId : null;
}
