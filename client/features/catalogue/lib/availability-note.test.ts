import { describe, expect, it } from 'vitest';
import { availabilityNote } from './availability-note';

describe('availabilityNote', () => {
  it('covers no variant, sold out, known stock and unknown stock', () => {
    expect(availabilityNote(null)).toBe('Choose a variant to see availability');
    expect(availabilityNote({ isSoldOut: true, availableStock: 5 })).toBe('This variant is sold out');
    expect(availabilityNote({ isSoldOut: false, availableStock: 3 })).toBe('3 in stock');
    expect(availabilityNote({ isSoldOut: false, availableStock: 0 })).toBe('Available to order');
  });
});
