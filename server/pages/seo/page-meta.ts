/**
 * What a shared link, a search engine or a crawler reads in the head of the shop's server pages
 * (server/pages/shop-pages.ts): the page's <title> and meta description, its canonical address, Open
 * Graph and Twitter card tags, and schema.org JSON-LD (a `Product` on a product page, the
 * `WebSite` and `OnlineStore` on the home), typed with schema-dts so the vocabulary is checked at
 * compile time.
 *
 * Every address is absolute, from PUBLIC_URL (`config.publicUrl`): a page is built once per
 * catalogue snapshot for every visitor, so it cannot follow the name a request came in by. Both
 * product pages (`/product/:id` and the simple `/products/:id`) name `/product/:id` as canonical:
 * it is the full page (gallery, every variant), and the one the grid links to.
 *
 * Only what the page shows anyway goes in: the listed product (its listed variants and their
 * prices and stock), never anything of an admin's or of a hidden product (those get no page).
 */
import type {
  AggregateOffer,
  Brand,
  ImageObject,
  ItemAvailability,
  Offer,
  OnlineStore,
  Product as SchemaProduct,
  WebSite,
  WithContext,
} from 'schema-dts';
import type { Product, PublicConfig } from '../../../common/api';
import { cleanDescription, DESCRIPTION_FALLBACK } from '../../../common/clean-description';
import { compareDecimal } from '../../../common/money';
import { productImages, sizedImageUrl } from '../../../common/product-image-url';
import type { ShopPageKind } from '../../../common/shop-render';
import { scriptSafeJson } from '../shop-pages';

/** schema.org's priceCurrency takes ISO 4217 codes or a cryptocurrency's ticker: the token's. */
export const PRICE_CURRENCY = 'POGS';

/** A meta description longer than this is cut (search results show about 155-160 characters). */
const MAX_DESCRIPTION_CHARS = 160;

/** The width asked of the CDN for a shared picture (large link previews want at least 1200 px). */
const SHARE_IMAGE_WIDTH = 1200;

/** The shop's own picture for the home's previews (public/icons; its size is known). */
const SHOP_ICON = { path: '/icons/icon-512.png', width: 512, height: 512 };

/** The page a head is for (the product for a product page). */
export interface MetaPage {
  kind: ShopPageKind;
  config: PublicConfig;
  product?: Product;
}

/** The template with the page's head tags in place of its own <title> and description; see the file's comment. */
export type PageMeta = (template: string, page: MetaPage) => string;

const TITLE = /<title>[^<]*<\/title>/i;
const DESCRIPTION = /<meta\s+name="description"\s+content="([^"]*)"\s*\/?>/i;

