/**
 * The cards' fade-in stagger (0.03 s times the card index). Pure.
 *
 * Cards fade in as they are revealed: those on screen when the grid first shows, together, then
 * the rest as they are scrolled into view. The first screenful follows that rule exactly, 0.03 s ×
 * its index, however many cards it holds. A card revealed later counts its index from the first
 * card revealed with it: its place in the whole grid would make it wait, already on screen, for
 * the time since the page loaded (card 40, 1.2 s), which is the one place the stagger is capped.
 */
const CARD_STAGGER_SECONDS = 0.03;

/**
 * Animation delay, in seconds, for each card index revealed in one go. `firstScreen`: these are
 * the cards on screen when the grid first shows.
 */
export function cardRevealDelays(indices: readonly number[], firstScreen: boolean): Map<number, number> {
  const sorted = [...new Set(indices)].sort((a, b) => a - b);
  const base = firstScreen || sorted.length === 0 ? 0 : sorted[0]!;
  return new Map(sorted.map((index) => [index, round((index - base) * CARD_STAGGER_SECONDS)]));
}

/** Whole milliseconds, so 0.03 × 7 reads 0.21 s and not 0.21000000000000002 s. */
function round(seconds: number): number {
  return Math.round(seconds * 1000) / 1000;
}
