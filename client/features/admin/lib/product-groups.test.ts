import { describe, expect, it } from 'vitest';
import type { InventoryItem } from '../../../../common/admin';
import { matchingVariants, toProductGroup } from './product-groups';

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

const group = (productId: string, title: string, variants: InventoryItem[], matching = variants.map((v) => v.id)) => ({
  productId,
  title,
  variants,
  matching,
});

describe('toProductGroup', () => {
  it('makes a card of a listed product, with its status and its first variant’s fields', () => {
    const images = [{ url: 'https://cdn.example/a.png', alt: null }];
    const tube = toProductGroup(
      group('100', 'Pog Tube', [
        item('1', '100', 'Pog Tube - Clear', { shopifyData: { images } }),
        item('3', '100', 'Pog Tube - Smoke', { isActive: false }),
        item('5', '100', 'Pog Tube - Neon Green'),
      ]),
    );
    expect([tube.productId, tube.title, tube.variants.map((v) => v.id), tube.allActive]).toEqual([
      '100',
      'Pog Tube',
      ['1', '3', '5'],
      false,
    ]);
    expect(tube.originalTitle).toBe('Pog Tube');
    expect(tube.images).toBe(images);
    expect(toProductGroup(group('200', 'Beanie', [item('2', '200', 'Beanie - One Size')])).allActive).toBe(true);
  });

  it('keeps the server’s name (the custom title) and the Shopify title for the title routes', () => {
    const retro = toProductGroup(
      group('100', 'Retro Pack', [
        item('1', '100', 'Retro Pack - 50', { originalTitle: 'Vintage pogs', customTitle: 'Retro Pack' }),
        item('2', '100', 'Retro Pack - 100', { originalTitle: 'Vintage pogs', customTitle: 'Retro Pack' }),
      ]),
    );
    expect(retro.title).toBe('Retro Pack');
    expect(retro.originalTitle).toBe('Vintage pogs');
    expect(retro.customTitle).toBe('Retro Pack');
    expect(retro.variants).toHaveLength(2);
  });
});

describe('matchingVariants', () => {
  it('lists the matching variants of each group, in the groups’ order and Shopify’s', () => {
    const a = [item('1', '100', 'Tee - S'), item('2', '100', 'Tee - M'), item('3', '100', 'Tee - L')];
    const b = [item('4', '200', 'Cap')];
    expect(matchingVariants([group('100', 'Tee', a, ['3', '1']), group('200', 'Cap', b)]).map((v) => v.id)).toEqual(['1', '3', '4']);
    expect(matchingVariants([group('100', 'Tee', a, [])])).toEqual([]);
  });
});
