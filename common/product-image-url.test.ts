import { describe, expect, it } from 'vitest';
import { IMAGE_SIZES, productImages, responsiveImage, simplePageImageUrl, sizedImageUrl, takesSizeParameters } from './product-image-url';

const SHOPIFY = 'https://cdn.shopify.com/s/files/1/0646/8855/4044/files/trousers.jpg?v=1700000000';
const EMULATOR = 'http://localhost:4402/shopify-emulator/cdn/images/classic-hoodie-1.svg';

describe('takesSizeParameters', () => {
  it("knows Shopify's CDN, a storefront's /cdn/shop/ and the emulator's /cdn/images/", () => {
    expect(takesSizeParameters(SHOPIFY)).toBe(true);
    expect(takesSizeParameters('https://shop.example/cdn/shop/files/a.jpg?v=1')).toBe(true);
    expect(takesSizeParameters(EMULATOR)).toBe(true);
  });

  it('leaves other hosts, relative and odd URLs alone', () => {
    expect(takesSizeParameters('https://images.example/a.jpg')).toBe(false);
    expect(takesSizeParameters('/cdn/images/a-1.svg')).toBe(false);
    expect(takesSizeParameters('data:image/svg+xml,<svg/>')).toBe(false);
    expect(takesSizeParameters('not a url')).toBe(false);
  });
});

describe('sizedImageUrl', () => {
  it('adds width, keeping the version parameter', () => {
    expect(sizedImageUrl(SHOPIFY, 400)).toBe(`${SHOPIFY}&width=400`);
    expect(sizedImageUrl(EMULATOR, 200)).toBe(`${EMULATOR}?width=200`);
  });

  it('replaces a width already there, and never asks beyond 5760 px', () => {
    expect(sizedImageUrl(`${EMULATOR}?width=100`, 600)).toBe(`${EMULATOR}?width=600`);
    expect(sizedImageUrl(EMULATOR, 9000)).toBe(`${EMULATOR}?width=5760`);
  });

  it('returns other URLs unchanged', () => {
    expect(sizedImageUrl('https://images.example/a.jpg?x=1', 400)).toBe('https://images.example/a.jpg?x=1');
  });
});

describe('responsiveImage', () => {
  it('gives an 800 px src, a srcset of sized variants and the layout sizes', () => {
    const image = responsiveImage(SHOPIFY, 'card');
    expect(image.src).toBe(`${SHOPIFY}&width=800`);
    expect(image.srcSet?.split(', ')).toEqual([
      `${SHOPIFY}&width=200 200w`,
      `${SHOPIFY}&width=400 400w`,
      `${SHOPIFY}&width=600 600w`,
      `${SHOPIFY}&width=800 800w`,
      `${SHOPIFY}&width=1200 1200w`,
    ]);
    expect(image.sizes).toBe(IMAGE_SIZES.card);
    expect(responsiveImage(EMULATOR, 'productPage').sizes).toBe(IMAGE_SIZES.productPage);
  });

  it('gives just the URL for a host that does not resize', () => {
    expect(responsiveImage('https://images.example/a.jpg', 'card')).toEqual({ src: 'https://images.example/a.jpg' });
  });
});

describe('productImages', () => {
  it('uses the image list, skipping empty urls', () => {
    expect(
      productImages({
        title: 'T',
        featuredImage: { url: 'f.png' },
        images: [
          { url: 'a.png', alt: null },
          { url: '', alt: null },
        ],
      }),
    ).toEqual([{ url: 'a.png', alt: null }]);
  });

  it('falls back to the featured image, then to nothing', () => {
    expect(productImages({ title: 'T', featuredImage: { url: 'f.png' }, images: [] })).toEqual([{ url: 'f.png', alt: 'T' }]);
    expect(productImages({ title: 'T', featuredImage: null, images: [] })).toEqual([]);
  });
});

describe('simplePageImageUrl', () => {
  it('prefers the featured image, then the first of the list', () => {
    expect(simplePageImageUrl({ featuredImage: { url: 'f.png' }, images: [{ url: 'a.png', alt: null }] })).toBe('f.png');
    expect(simplePageImageUrl({ featuredImage: null, images: [{ url: 'a.png', alt: null }] })).toBe('a.png');
    expect(simplePageImageUrl({ featuredImage: null, images: [] })).toBeUndefined();
  });
});
