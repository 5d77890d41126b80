import { describe, expect, it } from 'vitest';
import type { AttachCandidate } from '../../../../common/payments-desk';
import { candidateEvidence, candidateReasonLabel } from './candidate-text';

const base: AttachCandidate = {
  checkoutId: 'c1',
  status: 'open',
  total: '77.00',
  due: '77.00',
  createdAt: '2026-11-01T12:00:00.000Z',
  provenWallet: null,
  items: [],
  reasons: ['close-amount'],
  hashReportedAt: null,
  difference: '0.00',
  sameSource: 0,
  openedAfterTransfer: false,
};

describe("a candidate's evidence, as the admin reads it", () => {
  it('names the report of the hash as a chip says it', () => {
    expect(candidateReasonLabel('reported-hash')).toBe('Reported this payment');
  });

  it('says whether its browser reported the transaction first, and how the amount fits', () => {
    expect(
      candidateEvidence({ ...base, reasons: ['reported-hash', 'close-amount'], hashReportedAt: base.createdAt, difference: '-0.50' }),
    ).toEqual([
      'Its browser reported this transaction first, before it arrived: only the payer’s browser knows it that early.',
      'The transfer is 0.50 POG less than it still needs.',
    ]);
    expect(candidateEvidence({ ...base, hashReportedAt: base.createdAt, difference: '1.25' })).toEqual([
      'Its browser reported this transaction, but not first or only after it arrived: anyone can copy it from the chain by then.',
      'The transfer is 1.25 POG more than it still needs.',
    ]);
    // Rounded to the cent as the shop shows amounts (the exact one is the API's), thousands grouped.
    expect(candidateEvidence({ ...base, difference: '-1234.500000498873801445' }).at(-1)).toBe(
      'The transfer is 1,234.50 POG less than it still needs.',
    );
  });

  it('says a signed-in sender, an exact fit, an opening after the transfer and the other checkouts of its source', () => {
    expect(candidateEvidence({ ...base, reasons: ['same-sender', 'close-amount'], sameSource: 19 })).toEqual([
      'Its browser signed in with the wallet that sent this transfer.',
      'The transfer is exactly what it still needs.',
      '19 other checkouts from the same network or browser, listed after every source’s best.',
    ]);
    expect(candidateEvidence({ ...base, difference: '0.000000000000000001', sameSource: 1, openedAfterTransfer: true })).toEqual([
      'The transfer is under 0.01 POG more than it still needs.',
      'Opened after this transfer was made: anyone watching the chain could have. Listed below those opened before.',
      '1 other checkout from the same network or browser, listed after every source’s best.',
    ]);
  });
});
