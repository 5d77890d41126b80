import { describe, expect, it } from 'vitest';
import { isTransferStatus, refundableWei, TRANSFER_STATUSES } from './transfer-status';

const POG = 10n ** 18n;

describe('refundableWei', () => {
  it('is what the transfer carried, before any refund, whatever it did', () => {
    for (const status of TRANSFER_STATUSES.filter((s) => s !== 'removed')) {
      expect(refundableWei({ status, valueWei: 12n * POG + 5n }, 0n), status).toBe(12n * POG + 5n);
    }
  });

  it('is what is left after refunds, to the wei', () => {
    expect(refundableWei({ status: 'extra-payment', valueWei: 10n * POG }, 7n * POG)).toBe(3n * POG);
    expect(refundableWei({ status: 'refunded', valueWei: 10n * POG }, 10n * POG - 1n)).toBe(1n);
  });

  it('is 0 once everything went back, and never below 0', () => {
    expect(refundableWei({ status: 'matched', valueWei: 10n * POG }, 10n * POG)).toBe(0n);
    expect(refundableWei({ status: 'refunded', valueWei: 10n * POG }, 11n * POG)).toBe(0n);
  });

  it('is 0 for a transfer a reorganisation removed: the store has nothing of it', () => {
    expect(refundableWei({ status: 'removed', valueWei: 10n * POG }, 0n)).toBe(0n);
  });
});

describe('isTransferStatus', () => {
  it('knows the vocabulary and nothing else', () => {
    for (const status of TRANSFER_STATUSES) expect(isTransferStatus(status), status).toBe(true);
    for (const word of ['extra', 'overpaid', 'pending', 'Matched', '']) expect(isTransferStatus(word), word).toBe(false);
  });
});
