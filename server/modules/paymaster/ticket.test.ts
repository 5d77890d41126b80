import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { readTicket, ticketFor, type TicketFacts } from './ticket';

const KEY = randomBytes(32);
const FACTS: TicketFacts = {
  checkoutId: '6f1c2a50-4b8e-4a4e-9c55-0c2b1f9d7e21',
  wallet: '0x5b38da6a701c568545dcfcb03fcb875f56beddc4',
  expiresAt: 1_800_000_000,
};

describe('sponsorship tickets', () => {
  it('names its checkout, its wallet and its expiry, under the key that made it only', () => {
    expect(readTicket(KEY, ticketFor(KEY, FACTS))).toEqual(FACTS);
    // A checksummed wallet is named in lower case.
    expect(readTicket(KEY, ticketFor(KEY, { ...FACTS, wallet: '0x5B38Da6a701c568545dCfcB03FcB875f56beddC4' }))).toEqual(FACTS);
    expect(readTicket(randomBytes(32), ticketFor(KEY, FACTS))).toBeNull();
  });

  it('refuses a ticket with another checkout, wallet or expiry put in, a changed mac, and what is not a ticket', () => {
    const ticket = ticketFor(KEY, FACTS);
    const [id, wallet, expiry, mac] = ticket.split('.') as [string, string, string, string];
    const other = '0xab8483f64d9c6d1ecf9b849ae677dd3315835cb2';
    for (const changed of [
      `${id.replace('6f', '7f')}.${wallet}.${expiry}.${mac}`,
      `${id}.${other}.${expiry}.${mac}`,
      `${id}.${wallet}.${Number(expiry) + 3600}.${mac}`,
      `${id}.${wallet}.${expiry}.${mac.slice(0, -1)}${mac.endsWith('A') ? 'B' : 'A'}`,
      // Made under another key (a forger's guess) for the same facts.
      ticketFor(Buffer.alloc(32), FACTS),
    ]) {
      expect(readTicket(KEY, changed), changed).toBeNull();
    }
    for (const bad of [undefined, 42, '', id, `${id}.${mac}`, `${id}.${wallet}.${expiry}`, `${ticket}.x`, 'x'.repeat(500)]) {
      expect(readTicket(KEY, bad)).toBeNull();
    }
  });
});
