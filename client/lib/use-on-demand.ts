import { useEffect, useEffectEvent, useState } from 'react';

const arrived = new WeakMap<() => Promise<unknown>, unknown>();

/**
 * Loads `load`'s module ahead of need (on intent), so useOnDemand renders it at once when wanted.
 * Resolves once it has arrived, or failed (useOnDemand tries again, and reports, when it is wanted).
 */
export function preloadOnDemand(load: () => Promise<unknown>): Promise<void> {
  return load().then(
    (module) => void arrived.set(load, module),
    () => undefined,
  );
}

/**
 * A module loaded with `import()` the first time `wanted` is true, for UI the first screen does
 * not need (a drawer, the toast area, a section below the fold): null until it has arrived, then
 * the module, kept from then on. When it has already arrived (preloadOnDemand, an earlier mount
 * with the same `load`) it is there in the very render that wants it, so it mounts in the same
 * order as eager UI would. A failed load (offline, an old page after a release) is logged and
 * `onError` called; the next time `wanted` turns true it is tried again.
 */
export function useOnDemand<T>(wanted: boolean, load: () => Promise<T>, onError?: () => void): T | null {
  const [loaded, setLoaded] = useState<T | null>(null);
  const failed = useEffectEvent(() => onError?.());
  const current = loaded ?? (wanted ? ((arrived.get(load) as T | undefined) ?? null) : null);
  useEffect(() => {
    if (!wanted || current) return;
    let live = true;
    load().then(
      (module) => {
        arrived.set(load, module);
        if (live) setLoaded(module);
      },
      (error: unknown) => {
        console.warn('Could not load part of the shop', error);
        if (live) failed();
      },
    );
    return () => {
      live = false;
    };
  }, [wanted, current, load]);
  return current;
}
