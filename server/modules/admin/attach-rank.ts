/**
 * How the payments desk ranks the checkouts an unmatched transfer may be for (attach.ts), pure:
 * by evidence a stranger cannot fake, and each source's best checkout before any source's second,
 * so that nobody pushes the payer's checkout out of sight by opening checkouts. Every candidate
 * keeps a place: the list is complete and read a page at a time (attach-page.ts).
 */
import type { CandidateReason } from '../../../common/payments-desk';
import type { AttachCheckoutRow } from './desk/attach-reads';

/** A candidate being ranked. */
export interface Ranked {
  /** The checkout as payments reads it for the attach sheet. */
  row: AttachCheckoutRow;
  total: bigint;
  due: bigint;
  createdAt: Date;
  reasons: CandidateReason[];
  /** What the transfer carried minus what the checkout still needs. */
  difference: bigint;
  hashReportedAt: Date | null;
}

/**
 * A candidate's place, compared field by field, smaller first: its key in the list, which a page's
 * cursor names (the next page starts after it).
 */
export interface RankKey {
  /** 0: its session proved the transfer's sender. */
  sender: 0 | 1;
  /** 0: its browser reported the hash first, before the shop saw the transfer. */
  reported: 0 | 1;
  /** 0: opened by the time the transfer happened (as far as the shop knows); 1: after. */
  after: 0 | 1;
  /** How many better-placed checkouts its source has (0: the source's best). */
  round: number;
  /** |difference| in wei. */
  distance: bigint;
  /** How far its opening is from the time the transfer happened, in ms. */
  gap: number;
  id: string;
}

export type Placed = Ranked & { key: RankKey; sameSource: number; openedAfterTransfer: boolean };

const abs = (v: bigint) => (v < 0n ? -v : v);
const cmp = <T extends number | bigint | string>(a: T, b: T) => (a < b ? -1 : a > b ? 1 : 0);

/** Compares two places: negative when `a` comes first. */
export function compareKeys(a: RankKey, b: RankKey): number {
  return (
    a.sender - b.sender ||
    a.reported - b.reported ||
    a.after - b.after ||
    a.round - b.round ||
    cmp(a.distance, b.distance) ||
    a.gap - b.gap ||
    cmp(a.id, b.id)
  );
}

/**
 * The source of each checkout: a checkout shares a source with another when they came from the
 * same IP (or IPv6 /64) or the same browser session, and sources that share a checkout are one.
 * Answers a root per checkout id.
 */
function sourcesOf(rows: readonly AttachCheckoutRow[]): (id: string) => string {
  const parent = new Map<string, string>();
  const find = (k: string): string => {
    if (!parent.has(k)) parent.set(k, k);
    let root = k;
    while (parent.get(root) !== root) root = parent.get(root)!;
    parent.set(k, root);
    return root;
  };
  for (const r of rows) {
    const keys = [
      `checkout:${r.id}`,
      ...(r.source_key ? [`ip:${r.source_key}`] : []),
      ...(r.session_id ? [`session:${r.session_id}`] : []),
    ];
    const [first, ...rest] = keys.map(find);
    for (const k of rest) parent.set(k, first!);
  }
  return (id) => find(`checkout:${id}`);
}

/**
 * Every candidate in its place, best first:
 * 1. a proven sender (a session that signed in as the transfer's sender: nobody else can);
 * 2. the first report of the hash, before the shop saw the transfer;
 * 3. opened by the time the transfer happened (`happenedAt`, the shop's best bound for it): a
 *    checkout opened after it, which anyone watching the chain can do, ranks below all of those;
 * 4. each source's best before any source's second (a source's `round`);
 * 5. the closest amount to what the checkout still needs;
 * 6. opened closest to the time the transfer happened; then the checkout id, so the order is total.
 */
export function placeCandidates(ranked: readonly Ranked[], happenedAt: Date): Placed[] {
  const at = happenedAt.getTime();
  const keyOf = (c: Ranked, round: number): RankKey => ({
    sender: c.reasons.includes('same-sender') ? 0 : 1,
    reported: c.reasons.includes('reported-hash') ? 0 : 1,
    after: c.createdAt.getTime() > at ? 1 : 0,
    round,
    distance: abs(c.difference),
    gap: Math.abs(at - c.createdAt.getTime()),
    id: c.row.id,
  });
  // The rounds follow the order without them: a source's best is the first of its checkouts there.
  const first = ranked.map((c) => ({ c, key: keyOf(c, 0) })).sort((a, b) => compareKeys(a.key, b.key));
  const sourceOf = sourcesOf(ranked.map((c) => c.row));
  const seen = new Map<string, number>();
  const placed = first.map(({ c, key }): Placed => {
    const source = sourceOf(c.row.id);
    const round = seen.get(source) ?? 0;
    seen.set(source, round + 1);
    return { ...c, key: { ...key, round }, sameSource: 0, openedAfterTransfer: key.after === 1 };
  });
  for (const p of placed) p.sameSource = seen.get(sourceOf(p.row.id))! - 1;
  return placed.sort((a, b) => compareKeys(a.key, b.key));
}
