import type { Product, ProductImage } from '../../../../common/api';

/** The product's gallery: its images, or the featured image alone when the list is empty. */
export function productImages(product: Pick<Product, 'images' | 'featuredImage' | 'title'>): ProductImage[] {
  const images = product.images.filter((image) => Boolean(image.url));
  if (images.length > 0) return images;
  return product.featuredImage?.url ? [{ url: product.featuredImage.url, alt: product.title }] : [];
}
