import { describe, expect, it } from 'vitest';
import { shouldPersistQuery } from './persistence';

const q = (queryKey: unknown[], status: 'success' | 'error' | 'pending' = 'success') =>
  ({ queryKey, state: { status } }) as unknown as Parameters<typeof shouldPersistQuery>[0];

describe('shouldPersistQuery', () => {
  it('keeps successful catalogue and config queries', () => {
    expect(shouldPersistQuery(q(['catalogue', 'products']))).toBe(true);
    expect(shouldPersistQuery(q(['catalogue', 'product', '42']))).toBe(true);
    expect(shouldPersistQuery(q(['config']))).toBe(true);
  });

  it('never keeps the cart, orders or failed queries', () => {
    expect(shouldPersistQuery(q(['cart']))).toBe(false);
    expect(shouldPersistQuery(q(['orders', '0xabc']))).toBe(false);
    expect(shouldPersistQuery(q(['catalogue', 'products'], 'error'))).toBe(false);
    expect(shouldPersistQuery(q(['config'], 'pending'))).toBe(false);
  });
});
