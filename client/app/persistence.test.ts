import { describe, expect, it } from 'vitest';
import { authSessionQueryKey } from '../features/auth';
import { orderHistoryQueryKey } from '../features/orders';
import { shouldPersistQuery } from './persistence';

const q = (queryKey: unknown[], status: 'success' | 'error' | 'pending' = 'success') =>
  ({ queryKey, state: { status } }) as unknown as Parameters<typeof shouldPersistQuery>[0];

describe('shouldPersistQuery', () => {
  it('keeps successful catalogue and config queries', () => {
    expect(shouldPersistQuery(q(['catalogue', 'products']))).toBe(true);
    expect(shouldPersistQuery(q(['catalogue', 'product', '42']))).toBe(true);
    expect(shouldPersistQuery(q(['config']))).toBe(true);
  });

  it('never keeps the cart, orders, the sign-in or failed queries', () => {
    expect(shouldPersistQuery(q(['cart']))).toBe(false);
    expect(shouldPersistQuery(q(['orders', '0xabc']))).toBe(false);
    expect(shouldPersistQuery(q([...orderHistoryQueryKey, '0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc']))).toBe(false);
    expect(shouldPersistQuery(q([...authSessionQueryKey]))).toBe(false);
    // The admin's payments desk and orders view (issue 13) are never kept on the device.
    expect(shouldPersistQuery(q(['admin', 'payments', 'attention', 'all', 'open']))).toBe(false);
    expect(shouldPersistQuery(q(['admin', 'orders', 'list', '', '']))).toBe(false);
    expect(shouldPersistQuery(q(['catalogue', 'products'], 'error'))).toBe(false);
    expect(shouldPersistQuery(q(['config'], 'pending'))).toBe(false);
  });
});
