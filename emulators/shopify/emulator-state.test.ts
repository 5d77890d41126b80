import { describe, expect, it } from 'vitest';
import { demoCatalogue } from './demo-catalogue';
import { EmulatorState } from './emulator-state';

describe('EmulatorState', () => {
  it('creates a product with Shopify defaults and allocates fresh ids', () => {
    const state = new EmulatorState(
      () => [],
      () => Date.parse('2026-10-01T12:00:00.500Z'),
    );
    const p = state.upsertProduct({ title: 'Glow Slammer!' });
    expect(p).toMatchObject({ handle: 'glow-slammer', status: 'ACTIVE', vendor: '', updatedAt: '2026-10-01T12:00:00Z', images: [] });
    expect(p.variants).toHaveLength(1);
    expect(p.variants[0]).toMatchObject({
      title: 'Default Title',
      inventoryQuantity: 0,
      availableForSale: false,
      selectedOptions: [{ name: 'Title', value: 'Default Title' }],
    });
    const second = state.upsertProduct({ title: 'Glow Slammer!' });
    expect(second.handle).toBe('glow-slammer-1');
    expect(Number(second.legacyId)).toBeGreaterThan(Number(p.legacyId));
  });

  it('updates in place: keeps ids, variant ids matched by title, and bumps updatedAt past every stored one', () => {
    const state = new EmulatorState(demoCatalogue, () => Date.parse('2020-01-01T00:00:00Z'));
    const latest = Math.max(...state.listProducts().map((p) => Date.parse(p.updatedAt)));
    const hoodie = state.getProductByHandle('classic-hoodie')!;
    const blackM = hoodie.variants.find((v) => v.title === 'Black / M')!;

    const updated = state.upsertProduct({
      legacyId: hoodie.legacyId,
      variants: [{ title: 'Black / M', price: '59.99', inventoryQuantity: 1, selectedOptions: blackM.selectedOptions }],
    });
    expect(updated.legacyId).toBe(hoodie.legacyId);
    expect(updated.title).toBe('Classic Hoodie');
    expect(updated.images).toEqual(hoodie.images);
    expect(updated.variants).toHaveLength(1);
    expect(updated.variants[0]).toMatchObject({ legacyId: blackM.legacyId, price: '59.99', availableForSale: true });
    expect(Date.parse(updated.updatedAt)).toBe(latest + 1000);
    expect(state.getProduct(hoodie.legacyId)).toBe(updated);
  });

  it('refuses to delete what does not exist, and resets to the seed', () => {
    const state = new EmulatorState(demoCatalogue);
    const count = state.listProducts().length;
    const victim = state.listProducts()[0].legacyId;
    state.deleteProduct(victim);
    expect(state.getProduct(victim)).toBeUndefined();
    expect(() => state.deleteProduct(victim)).toThrow(/No product/);
    state.upsertProduct({ title: 'Extra' });
    state.reset();
    expect(state.listProducts()).toHaveLength(count);
    expect(state.getProduct(victim)).toBeDefined();
    expect(state.getProductByHandle('extra')).toBeUndefined();
  });

  it('rejects ids that JavaScript numbers cannot hold exactly', () => {
    const state = new EmulatorState(() => []);
    expect(() => state.upsertProduct({ legacyId: '9007199254740993', title: 'Too big' })).toThrow(/below 2\^53/);
  });
});
