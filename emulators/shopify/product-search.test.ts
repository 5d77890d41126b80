import { describe, expect, it } from 'vitest';
import { demoCatalogue } from './demo-catalogue';
import { EmulatorState } from './emulator-state';
import { matchesProductQuery, parseProductQuery } from './product-search';

const products = new EmulatorState(demoCatalogue).listProducts();
const search = (query: string) => {
  const groups = parseProductQuery(query);
  return products.filter((p) => matchesProductQuery(p, groups)).map((p) => p.title);
};

describe('products(query:) search syntax', () => {
  it('filters on updated_at with a quoted timestamp, as incremental sync sends it', () => {
    const cutoff = '2026-08-20T09:00:00Z'; // exactly the DRAFT hoodie's updatedAt
    const after = (inclusive: boolean) =>
      products
        .filter((p) => (inclusive ? Date.parse(p.updatedAt) >= Date.parse(cutoff) : Date.parse(p.updatedAt) > Date.parse(cutoff)))
        .map((p) => p.title);
    expect(after(false).length).toBeGreaterThan(1);
    expect(search(`updated_at:>'${cutoff}'`)).toEqual(after(false));
    expect(search(`updated_at:>'${cutoff}'`)).not.toContain('Limited Pullover Hoodie');
    expect(search(`updated_at:>="${cutoff}"`)).toEqual(after(true));
    expect(search(`updated_at:>="${cutoff}"`)).toContain('Limited Pullover Hoodie');
  });

  it('matches every product for a blank query or an unknown field', () => {
    expect(search('')).toHaveLength(products.length);
    expect(search('favourite_colour:blue')).toHaveLength(products.length);
  });

  it('supports status, tag, vendor and free text, AND, OR and negation', () => {
    expect(search('status:draft')).toEqual(['Limited Pullover Hoodie']);
    expect(search('tag:hoodie status:active')).toEqual(['Classic Hoodie', 'Zip Hoodie']);
    expect(search('tag:hoodie AND -status:active')).toEqual(['Limited Pullover Hoodie']);
    expect(search('product_type:Mugs OR product_type:Socks')).toEqual(['Heritage Mug', 'Logo Crew Socks']);
    expect(search("vendor:''")).toEqual(search('NOT vendor:POGS'));
    expect(search('slammer tag:metal')).toEqual(['Chrome Skull Slammer']);
  });

  it('finds a product by variant SKU', () => {
    expect(search('sku:PG-HOOD-CLS-BLK-M')).toEqual(['Classic Hoodie']);
  });
});
