/**
 * A remembered answer per key, for work the same few keys ask for again and again (a header value,
 * a set of script hashes). At most `max` are kept: past that, all are forgotten and worked out
 * again, so keys a client makes up cannot grow it without bound.
 */
export function boundedMemo<V>(max: number): (key: string, make: () => V) => V {
  const kept = new Map<string, V>();
  return (key, make) => {
    if (kept.has(key)) return kept.get(key)!;
    if (kept.size >= max) kept.clear();
    const value = make();
    kept.set(key, value);
    return value;
  };
}
