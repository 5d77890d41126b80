import type { Cart } from '../types';

/**
 * A light runtime check of a cart answer (GET /api/cart and the add/remove responses), so a
 * wrong body becomes 'Failed to fetch cart' instead of a crash while rendering. The server
 * validates the full shape with zod; the client keeps zod out of its bundle.
 */
export function isCart(value: unknown): value is Cart {
  if (!value || typeof value !== 'object') return false;
  const { items, total } = value as Record<string, unknown>;
  return (
    typeof total === 'string' &&
    Array.isArray(items) &&
    items.every((item: unknown) => {
      if (!item || typeof item !== 'object') return false;
      const i = item as Record<string, unknown>;
      return (
        typeof i.id === 'string' &&
        typeof i.title === 'string' &&
        typeof i.price === 'string' &&
        typeof i.quantity === 'number' &&
        (i.image === null || i.image === undefined || typeof i.image === 'string') &&
        (i.problem === null || i.problem === undefined || typeof i.problem === 'string')
      );
    })
  );
}
