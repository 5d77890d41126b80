/**
 * The shop's sitemap (the sitemaps.org protocol, https://www.sitemaps.org/protocol.html): the home
 * and every listed product's page (`/product/:id`, the canonical one), each with the time its
 * product last changed. A file holds at most 50,000 addresses and 50 MB (uncompressed); past
 * either, `/sitemap.xml` is a sitemap index naming `/sitemap-1.xml`, `/sitemap-2.xml`, … each
 * within both limits.
 *
 * Built from the catalogue's in-memory list (only what shoppers can see: a hidden product or one
 * with no listed variant is in no list), once per catalogue snapshot: every file, its ETag and its
 * compressed bytes are kept until the catalogue moves on, so a request builds nothing.
 */
import { createHash } from 'node:crypto';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import type { CatalogueService, ProductListSnapshot } from '../../modules/catalogue';
import { productUrl } from './page-meta';

/** The protocol's limits for one file. */
const MAX_URLS = 50_000;
const MAX_BYTES = 50 * 1024 * 1024;

const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';
const NAMESPACE = 'http://www.sitemaps.org/schemas/sitemap/0.9';

export interface SitemapLimits {
  /** Most addresses in one file (the protocol's 50,000 unless a test asks for fewer). */
  maxUrls?: number;
  /** Most bytes in one file, uncompressed (the protocol's 50 MB unless a test asks for fewer). */
  maxBytes?: number;
}

export interface SitemapFile {
  body: string;
  etag: string;
  /** The body compressed, once per file and coding. */
  encoded(encoding: 'br' | 'gzip'): Buffer;
}

const escapeXml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);

const entry = (tag: 'url' | 'sitemap', loc: string, lastmod: string | undefined) =>
  `<${tag}><loc>${escapeXml(loc)}</loc>${lastmod ? `<lastmod>${escapeXml(lastmod)}</lastmod>` : ''}</${tag}>\n`;

function file(body: string): SitemapFile {
  const cache: Partial<Record<'br' | 'gzip', Buffer>> = {};
  return {
    body,
    etag: `"${createHash('sha1').update(body).digest('base64url')}"`,
    encoded: (encoding) =>
      (cache[encoding] ??=
        encoding === 'br'
          ? brotliCompressSync(body, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 9 } })
          : gzipSync(body, { level: 9 })),
  };
}

/** The newest of ISO 8601 times (they sort as strings when written alike, as toISOString does). */
const newest = (times: readonly string[]) => times.reduce<string | undefined>((a, b) => (a === undefined || b > a ? b : a), undefined);

/** Every sitemap file of one catalogue snapshot, by name (`sitemap.xml`, `sitemap-<n>.xml`). */
function buildSitemaps(snap: ProductListSnapshot, publicUrl: string, limits: Required<SitemapLimits>): Map<string, SitemapFile> {
  const urls = [
    // The home shows every product: it changed when the newest of them did.
    { loc: `${publicUrl}/`, lastmod: newest(snap.products.map((p) => p.updatedAt)) },
    ...snap.products.map((p) => ({ loc: productUrl(publicUrl, p.id), lastmod: p.updatedAt })),
  ].map((u) => ({ lastmod: u.lastmod, text: entry('url', u.loc, u.lastmod) }));
  const open = `${XML_DECLARATION}<urlset xmlns="${NAMESPACE}">\n`;
  const close = '</urlset>\n';
  const envelope = Buffer.byteLength(open) + Buffer.byteLength(close);

  // Greedily, in the catalogue's order: a page ends when the next address would pass either limit.
  const pages: Array<typeof urls> = [[]];
  let bytes = envelope;
  for (const url of urls) {
    const size = Buffer.byteLength(url.text);
    const page = pages[pages.length - 1];
    if (page.length > 0 && (page.length >= limits.maxUrls || bytes + size > limits.maxBytes)) {
      pages.push([url]);
      bytes = envelope + size;
    } else {
      page.push(url);
      bytes += size;
    }
  }
  const urlset = (page: typeof urls) => file(open + page.map((u) => u.text).join('') + close);
  if (pages.length === 1) return new Map([['sitemap.xml', urlset(pages[0])]]);

  const files = new Map<string, SitemapFile>();
  const index = pages.map((page, i) => {
    files.set(`sitemap-${i + 1}.xml`, urlset(page));
    return entry('sitemap', `${publicUrl}/sitemap-${i + 1}.xml`, newest(page.flatMap((u) => u.lastmod ?? [])));
  });
  files.set('sitemap.xml', file(`${XML_DECLARATION}<sitemapindex xmlns="${NAMESPACE}">\n${index.join('')}</sitemapindex>\n`));
  return files;
}

/**
 * The sitemap file of a name (`sitemap.xml`, `sitemap-<n>.xml`) as the catalogue is now, or null
 * when there is none of that name. The catalogue's errors are thrown (the error handler answers).
 */
export function sitemaps(
  catalogue: Pick<CatalogueService, 'list'>,
  publicUrl: string,
  limits: SitemapLimits = {},
): (name: string) => Promise<SitemapFile | null> {
  const base = publicUrl.replace(/\/+$/, '');
  const resolved = { maxUrls: limits.maxUrls ?? MAX_URLS, maxBytes: limits.maxBytes ?? MAX_BYTES };
  // One set of files per catalogue snapshot: a newer snapshot starts afresh and the old files go with it.
  const built = new WeakMap<ProductListSnapshot, Map<string, SitemapFile>>();
  return async (name) => {
    const snap = await catalogue.list();
    let files = built.get(snap);
    if (!files) built.set(snap, (files = buildSitemaps(snap, base, resolved)));
    return files.get(name) ?? null;
  };
}
