/**
 * Sized product photos, built the same way by the client's <img> and by the server's
 * `<link rel="preload">` (so the browser reuses the preloaded response instead of fetching twice).
 *
 * Shopify's CDN resizes an image given `width` (and/or `height`) query parameters, at most
 * 5760 px and never larger than the original; only the width given, the height follows the
 * picture's aspect. The Shopify emulator's CDN (`/cdn/images/...`) answers the same parameters.
 * URLs of any other host are used as they are, without a srcset.
 */
import type { Product, ProductImage } from './api';

/** The widths offered in a srcset (phones at 2-3× take 800-1200, desktop cards 400-600). */
export const IMAGE_WIDTHS = [200, 400, 600, 800, 1200] as const;
/** The width of `src`, for browsers that ignore srcset. */
export const DEFAULT_IMAGE_WIDTH = 800;
/** Shopify's CDN resizes to at most this many pixels either way. */
export const MAX_CDN_IMAGE_SIZE = 5760;

/**
 * The layout widths the pages give their photos, as `sizes` (keep in step with the Tailwind
 * classes of the grid, the product page and the simple product page).
 */
export const IMAGE_SIZES = {
  /** Grid cards: 1 column, 2 from sm, 3 from lg, 4 from xl (max-w-7xl, px-4/6/8, gap-5). */
  card: '(min-width: 1280px) 290px, (min-width: 1024px) calc((100vw - 104px) / 3), (min-width: 640px) calc((100vw - 68px) / 2), calc(100vw - 32px)',
  /** /product/:id gallery: half of max-w-6xl from md. */
  productPage: '(min-width: 1152px) 540px, (min-width: 768px) calc(50vw - 48px), calc(100vw - 32px)',
  /** /products/:id: max-w-3xl. */
  simplePage: '(min-width: 768px) 720px, calc(100vw - 32px)',
  /** The product page's thumbnails (size-16). */
  thumbnail: '64px',
} as const;

export type ImageLayout = keyof typeof IMAGE_SIZES;

/** Whether the URL is Shopify's CDN (or the emulator's), which takes `width`/`height`. */
export function takesSizeParameters(url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return false;
  return parsed.hostname === 'cdn.shopify.com' || /\/cdn\/(shop|images)\//.test(parsed.pathname);
}

/** The URL of the picture at `width` px wide (its other parameters, such as `v`, kept); other hosts' URLs unchanged. */
export function sizedImageUrl(url: string, width: number): string {
  if (!takesSizeParameters(url)) return url;
  const parsed = new URL(url);
  parsed.searchParams.set('width', String(Math.min(Math.round(width), MAX_CDN_IMAGE_SIZE)));
  return parsed.toString();
}

export interface ResponsiveImage {
  src: string;
  /** Absent for hosts that take no size parameters. */
  srcSet?: string;
  sizes?: string;
}

/** `src`, `srcSet` and `sizes` for a photo shown in `layout`. */
export function responsiveImage(url: string, layout: ImageLayout): ResponsiveImage {
  if (!takesSizeParameters(url)) return { src: url };
  return {
    src: sizedImageUrl(url, DEFAULT_IMAGE_WIDTH),
    srcSet: IMAGE_WIDTHS.map((w) => `${sizedImageUrl(url, w)} ${w}w`).join(', '),
    sizes: IMAGE_SIZES[layout],
  };
}

/** The product's gallery: its images, or the featured image alone when the list is empty. */
export function productImages(product: Pick<Product, 'images' | 'featuredImage' | 'title'>): ProductImage[] {
  const images = product.images.filter((image) => Boolean(image.url));
  if (images.length > 0) return images;
  return product.featuredImage?.url ? [{ url: product.featuredImage.url, alt: product.title }] : [];
}

/** The one photo the simple product page (/products/:id) shows. */
export function simplePageImageUrl(product: Pick<Product, 'images' | 'featuredImage'>): string | undefined {
  return product.featuredImage?.url ?? product.images[0]?.url;
}
