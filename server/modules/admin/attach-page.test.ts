import { describe, expect, it } from 'vitest';
import { ErrorCode } from '../../../common/errors';
import { decodeCursor, encodeCursor, listKey, pageOf, parseSearch } from './attach-page';
import { placeCandidates, type Ranked } from './attach-rank';

const POG = 10n ** 18n;
const t0 = Date.parse('2026-11-01T12:00:00Z');

const candidate = (n: number): Ranked => ({
  row: {
    id: `c-${String(n).padStart(3, '0')}`,
    status: 'open',
    total_wei: (10n * POG).toString(),
    received_wei: '0',
    created_at: new Date(t0),
    session_id: null,
    source_key: `ip-${n % 7}`,
    wallet_address: null,
  },
  total: 10n * POG,
  due: 10n * POG,
  createdAt: new Date(t0 - (n % 5) * 60_000),
  reasons: ['close-amount'],
  difference: BigInt(n % 3) * POG,
  hashReportedAt: null,
});

const refused = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    return (e as { code: string }).code;
  }
  return 'accepted';
};

describe('searching the attach candidates', () => {
  it('reads an address, an exact amount of POG, or the start of a checkout id', () => {
    expect(parseSearch(undefined)).toBeNull();
    expect(parseSearch('  ')).toBeNull();
    expect(parseSearch('0x70997970C51812dc3A010C7d01b50e0d17dc79C8')).toEqual({
      kind: 'address',
      address: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
    });
    // Exact, as wei: never a float.
    expect(parseSearch('76.5')).toEqual({ kind: 'amount', wei: 765n * 10n ** 17n });
    expect(parseSearch('0.000000000000000001')).toEqual({ kind: 'amount', wei: 1n });
    expect(parseSearch('9007199254740993.000000000000000001')).toEqual({ kind: 'amount', wei: 9007199254740993n * POG + 1n });
    // Digits alone are an amount; a letter or a dash makes it an id.
    expect(parseSearch('1234')).toEqual({ kind: 'amount', wei: 1234n * POG });
    expect(parseSearch('3B241101-e2bb')).toEqual({ kind: 'checkout', prefix: '3b241101-e2bb' });
  });

  it('refuses what is none of them with a code and the forms it may take', () => {
    for (const q of ['0', '0.000', '1.0000000000000000001', '-5', '1e3', 'abc', 'hoodie', '0x1234', `0x${'g'.repeat(40)}`]) {
      expect(
        refused(() => parseSearch(q)),
        q,
      ).toBe(ErrorCode.badRequest);
    }
  });
});

describe('paging the attach candidates', () => {
  const placed = placeCandidates(
    Array.from({ length: 53 }, (_, i) => candidate(i)),
    new Date(t0),
  );
  const list = listKey('12', null);

  it('lists every candidate once, in order, a page at a time', () => {
    const seen: string[] = [];
    let after = null;
    for (let pages = 0; pages < 20; pages++) {
      const { page, nextCursor } = pageOf(placed, after, 10, list);
      seen.push(...page.map((p) => p.row.id));
      if (!nextCursor) break;
      after = decodeCursor(nextCursor, list);
    }
    expect(seen).toEqual(placed.map((p) => p.row.id));
    expect(new Set(seen).size).toBe(53);
  });

  it('continues after the last one listed even when it left the list (paid meanwhile)', () => {
    const first = pageOf(placed, null, 10, list);
    const without = placed.filter((p) => p.row.id !== first.page.at(-1)!.row.id);
    const next = pageOf(without, decodeCursor(first.nextCursor!, list), 10, list);
    expect(next.page.map((p) => p.row.id)).toEqual(placed.slice(10, 20).map((p) => p.row.id));
  });

  it("refuses another transfer's or another search's cursor, and anything not a cursor", () => {
    const cursor = encodeCursor(list, placed[0]!.key);
    expect(decodeCursor(cursor, list)).toEqual(placed[0]!.key);
    expect(refused(() => decodeCursor(cursor, listKey('13', null)))).toBe(ErrorCode.invalidCursor);
    expect(refused(() => decodeCursor(cursor, listKey('12', { kind: 'amount', wei: 1n })))).toBe(ErrorCode.invalidCursor);
    for (const bad of ['', 'abc', Buffer.from('[1,2]').toString('base64url'), '%%%']) {
      expect(
        refused(() => decodeCursor(bad, list)),
        bad,
      ).toBe(ErrorCode.invalidCursor);
    }
  });
});
