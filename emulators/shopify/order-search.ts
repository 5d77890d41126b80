import type { EmulatorDraftOrder } from './order-state';

// `draftOrders(query:)`, as far as the shop uses it: `tag:<value>` terms, all of which must match
// (Shopify compares tags case-insensitively; a trailing `*` matches a prefix). The hand-off looks
// up the draft it may already have created by its order tag before it retries draftOrderCreate.
// Other terms are ignored, as Shopify ignores fields it does not know (it only adds a search
// warning); this emulator knows no others.

function tagMatches(tag: string, wanted: string): boolean {
  const a = tag.toLowerCase();
  const w = wanted.replace(/^(['"])(.*)\1$/, '$2').toLowerCase();
  return w.endsWith('*') ? a.startsWith(w.slice(0, -1)) : a === w;
}

export function filterDraftOrders(drafts: readonly EmulatorDraftOrder[], query: string | null | undefined): EmulatorDraftOrder[] {
  const tags = (query ?? '')
    .split(/\s+/)
    .map((term) => /^tag:(.+)$/i.exec(term)?.[1])
    .filter((t): t is string => Boolean(t));
  return drafts.filter((d) => tags.every((wanted) => d.tags.some((tag) => tagMatches(tag, wanted))));
}
