import { describe, expect, it } from 'vitest';
import { productImages } from './product-images';

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
