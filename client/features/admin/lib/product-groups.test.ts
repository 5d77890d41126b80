import { describe, expect, it } from 'vitest';
import type { InventoryItem } from '../../../../common/admin';
import { groupInventory } from './product-groups';

const item = (id: string, productId: string, title: string, over: Partial<InventoryItem> = {}): InventoryItem => ({
  id,
  externalId: `gid://shopify/ProductVariant/${id}`,
  productId,
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
  inShop: { isSoldOut: false, availableStock: 5, soldOutBy: null, stockFrom: 'shopify' },
  productStatus: 'ACTIVE',
  productType: 'Apparel',
  vendor: 'POGS',
  lastSyncedAt: null,
  updatedAt: '2025-01-01T00:00:00.000Z',
  shopifyData: { images: [] },
  ...over,
});

describe('groupInventory', () => {
  it('makes one card per Shopify product, with its status and its first variant’s fields', () => {
    const images = [{ url: 'https://cdn.example/a.png', alt: null }];
    const groups = groupInventory([
      item('1', '100', 'Pog Tube - Clear', { shopifyData: { images } }),
      item('2', '200', 'Beanie - One Size'),
      item('3', '100', 'Pog Tube - Smoke', { isActive: false }),
      item('4', '300', 'Classic Hoodie - Black / L'),
      item('5', '100', 'Pog Tube - Neon Green'),
    ]);
    expect(groups.map((g) => [g.productId, g.title, g.variants.map((v) => v.id), g.allActive])).toEqual([
      ['100', 'Pog Tube', ['1', '3', '5'], false],
      ['200', 'Beanie', ['2'], true],
      ['300', 'Classic Hoodie', ['4'], true],
    ]);
    expect(groups[0].originalTitle).toBe('Pog Tube');
    expect(groups[0].images).toBe(images);
  });

  it('names a group by its custom title and keeps the Shopify title for the title routes', () => {
    const [group] = groupInventory([
      item('1', '100', 'Retro Pack - 50', { originalTitle: 'Vintage pogs', customTitle: 'Retro Pack' }),
      item('2', '100', 'Retro Pack - 100', { originalTitle: 'Vintage pogs', customTitle: 'Retro Pack' }),
    ]);
    expect(group.title).toBe('Retro Pack');
    expect(group.originalTitle).toBe('Vintage pogs');
    expect(group.customTitle).toBe('Retro Pack');
    expect(group.variants).toHaveLength(2);
  });
});
