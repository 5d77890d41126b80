/**
 * GET /robots.txt and GET /sitemap.xml (with its pages, /sitemap-<n>.xml, when the shop outgrows
 * one file): answered by the server itself, ahead of the built client's files and the shop's
 * index.html, from PUBLIC_URL and the catalogue's in-memory list (sitemap.ts).
 */
import { Router } from '@koa/router';
import type { Context } from 'koa';
import type { CatalogueService } from '../../modules/catalogue';
import { sitemaps, type SitemapFile, type SitemapLimits } from './sitemap';

/**
 * The shop's paths a crawler has no business in: the admin, the API, and each shopper's own pages
 * (cart, orders, an order's confirmation; client/app/router.tsx), and the local demo's Shopify
 * emulator. Everything else (the home, the product pages) is for everyone.
 */
const PRIVATE_PATHS = ['/admin', '/api/', '/cart', '/orders', '/order-confirmation', '/shopify-emulator'];

/** robots.txt's text for a shop at `publicUrl`. */
export function robotsTxt(publicUrl: string): string {
  const base = publicUrl.replace(/\/+$/, '');
  return ['User-agent: *', 'Allow: /', ...PRIVATE_PATHS.map((p) => `Disallow: ${p}`), '', `Sitemap: ${base}/sitemap.xml`, ''].join('\n');
}

function sendSitemap(ctx: Context, sitemap: SitemapFile): void {
  ctx.status = 200;
  ctx.type = 'application/xml; charset=utf-8';
  // Crawlers may keep a copy but revalidate; the ETag (it follows the catalogue) makes that a 304.
  ctx.set('Cache-Control', 'no-cache');
  ctx.set('ETag', sitemap.etag);
  ctx.vary('Accept-Encoding');
  if (ctx.fresh) {
    ctx.status = 304;
    return;
  }
  const encoding = ctx.acceptsEncodings('br', 'gzip', 'identity');
  if (encoding === 'br' || encoding === 'gzip') {
    ctx.compress = false; // compressed once per catalogue snapshot
    ctx.set('Content-Encoding', encoding);
    ctx.body = sitemap.encoded(encoding);
  } else {
    ctx.body = sitemap.body;
  }
}

export function seoRoutes(opts: { catalogue: CatalogueService; publicUrl: string; sitemapLimits?: SitemapLimits }): Router {
  const router = new Router();
  const robots = robotsTxt(opts.publicUrl);
  const sitemapFile = sitemaps(opts.catalogue, opts.publicUrl, opts.sitemapLimits);

  router.get('/robots.txt', (ctx) => {
    ctx.type = 'text/plain; charset=utf-8';
    ctx.set('Cache-Control', 'public, max-age=3600');
    ctx.body = robots;
  });
  // The index, or the one sitemap; its pages exist only while the shop needs more than one file.
  router.get(/^\/sitemap(?:-([1-9]\d{0,5}))?\.xml$/, async (ctx) => {
    const sitemap = await sitemapFile(ctx.path.slice(1));
    if (sitemap) sendSitemap(ctx, sitemap);
  });
  return router;
}
