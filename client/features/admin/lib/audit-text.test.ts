import { describe, expect, it } from 'vitest';
import { auditActionSchema } from '../../../../common/admin';
import { auditActionLabel, auditChangeText } from './audit-text';

describe('audit text', () => {
  it('labels every action', () => {
    const labels = auditActionSchema.options.map(auditActionLabel);
    expect(labels.every((l) => l.length > 0)).toBe(true);
    expect(new Set(labels).size).toBe(labels.length);
  });

  it('shows a change as old → new', () => {
    expect(auditChangeText({ field: 'pogPrice', from: '10.00', to: '12.50' })).toBe('pogPrice: "10.00" → "12.50"');
    expect(auditChangeText({ field: 'isActive', from: true, to: false })).toBe('isActive: true → false');
    expect(auditChangeText({ field: 'availableStock', from: null, to: 3 })).toBe('availableStock: none → 3');
  });
});
