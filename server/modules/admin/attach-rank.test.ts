import { describe, expect, it } from 'vitest';
import type { CandidateReason } from '../../../common/payments-desk';
import { byEvidence, onePerSource, type Ranked } from './attach-rank';

const POG = 10n ** 18n;
const t0 = Date.parse('2026-11-01T12:00:00Z');

function candidate(
  id: string,
  opts: { reasons?: CandidateReason[]; difference?: bigint; minutesBefore?: number; ip?: string | null; session?: string | null } = {},
): Ranked {
  return {
    row: {
      id,
      status: 'open',
      total_wei: (10n * POG).toString(),
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

describe('ranking attach candidates by evidence', () => {
  it('puts a proven sender first, then the first report of the hash, then the closest amount, then the newest', () => {
    const list = [
      candidate('newest-far', { difference: 5n * POG, reasons: ['same-time'] }),
      candidate('exact-old', { minutesBefore: 50 }),
      candidate('exact-new', { minutesBefore: 5 }),
      candidate('short-half', { difference: -POG / 2n, minutesBefore: 1 }),
      candidate('reported', { reasons: ['reported-hash'], difference: 7n * POG, minutesBefore: 300 }),
      candidate('proven', { reasons: ['same-sender'], difference: 9n * POG, minutesBefore: 900 }),
      candidate('proven-reported', { reasons: ['same-sender', 'reported-hash'], difference: 9n * POG, minutesBefore: 900 }),
    ];
    expect(ids([...list].sort(byEvidence))).toEqual([
      'proven-reported',
      'proven',
      'reported',
      'exact-new',
      'exact-old',
      'short-half',
      'newest-far',
    ]);
  });

  it('lists each source once, at its best checkout, counting the rest: an IP, a session, or both chained', () => {
    const ranked = [
      candidate('victim'),
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
    ].sort(byEvidence);
    const listed = onePerSource(ranked);
    expect(listed.map((c) => [c.row.id, c.sameSource])).toEqual([
      ['victim', 0],
      ['s1', 3],
      ['old-a', 1],
      ['old-b', 0],
    ]);
  });
});
