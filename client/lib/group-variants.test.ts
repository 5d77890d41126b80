import { describe, expect, it } from 'vitest';
import { baseVariantTitle, groupVariants } from './group-variants';

describe('baseVariantTitle', () => {
  it("strips ' - Colour / SIZE' for every size from XS to 4XL/XXL", () => {
    for (const size of ['XS', 'S', 'M', 'L', 'XL', 'XXL', '2XL', '3XL', '4XL', 'xl']) {
      expect(baseVariantTitle(`Pog Tee - Black / ${size}`)).toBe('Pog Tee');
    }
    expect(baseVariantTitle('Pog Tee - Heather Grey / M')).toBe('Pog Tee');
  });

  it("strips ' - SIZE'", () => {
    expect(baseVariantTitle('Slammer Cap - L')).toBe('Slammer Cap');
    expect(baseVariantTitle('Slammer Cap - 3XL')).toBe('Slammer Cap');
  });

  it("strips 'One Size', 'OS' and digits", () => {
    expect(baseVariantTitle('Beanie - One Size')).toBe('Beanie');
    expect(baseVariantTitle('Beanie One Size')).toBe('Beanie');
    expect(baseVariantTitle('Beanie - OS')).toBe('Beanie');
    expect(baseVariantTitle('Beanie OS')).toBe('Beanie');
    expect(baseVariantTitle('Pog Pack - 50')).toBe('Pog Pack');
    expect(baseVariantTitle('Sneakers - White / 42')).toBe('Sneakers');
  });

  it('strips a trailing dash', () => {
    expect(baseVariantTitle('Sticker Sheet -')).toBe('Sticker Sheet');
    expect(baseVariantTitle('Sticker Sheet - ')).toBe('Sticker Sheet');
  });

  it('leaves other titles alone', () => {
    expect(baseVariantTitle('Pog Tee - Black')).toBe('Pog Tee - Black');
    expect(baseVariantTitle('Mesh Shorts')).toBe('Mesh Shorts');
    expect(baseVariantTitle('Slammers')).toBe('Slammers'); // a word ending in S is not a size
    expect(baseVariantTitle('Kids Hats')).toBe('Kids Hats');
  });

  it('keeps a title that is only a size', () => {
    expect(baseVariantTitle('XL')).toBe('XL');
    expect(baseVariantTitle('One Size')).toBe('One Size');
    expect(baseVariantTitle('')).toBe('');
    expect(baseVariantTitle(null)).toBe('');
  });

  it("forces any title containing 'Classic Hoodie' into one group", () => {
    expect(baseVariantTitle('Classic Hoodie - Black / XL')).toBe('Classic Hoodie');
    expect(baseVariantTitle('POGS classic hoodie (limited) - Cream')).toBe('Classic Hoodie');
  });
});

describe('groupVariants', () => {
  type V = { id: string; title: string };
  const v = (id: string, title: string): V => ({ id, title });

  it('groups by base title keeping first-seen order and the first variant as base', () => {
    const variants = [
      v('1', 'Pog Tee - Black / S'),
      v('2', 'Beanie - One Size'),
      v('3', 'Pog Tee - White / XL'),
      v('4', 'pog tee - Black / M'),
      v('5', 'Classic Hoodie - Black / L'),
      v('6', 'The Classic Hoodie Zip - Grey / M'),
    ];
    const groups = groupVariants(variants, (x) => x.title);
    expect(groups.map((g) => g.title)).toEqual(['Pog Tee', 'Beanie', 'Classic Hoodie']);
    expect(groups[0].variants.map((x) => x.id)).toEqual(['1', '3', '4']);
    expect(groups[0].base.id).toBe('1');
    expect(groups[1].variants.map((x) => x.id)).toEqual(['2']);
    expect(groups[2].variants.map((x) => x.id)).toEqual(['5', '6']);
  });

  it('groups by the title field by default', () => {
    const groups = groupVariants([v('1', 'Beanie - OS'), v('2', 'Beanie - One Size')]);
    expect(groups).toHaveLength(1);
    expect(groups[0].title).toBe('Beanie');
  });

  it('returns no groups for no variants', () => {
    expect(groupVariants([], (x: V) => x.title)).toEqual([]);
  });
});
