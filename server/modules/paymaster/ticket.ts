/**
 * A checkout's sponsorship ticket: what the shopper's browser hands its wallet (in ERC-7677's
 * paymaster context) so the paymaster service knows which checkout an operation pays, from which
 * wallet, until when. The wallet calls the service without the shop's cookies, so the ticket is
 * what proves that the session that made the checkout asked: only that session is given it
 * (GET /api/checkout/:id/paymaster), and nobody can make one without the key (an HMAC of the
 * checkout's id, its wallet and the expiry). A ticket that leaks is worth nothing to anyone else:
 * the service sponsors only operations sent by the wallet it names, which only that wallet's owner
 * can sign. The key is derived from the server's own secret for this use only
 * (server/lib/server-secret.ts), whoever the sponsor is.
 */
import { createHmac } from 'node:crypto';
import { macMatches } from '../../lib/mac-match';

/** How long a ticket is good for after the browser was given it (the shopper pressed Pay). */
export const TICKET_TTL_MS = 30 * 60_000;

export interface TicketFacts {
  checkoutId: string;
  /** The checkout's wallet, lower case: the only sender the ticket sponsors. */
  wallet: string;
  /** Unix seconds after which the ticket is refused. */
  expiresAt: number;
}

const mac = (key: Buffer, body: string) => createHmac('sha256', key).update(body).digest('base64url');

/** The ticket for `facts`. */
export function ticketFor(key: Buffer, facts: TicketFacts): string {
  const body = `${facts.checkoutId}.${facts.wallet.toLowerCase()}.${facts.expiresAt}`;
  return `${body}.${mac(key, body)}`;
}

/** What a ticket says, or null when it is not one of ours (its expiry is the caller's to judge). */
export function readTicket(key: Buffer, ticket: unknown): TicketFacts | null {
  if (typeof ticket !== 'string' || ticket.length > 300) return null;
  const parts = ticket.split('.');
  if (parts.length !== 4) return null;
  const [checkoutId, wallet, expiresAt, given] = parts as [string, string, string, string];
  if (!checkoutId || !/^0x[0-9a-f]{40}$/.test(wallet) || !/^\d{1,12}$/.test(expiresAt)) return null;
  if (!macMatches(given, mac(key, `${checkoutId}.${wallet}.${expiresAt}`))) return null;
  return { checkoutId, wallet, expiresAt: Number(expiresAt) };
}
