import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { checkoutOfTicket, ticketFor } from './ticket';

const KEY = randomBytes(32);
const ID = '6f1c2a50-4b8e-4a4e-9c55-0c2b1f9d7e21';

describe('sponsorship tickets', () => {
  it('names its checkout, under the key that made it only', () => {
    expect(checkoutOfTicket(KEY, ticketFor(KEY, ID))).toBe(ID);
    expect(checkoutOfTicket(randomBytes(32), ticketFor(KEY, ID))).toBeNull();
  });

  it('refuses another checkout’s id under a ticket, a changed mac, and what is not a ticket', () => {
    const [, mac] = ticketFor(KEY, ID).split('.');
    expect(checkoutOfTicket(KEY, `${ID.replace('6f', '7f')}.${mac}`)).toBeNull();
    expect(checkoutOfTicket(KEY, `${ID}.${mac!.slice(0, -1)}${mac!.endsWith('A') ? 'B' : 'A'}`)).toBeNull();
    // A ticket made under another key (a forger's guess) for the same checkout.
    expect(checkoutOfTicket(KEY, ticketFor(Buffer.alloc(32), ID))).toBeNull();
    for (const bad of [undefined, 42, '', ID, `.${mac}`, `${ID}.`, 'x'.repeat(500)]) expect(checkoutOfTicket(KEY, bad)).toBeNull();
  });
});
