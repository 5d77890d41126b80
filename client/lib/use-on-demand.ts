import { useEffect, useEffectEvent, useState } from 'react';

const arrived = new WeakMap<() => Promise<unknown>, unknown>();

/**
 * A module loaded with `import()` the first time `wanted` is true, for UI the first screen does
 * not need (a drawer, the toast area, a section below the fold): null until it has arrived, then
 * the module, kept from then on (and given at once to later mounts with the same `load`). A failed load (offline, an old page after a release) is logged
 * and `onError` called; the next time `wanted` turns true it is tried again.
 */
export function useOnDemand<T>(wanted: boolean, load: () => Promise<T>, onError?: () => void): T | null {
  // A later mount of the same piece (the home page again) renders it at once.
  const [loaded, setLoaded] = useState<T | null>(() => (arrived.get(load) as T | undefined) ?? null);
  const failed = useEffectEvent(() => onError?.());
  useEffect(() => {
    if (!wanted || loaded) return;
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
  }, [wanted, loaded, load]);
  return loaded;
}
