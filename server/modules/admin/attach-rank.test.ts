import { describe, expect, it } from 'vitest';
import type { CandidateReason } from '../../../common/payments-desk';
import { placeCandidates, type Ranked } from './attach-rank';

const POG = 10n ** 18n;
/** When the transfer happened, as the shop bounds it. */
const t0 = Date.parse('2026-11-01T12:00:00Z');
const at = new Date(t0);

function candidate(
  id: string,
  opts: { reasons?: CandidateReason[]; difference?: bigint; minutesBefore?: number; ip?: string | null; session?: string | null } = {},
): Ranked {
  return {
    row: {
      id,
      status: 'open',
      total_wei: (10n * POG).toString(),
      received_wei: '0',
      created_at: new Date(t0),
      session_id: opts.session === undefined ? `session-${id}` : opts.session,
      source_key: opts.ip === undefined ? `ip-${id}` : opts.ip,
      wallet_address: null,
    },
    total: 10n * POG,
    due: 10n * POG,
    createdAt: new Date(t0 - (opts.minutesBefore ?? 0) * 60_000),
    reasons: opts.reasons ?? ['close-amount'],
    difference: opts.difference ?? 0n,
    hashReportedAt: null,
  };
}
const ids = (list: Array<{ row: { id: string } }>) => list.map((c) => c.row.id);

describe('placing attach candidates by evidence', () => {
  it('puts a proven sender first, then the first report of the hash, then the closest amount, then the closest in time', () => {
    const list = [
      candidate('newest-far', { difference: 5n * POG, reasons: ['same-time'] }),
      candidate('exact-old', { minutesBefore: 50 }),
      candidate('exact-new', { minutesBefore: 5 }),
      candidate('short-half', { difference: -POG / 2n, minutesBefore: 1 }),
      candidate('reported', { reasons: ['reported-hash'], difference: 7n * POG, minutesBefore: 300 }),
      candidate('proven', { reasons: ['same-sender'], difference: 9n * POG, minutesBefore: 900 }),
      candidate('proven-reported', { reasons: ['same-sender', 'reported-hash'], difference: 9n * POG, minutesBefore: 900 }),
    ];
    expect(ids(placeCandidates(list, at))).toEqual([
      'proven-reported',
      'proven',
      'reported',
      'exact-new',
      'exact-old',
      'short-half',
      'newest-far',
    ]);
  });

  it('ranks every checkout opened after the transfer happened below every one opened before, however well its amount fits', () => {
    const victim = candidate('victim', { difference: -POG / 2n, minutesBefore: 30 });
    // Strangers watching the chain open checkouts at exactly the amount, seconds after it happened.
    const strangers = Array.from({ length: 20 }, (_, i) =>
      candidate(`after-${String(i).padStart(2, '0')}`, { minutesBefore: -(i + 1) / 10 }),
    );
    const placed = placeCandidates([...strangers, victim], at);
    expect(placed[0]!.row.id).toBe('victim');
    expect(placed[0]!.openedAfterTransfer).toBe(false);
    expect(placed.slice(1).every((p) => p.openedAfterTransfer)).toBe(true);
    // Among those after, the closest to the transfer first.
    expect(placed[1]!.row.id).toBe('after-00');
    // A checkout opened at the very moment counts as before.
    expect(placeCandidates([candidate('same-ms')], at)[0]!.openedAfterTransfer).toBe(false);
  });

  it("lists each source's best before any source's second, and keeps every checkout: an IP, a session, or both chained", () => {
    const list = [
      candidate('victim', { difference: -POG, minutesBefore: 10 }),
      candidate('s1', { ip: 'stranger-ip', minutesBefore: 1 }),
      candidate('s2', { ip: 'stranger-ip', minutesBefore: 2 }),
      // Another address, but a session the stranger used at its address: the same source.
      candidate('s3', { ip: 'elsewhere', session: 'session-s2', minutesBefore: 3 }),
      // And that other address's other checkout: chained to the stranger through s3.
      candidate('s4', { ip: 'elsewhere', minutesBefore: 4 }),
      // Checkouts from before sources were recorded: each its own, or by its session.
      candidate('old-a', { ip: null, minutesBefore: 5 }),
      candidate('old-b', { ip: null, session: null, minutesBefore: 6 }),
      candidate('old-c', { ip: null, session: 'session-old-a', minutesBefore: 7 }),
    ];
    const placed = placeCandidates(list, at);
    expect(placed.map((c) => [c.row.id, c.key.round, c.sameSource])).toEqual([
      // Round 0: each source's best (the exact amounts, closest in time, then the victim's).
      ['s1', 0, 3],
      ['old-a', 0, 1],
      ['old-b', 0, 0],
      ['victim', 0, 0],
      // Then each source's second, third...
      ['s2', 1, 3],
      ['old-c', 1, 1],
      ['s3', 2, 3],
      ['s4', 3, 3],
    ]);
  });
});
