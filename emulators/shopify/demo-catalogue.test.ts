import { describe, expect, it } from 'vitest';
import { demoCatalogue } from './demo-catalogue';
import { EmulatorState } from './emulator-state';

// The demo shop doubles as the fixture for the storefront's edge cases; these pin the cases down
// so an edit to the catalogue cannot quietly drop one.
const products = new EmulatorState(demoCatalogue).listProducts();
const variants = products.flatMap((p) => p.variants);

describe('demo catalogue', () => {
  it('has at least 24 products with unique, safe, stable ids and handles', () => {
    expect(products.length).toBeGreaterThanOrEqual(24);
    const ids = [
      ...products.map((p) => p.legacyId),
      ...variants.map((v) => v.legacyId),
      ...products.flatMap((p) => p.images.map((i) => i.legacyId)),
    ];
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) {
      expect(id).toMatch(/^\d{13,14}$/);
      expect(Number(id)).toBeLessThan(Number.MAX_SAFE_INTEGER);
    }
    expect(new Set(products.map((p) => p.handle)).size).toBe(products.length);
    expect(new EmulatorState(demoCatalogue).listProducts()).toEqual(products);
  });

  it('covers colour/size, size-only, One Size and Default Title variants, and >10 variants on one product', () => {
    expect(variants.some((v) => /^[A-Z][a-z]+( [A-Z][a-z]+)? \/ (XS|S|M|L|XL|XXL)$/.test(v.title))).toBe(true);
    expect(variants.filter((v) => ['S', 'M', 'L', 'XL', 'XXL'].includes(v.title)).length).toBeGreaterThanOrEqual(5);
    expect(products.some((p) => p.variants.length === 1 && p.variants[0].title === 'One Size')).toBe(true);
    expect(products.some((p) => p.variants.length === 1 && p.variants[0].title === 'Default Title')).toBe(true);
    expect(Math.max(...products.map((p) => p.variants.length))).toBeGreaterThan(10);
  });

  it('covers 0, 1, 2–5 and more than 5 images', () => {
    const counts = products.map((p) => p.images.length);
    expect(counts).toContain(0);
    expect(counts).toContain(1);
    expect(counts.some((n) => n >= 2 && n <= 5)).toBe(true);
    expect(counts.some((n) => n > 5)).toBe(true);
  });

  it('covers sold-out variants, a fully sold-out product and low stock', () => {
    const soldOut = variants.filter((v) => v.inventoryQuantity === 0);
    expect(soldOut.length).toBeGreaterThan(3);
    expect(soldOut.every((v) => !v.availableForSale)).toBe(true);
    expect(products.some((p) => p.variants.every((v) => !v.availableForSale))).toBe(true);
    expect(variants.some((v) => v.inventoryQuantity >= 1 && v.inventoryQuantity <= 3)).toBe(true);
  });

  it('covers awkward descriptions, empty vendor/type, many tags, null SKUs and a DRAFT product', () => {
    const html = products.map((p) => p.descriptionHtml).join('\n');
    for (const needle of ['&amp;', '&quot;', '&#39;', '&nbsp;', '&mdash;', '<p>', '<br>', '<ul><li>', '<strong>', 'Size guide:', ' | ']) {
      expect(html).toContain(needle);
    }
    expect(products.some((p) => p.descriptionHtml === '')).toBe(true);
    expect(products.some((p) => (p.descriptionHtml.match(/<p>|<li>|<br>/g) ?? []).length > 5)).toBe(true);
    expect(products.some((p) => p.vendor === '')).toBe(true);
    expect(products.some((p) => p.productType === '')).toBe(true);
    expect(products.some((p) => p.tags.length > 5)).toBe(true);
    expect(variants.some((v) => v.sku === null)).toBe(true);
    expect(products.filter((p) => p.status === 'DRAFT')).toHaveLength(1);
    expect(variants.every((v) => /^\d+\.\d{2}$/.test(v.price))).toBe(true);
    expect(products.every((p) => p.updatedAt.startsWith('2026-'))).toBe(true);
  });
});