/** Text for an attribute or an element: markup characters as references, and the two line separators (JSON parsers' trap) too. */
const escapeHtml = (value: string) =>
  value.replace(
    /[&"<>\u2028\u2029]/g,
    (c) => ({ '&': '&amp;', '"': '&quot;', '<': '&lt;', '>': '&gt;' })[c] ?? `&#x${c.charCodeAt(0).toString(16)};`,
  );

const decodeAttribute = (value: string) =>
  value.replace(/&(quot|lt|gt|amp);/g, (_, name: string) => ({ quot: '"', lt: '<', gt: '>', amp: '&' })[name]!);

/** Plain text of at most `max` characters, cut at a word where it can be, with an ellipsis when cut. */
function summary(text: string, max = MAX_DESCRIPTION_CHARS): string {
  const plain = text.replace(/\s+/g, ' ').trim();
  if (plain.length <= max) return plain;
  const cut = plain.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:.-]+$/, '')}…`;
}

/** The description a product's head gives: its cleaned text (what the page shows), else the cards' fallback. */
function productDescription(product: Product): string {
  return summary(cleanDescription(product.description).join(' ') || DESCRIPTION_FALLBACK);
}

/** The canonical address of a product: `/product/:id` at PUBLIC_URL. */
export const productUrl = (publicUrl: string, id: string) => `${publicUrl}/product/${encodeURIComponent(id)}`;

/** `url` made absolute against PUBLIC_URL; null for anything but http(s). */
function absolute(publicUrl: string, url: string): string | null {
  try {
    const resolved = new URL(url, `${publicUrl}/`);
    return resolved.protocol === 'https:' || resolved.protocol === 'http:' ? resolved.href : null;
  } catch {
    return null;
  }
}

const availabilityOf = (soldOut: boolean): ItemAvailability => (soldOut ? 'https://schema.org/OutOfStock' : 'https://schema.org/InStock');

/**
 * The product's offers: one `Offer` per listed variant (its sku, price in POGS and stock), under
 * an `AggregateOffer` with the price range when there are several. Shopify's variant titles are
 * free text (no option names the shop keeps), so a `ProductGroup` with `variesBy` would have to
 * guess what varies; offers per variant state exactly what can be bought at what price.
 */
function offersOf(product: Product, url: string): Offer | AggregateOffer {
  const offer = (v: Product['variants'][number]): Offer => ({
    '@type': 'Offer',
    ...(product.variants.length > 1 ? { name: v.title } : {}),
    ...(v.sku ? { sku: v.sku } : {}),
    price: v.price,
    priceCurrency: PRICE_CURRENCY,
    availability: availabilityOf(v.isSoldOut),
    url,
  });
  if (product.variants.length === 1) return offer(product.variants[0]);
  const prices = product.variants.map((v) => v.price).sort(compareDecimal);
  return {
    '@type': 'AggregateOffer',
    lowPrice: prices[0],
    highPrice: prices[prices.length - 1],
    priceCurrency: PRICE_CURRENCY,
    offerCount: product.variants.length,
    availability: availabilityOf(product.variants.every((v) => v.isSoldOut)),
    offers: product.variants.map(offer),
    url,
  };
}

/** The product's JSON-LD (`url` its canonical address, `description` the page's). */
function productJsonLd(publicUrl: string, product: Product, url: string, description: string): WithContext<SchemaProduct> {
  const images = productImages(product).flatMap((image) => absolute(publicUrl, image.url) ?? []);
  const only = product.variants.length === 1 ? product.variants[0] : undefined;
  const brand: Brand | undefined = product.vendor.trim() ? { '@type': 'Brand', name: product.vendor.trim() } : undefined;
  return {
    '@context': 'https://schema.org',
    '@type': 'Product',
    productID: product.id,
    name: product.title,
    description,
    url,
    ...(images.length ? { image: images } : {}),
    ...(brand ? { brand } : {}),
    ...(only?.sku ? { sku: only.sku } : {}),
    ...(product.productType.trim() ? { category: product.productType.trim() } : {}),
    offers: offersOf(product, url),
  };
}

/** The home's JSON-LD: the site (its name and address) and the store behind it. */
function homeJsonLd(
  publicUrl: string,
  shopName: string,
  description: string,
): { '@context': 'https://schema.org'; '@graph': [WebSite, OnlineStore] } {
  const url = `${publicUrl}/`;
  const logo: ImageObject = {
    '@type': 'ImageObject',
    url: `${publicUrl}${SHOP_ICON.path}`,
    width: `${SHOP_ICON.width}`,
    height: `${SHOP_ICON.height}`,
  };
  const site: WebSite = { '@type': 'WebSite', '@id': `${url}#website`, name: shopName, url, description };
  const store: OnlineStore = {
    '@type': 'OnlineStore',
    '@id': `${url}#store`,
    name: shopName,
    url,
    description,
    logo,
  };
  return { '@context': 'https://schema.org', '@graph': [site, store] };
}

const meta = (attr: 'name' | 'property', key: string, content: string) => `<meta ${attr}="${key}" content="${escapeHtml(content)}">`;

