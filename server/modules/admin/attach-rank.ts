/**
 * How the payments desk ranks the checkouts an unmatched transfer may be for (attach.ts), pure:
 * by evidence a stranger cannot fake, and one place per source, so that nobody fills the list by
 * opening checkouts.
 */
import type { CandidateReason } from '../../../common/payments-desk';
import type { AttachCheckoutRow } from '../payments';

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

const abs = (v: bigint) => (v < 0n ? -v : v);
const has = (c: Ranked, reason: CandidateReason) => (c.reasons.includes(reason) ? 1 : 0);

/** Best first: a proven sender, then the first report of the hash, then the closest amount, then the newest. */
export function byEvidence(a: Ranked, b: Ranked): number {
  const distance = abs(a.difference) - abs(b.difference);
  return (
    has(b, 'same-sender') - has(a, 'same-sender') ||
    has(b, 'reported-hash') - has(a, 'reported-hash') ||
    (distance < 0n ? -1 : distance > 0n ? 1 : 0) ||
    b.createdAt.getTime() - a.createdAt.getTime() ||
    (a.row.id < b.row.id ? -1 : a.row.id > b.row.id ? 1 : 0)
  );
}

/**
 * The ranked candidates with one per source: a checkout shares a source with another when they
 * came from the same IP (or IPv6 /64) or the same browser session, and sources that share a
 * checkout are one. Given `ranked` best first, each source is listed once, at its best checkout,
 * with how many more it has.
 */
export function onePerSource(ranked: readonly Ranked[]): Array<Ranked & { sameSource: number }> {
  const parent = new Map<string, string>();
  const find = (k: string): string => {
    if (!parent.has(k)) parent.set(k, k);
    let root = k;
    while (parent.get(root) !== root) root = parent.get(root)!;
    parent.set(k, root);
    return root;
  };
  const keysOf = (r: AttachCheckoutRow) => [
    `checkout:${r.id}`,
    ...(r.source_key ? [`ip:${r.source_key}`] : []),
    ...(r.session_id ? [`session:${r.session_id}`] : []),
  ];
  for (const c of ranked) {
    const [first, ...rest] = keysOf(c.row).map(find);
    for (const k of rest) parent.set(k, first!);
  }
  const listed = new Map<string, Ranked & { sameSource: number }>();
  for (const c of ranked) {
    const root = find(`checkout:${c.row.id}`);
    const shown = listed.get(root);
    if (shown) shown.sameSource += 1;
    else listed.set(root, { ...c, sameSource: 0 });
  }
  return [...listed.values()];
}
