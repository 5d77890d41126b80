import { describe, expect, it } from 'vitest';
import type { InventoryItem } from '../../../../common/admin';
import { groupInventory } from './product-groups';

const item = (id: string, title: string, over: Partial<InventoryItem> = {}): InventoryItem => ({
  id,
  externalId: `gid://shopify/ProductVariant/${id}`,
  productId: '100',
  title,
  originalTitle: title.split(' - ')[0],
  variantTitle: title.split(' - ')[1] ?? 'Default Title',
  customTitle: null,
  sku: null,
  quantity: 5,
  availableStock: null,
  pogPrice: '10.00',
  isActive: true,
  isSoldOut: false,
  forSale: true,
  productStatus: 'ACTIVE',
  productType: 'Apparel',
  vendor: 'POGS',
  lastSyncedAt: null,
  updatedAt: '2025-01-01T00:00:00.000Z',
  shopifyData: { images: [] },
  ...over,
});

describe('groupInventory', () => {
  it("groups by the shown title's suffix rules, with the status and the first variant's fields", () => {
    const images = [{ url: 'https://cdn.example/a.png', alt: null }];
    const groups = groupInventory([
      item('1', 'Pog Tee - Black / S', { shopifyData: { images } }),
      item('2', 'Beanie - One Size'),
      item('3', 'Pog Tee - White / XL', { isActive: false }),
      item('4', 'Classic Hoodie - Black / L'),
      item('5', 'Limited Classic Hoodie - Cream / M'),
    ]);
    expect(groups.map((g) => [g.title, g.variants.map((v) => v.id), g.allActive])).toEqual([
      ['Pog Tee', ['1', '3'], false],
      ['Beanie', ['2'], true],
      ['Classic Hoodie', ['4', '5'], true],
    ]);
    expect(groups[0].key).toBe('1');
    expect(groups[0].originalTitle).toBe('Pog Tee');
    expect(groups[0].images).toBe(images);
  });

  it('names a group by its custom title and keeps the Shopify title for the title routes', () => {
    const [group] = groupInventory([
      item('1', 'Retro Pack - 50', { originalTitle: 'Vintage pogs', customTitle: 'Retro Pack' }),
      item('2', 'Retro Pack - 100', { originalTitle: 'Vintage pogs', customTitle: 'Retro Pack' }),
    ]);
    expect(group.title).toBe('Retro Pack');
    expect(group.originalTitle).toBe('Vintage pogs');
    expect(group.customTitle).toBe('Retro Pack');
    expect(group.variants).toHaveLength(2);
  });
});
