/**
 * Where each page of this tab's history was scrolled to, kept in sessionStorage across reloads.
 * A page is known by its history entry's key; a page loaded afresh (key 'default') by its path,
 * so one page's position is not applied to another.
 */
export class ScrollPositions {
  private readonly positions: Map<string, number>;

  constructor(
    saved: string | null,
    /** The most entries kept (the newest). */
    private readonly limit = 50,
  ) {
    this.positions = new Map(parse(saved));
  }

  static keyOf(location: { key: string; pathname: string }): string {
    return location.key === 'default' ? location.pathname : location.key;
  }

  get(key: string): number | undefined {
    return this.positions.get(key);
  }

  set(key: string, y: number): void {
    // Re-inserted, so the map's order is the order of use and the oldest go first.
    this.positions.delete(key);
    this.positions.set(key, Math.max(0, Math.round(y)));
    while (this.positions.size > this.limit) this.positions.delete(this.positions.keys().next().value!);
  }

  serialize(): string {
    return JSON.stringify([...this.positions]);
  }
}

function parse(saved: string | null): Array<[string, number]> {
  if (!saved) return [];
  try {
    const value: unknown = JSON.parse(saved);
    if (!Array.isArray(value)) return [];
    return value.filter(
      (entry): entry is [string, number] =>
        Array.isArray(entry) && typeof entry[0] === 'string' && typeof entry[1] === 'number' && Number.isFinite(entry[1]),
    );
  } catch {
    return [];
  }
}
