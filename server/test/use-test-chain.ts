/** Vitest hook wrapper of the test chain (kept apart so benchmarks can use chain.ts without vitest). */
import { afterAll, beforeAll } from 'vitest';
import { startTestChain, type TestChain } from './chain';

/** Starts anvil before the file's tests and stops it after; read `.chain`/`.provider` inside tests. */
export function useTestChain(): TestChain {
  const holder = {} as TestChain & { stop?: () => Promise<void> };
  beforeAll(async () => {
    Object.assign(holder, await startTestChain());
  });
  afterAll(async () => {
    await holder.stop?.();
  });
  return holder;
}
