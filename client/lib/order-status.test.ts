import { describe, expect, it } from 'vitest';
import { orderStatusSchema } from '../../common/api';
import { orderStatusStyle } from './order-status';

describe('orderStatusStyle', () => {
  it("uses each status's colour", () => {
    expect(orderStatusStyle('pending').className).toMatch(/yellow/);
    expect(orderStatusStyle('confirmed').className).toMatch(/green/);
    expect(orderStatusStyle('paid').className).toMatch(/green/);
    expect(orderStatusStyle('failed').className).toMatch(/red/);
    expect(orderStatusStyle('draft').className).toMatch(/bg-blue-100/);
    // "solid blue": a filled badge with white text
    expect(orderStatusStyle('shipped').className).toMatch(/bg-blue-700/);
    expect(orderStatusStyle('shipped').className).toMatch(/text-white/);
    // Refunded: grey.
    expect(orderStatusStyle('refunded').className).toMatch(/bg-slate-100/);
  });

  it('labels every status the API has, in words (not colour alone)', () => {
    for (const status of orderStatusSchema.options) {
      expect(orderStatusStyle(status).label.toLowerCase()).toBe(status);
    }
  });

  it('shows an unknown status as neutral text', () => {
    expect(orderStatusStyle('returned')).toEqual({ label: 'Returned', className: 'border-border bg-muted text-foreground' });
    expect(orderStatusStyle('').label).toBe('Unknown');
    expect(orderStatusStyle('toString').label).toBe('ToString');
  });
});