function headTags(tags: {
  /** The document's title; `shareTitle` the previews' (the title alone, the site's name beside it). */
  title: string;
  shareTitle: string;
  description: string;
  url: string;
  type: 'website' | 'product';
  siteName: string;
  image?: { url: string; alt: string; width?: number; height?: number };
  card: 'summary' | 'summary_large_image';
  extra?: string[];
  jsonLd: object;
}): string {
  const { title, description, url, image } = tags;
  return [
    `<title>${escapeHtml(title)}</title>`,
    meta('name', 'description', description),
    `<link rel="canonical" href="${escapeHtml(url)}">`,
    meta('property', 'og:type', tags.type),
    meta('property', 'og:site_name', tags.siteName),
    meta('property', 'og:title', tags.shareTitle),
    meta('property', 'og:description', description),
    meta('property', 'og:url', url),
    ...(image
      ? [
          meta('property', 'og:image', image.url),
          meta('property', 'og:image:alt', image.alt),
          ...(image.width && image.height
            ? [meta('property', 'og:image:width', String(image.width)), meta('property', 'og:image:height', String(image.height))]
            : []),
        ]
      : []),
    ...(tags.extra ?? []),
    meta('name', 'twitter:card', tags.card),
    meta('name', 'twitter:title', tags.shareTitle),
    meta('name', 'twitter:description', description),
    ...(image ? [meta('name', 'twitter:image', image.url), meta('name', 'twitter:image:alt', image.alt)] : []),
    `<script type="application/ld+json">${scriptSafeJson(JSON.stringify(tags.jsonLd))}</script>`,
  ].join('');
}

/** The template's head with `tags` where its <title> was (before </head> without one) and its own description gone. */
function replaceHead(template: string, tags: string): string {
  const withoutDescription = template.replace(DESCRIPTION, '');
  if (TITLE.test(withoutDescription)) return withoutDescription.replace(TITLE, () => tags);
  const at = withoutDescription.indexOf('</head>');
  return at >= 0 ? withoutDescription.slice(0, at) + tags + withoutDescription.slice(at) : withoutDescription;
}

/**
 * The head of the home and of the product pages, for shop-pages.ts (which builds each page once
 * per catalogue snapshot). The home keeps the template's description (client/index.html).
 */
export function pageMeta(publicUrl: string): PageMeta {
  const base = publicUrl.replace(/\/+$/, '');
  return (template, { kind, config, product }) => {
    const siteName = config.shopName;
    if (kind === 'home') {
      const description = summary(decodeAttribute(DESCRIPTION.exec(template)?.[1] ?? '') || siteName);
      const tags = headTags({
        title: siteName,
        shareTitle: siteName,
        description,
        url: `${base}/`,
        type: 'website',
        siteName,
        image: { url: `${base}${SHOP_ICON.path}`, alt: siteName, width: SHOP_ICON.width, height: SHOP_ICON.height },
        card: 'summary',
        jsonLd: homeJsonLd(base, siteName, description),
      });
      return replaceHead(template, tags);
    }
    if (!product) return template;
    const url = productUrl(base, product.id);
    const description = productDescription(product);
    const first = productImages(product)[0];
    const imageUrl = first ? absolute(base, sizedImageUrl(first.url, SHARE_IMAGE_WIDTH)) : null;
    const tags = headTags({
      // As the client's document title has it (client/lib/use-document-title.ts).
      title: `${product.title} · ${siteName}`,
      shareTitle: product.title,
      description,
      url,
      type: 'product',
      siteName,
      // Its size is not known (the CDN never enlarges a photo smaller than the width asked).
      image: imageUrl ? { url: imageUrl, alt: first?.alt?.trim() || product.title } : undefined,
      card: imageUrl ? 'summary_large_image' : 'summary',
      extra: [meta('property', 'product:price:amount', product.price), meta('property', 'product:price:currency', PRICE_CURRENCY)],
      jsonLd: productJsonLd(base, product, url, description),
    });
    return replaceHead(template, tags);
  };
}
