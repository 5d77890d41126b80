import type { InventoryItem } from '../../../../common/admin';

/**
 * What the shop does with a variant's stock, in the admin's words (the rule is
 * common/availability's; the server applies it and sends `inShop`).
 */
export function inShopText({ isSoldOut, availableStock, soldOutBy, stockFrom }: InventoryItem['inShop']): string {
  if (isSoldOut) {
    switch (soldOutBy) {
      case 'admin':
        return 'Sold out in the shop: the Sold out switch is on.';
      case 'shopify':
        return 'Sold out in the shop: Shopify has none. Set a stock above 0 to sell anyway.';
      default:
        return stockFrom === 'admin'
          ? 'Sold out in the shop: your stock is used up.'
          : 'Sold out in the shop: Shopify’s quantity is used up.';
    }
  }
  if (stockFrom === 'admin') return `In the shop: ${availableStock} left (your stock).`;
  if (stockFrom === 'shopify') return `In the shop: ${availableStock} left (Shopify’s quantity).`;
  return 'In the shop: for sale, no stock limit.';
}
