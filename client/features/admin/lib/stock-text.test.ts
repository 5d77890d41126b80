import { describe, expect, it } from 'vitest';
import type { InventoryItem } from '../../../../common/admin';
import { inShopText } from './stock-text';

type InShop = InventoryItem['inShop'];
const inShop = (over: Partial<InShop>): InShop => ({ isSoldOut: false, availableStock: 0, soldOutBy: null, stockFrom: null, ...over });

describe('inShopText', () => {
  it.each<[Partial<InShop>, string]>([
    [{ isSoldOut: true, soldOutBy: 'admin', availableStock: 5, stockFrom: 'admin' }, 'Sold out in the shop: the Sold out switch is on.'],
    [{ isSoldOut: true, soldOutBy: 'shopify' }, 'Sold out in the shop: Shopify has none. Set a stock above 0 to sell anyway.'],
    [{ isSoldOut: true, soldOutBy: 'none-left', stockFrom: 'admin' }, 'Sold out in the shop: your stock is used up.'],
    [{ isSoldOut: true, soldOutBy: 'none-left', stockFrom: 'shopify' }, 'Sold out in the shop: Shopify’s quantity is used up.'],
    [{ availableStock: 5, stockFrom: 'admin' }, 'In the shop: 5 left (your stock).'],
    [{ availableStock: 12, stockFrom: 'shopify' }, 'In the shop: 12 left (Shopify’s quantity).'],
    [{}, 'In the shop: for sale, no stock limit.'],
  ])('%j → %s', (over, text) => {
    expect(inShopText(inShop(over))).toBe(text);
  });
});
