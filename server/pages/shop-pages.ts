/**
 * The shop's first pages with their data in the HTML, so a cold visit paints the grid (or the
 * product) without waiting for the JS to ask for it: the home (`/`), the product page
 * (`/product/:id`) and the simple product page (`/products/:id`) carry the exact JSON bodies of
 * GET /api/config and, for the home, the first page of the view its URL names
 * (GET /api/catalogue/products with the URL's search, filters and sort: one page, whatever the
 * catalogue's size), for a product page GET /api/products/:id, in `<script type="application/json">`
 * tags the client seeds its query cache from (client/features/catalogue/api/inline-data.ts), and a
 * `<link rel="preload" as="image" fetchpriority="high">` for the first photo shown, with the same
 * src, srcset and sizes as the client's <img> (common/product-image-url.ts), so it is fetched once.
 *
 * Only public data goes in: the config's public answer and the listed products. Never a cart,
 * an order, a session or anything of the admin's: the page is the same for every visitor.
 *
 * Built once per catalogue snapshot and route (for the home: per view; the default view and the
 * most recent others), from the catalogue's in-memory list (no database read per request),
 * cached until the catalogue moves on. The ETag is the page's hash, so it
 * changes with the catalogue. Unknown product ids, any other path, or a catalogue that cannot be
 * read get the plain index.html (the client then fetches as before).
 */
import { createHash } from 'node:crypto';
import type { Product, PublicConfig } from '../../common/api';
import {
  CATALOGUE_PAGE_SIZE,
  filterFromSearchParams,
  filterToSearchParams,
  isDefaultFilter,
  type CatalogueFilter,
  type CataloguePage,
} from '../../common/catalogue-view';
import { EARLY_TAPS_GLOBAL, type RenderShopPage, type ShopPageKind } from '../../common/shop-render';
import { INLINE_DATA_IDS } from '../../common/inline-data';
import { productImages, responsiveImage, simplePageImageUrl, type ImageLayout } from '../../common/product-image-url';
import type { Logger } from '../lib/logger';
import { tokenBucket, type BucketSize } from '../lib/token-bucket';
import { inlineScriptSource } from '../lib/security-headers';
import type { CatalogueService, ProductListSnapshot } from '../modules/catalogue';

/**
 * The home's views other than the default kept built per catalogue snapshot (the most recently
 * asked for): a shared link's view is built once, and made-up queries cannot grow the cache.
 */
const MAX_CACHED_HOME_VIEWS = 32;

/**
 * How many of the home's views outside the cache the server renders (a process's whole budget,
 * shared by every visitor): anyone can name a new view, and each costs a render. Beyond it a view's
 * page still carries its data, and the browser renders it, so a flood of made-up searches costs
 * the server little and no shopper anything but a server-rendered first paint of a new view. The
 * default view and product pages are not counted.
 */
export const VIEW_RENDERS: BucketSize = { perSecond: 10, burst: 20 };

interface ShopPage {
  body: string;
  etag: string;
  /** The Content-Security-Policy sources of the inline scripts the server wrote into it (server/lib/security-headers.ts). */
  scriptSources: readonly string[];
}

type Route = { kind: Extract<ShopPageKind, 'home'>; view: CatalogueFilter } | { kind: Exclude<ShopPageKind, 'home'>; id: string };

/** Which shop page a path is, if it is one with data to inline. */
function routeOf(pathname: string, search: URLSearchParams): Route | null {
  if (pathname === '/') return { kind: 'home', view: filterFromSearchParams(search) };
  const match = /^\/(product|products)\/(\d{1,20})\/?$/.exec(pathname);
  if (!match) return null;
  return { kind: match[1] === 'product' ? 'product' : 'simple', id: match[2] };
}

/** JSON that can sit inside a <script> element: nothing in it can close the tag or start a comment. */
export function scriptSafeJson(json: string): string {
  return json.replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

const escapeAttribute = (value: string) => value.replace(/[&"<>]/g, (c) => ({ '&': '&amp;', '"': '&quot;', '<': '&lt;', '>': '&gt;' })[c]!);

function jsonTag(id: string, json: string): string {
  return `<script type="application/json" id="${id}">${scriptSafeJson(json)}</script>`;
}

function preloadTag(url: string | undefined, layout: ImageLayout): string {
  if (!url) return '';
  const image = responsiveImage(url, layout);
  const srcset = image.srcSet ? ` imagesrcset="${escapeAttribute(image.srcSet)}" imagesizes="${escapeAttribute(image.sizes ?? '')}"` : '';
  return `<link rel="preload" as="image" fetchpriority="high" href="${escapeAttribute(image.src)}"${srcset}>`;
}

const ENTRY_SCRIPT = /<script type="module" crossorigin src="([^"]+)"><\/script>/;
const MODULE_PRELOAD = /<link rel="modulepreload" crossorigin href="([^"]+)">/g;

/** The page's own chunks that the template does not load already (as its entry or a preload). */
function ownScripts(template: string, pageScripts: readonly string[]): string[] {
  const loaded = new Set([ENTRY_SCRIPT.exec(template)?.[1], ...[...template.matchAll(MODULE_PRELOAD)].map((m) => m[1])]);
  return pageScripts.filter((href) => !loaded.has(href));
}

const ROOT_OPEN = '<div id="root">';
const EMPTY_ROOT = `${ROOT_OPEN}</div>`;

/**
 * A page that arrives rendered needs its scripts for taps, not for its first paint. The template's
 * entry script and module preloads leave its head; a small module at the end of the body starts
 * them once the page has painted (a frame, then a task; at the latest after 1.5 s), so neither
 * their download nor their evaluation holds the first paint back. Until the page is hydrated it
 * records the buttons tapped (a tap on a button that has no handler yet would be lost), which the
 * client replays once hydrated (client/main.tsx). The page's own chunks (`pageScripts`, which
 * the entry would only ask for once it has run) are preloaded with the entry's. Returns the head
 * without the scripts, the loader for the end of the body and the loader's text (the page's
 * policy allows it by its hash); a template without an entry script is left as it is.
 */
function scriptsAfterFirstPaint(head: string, pageScripts: readonly string[]): { head: string; loader: string; script: string } {
  const entry = ENTRY_SCRIPT.exec(head);
  if (!entry) return { head, loader: '', script: '' };
  const preloads = [...[...head.matchAll(MODULE_PRELOAD)].map((m) => m[1]), ...pageScripts];
  const rest = head.replace(entry[0], '').replace(MODULE_PRELOAD, '');
  const script = `
const taps = new Set();
const record = (event) => {
  const button = event.target instanceof Element ? event.target.closest('button') : null;
  if (button && !button.disabled) taps.add(button);
};
document.addEventListener('click', record, true);
window.${EARLY_TAPS_GLOBAL} = { take() { document.removeEventListener('click', record, true); return [...taps]; } };
let started = false;
const start = () => {
  if (started) return;
  started = true;
  // A script element, not import(): one added before the load event holds it until it has run.
  const script = document.createElement('script');
  script.type = 'module';
  script.crossOrigin = '';
  script.src = ${JSON.stringify(entry[1])};
  document.head.append(script);
  // The entry's imports, fetched alongside it rather than once it has arrived; one link a task
  // (each costs the main thread a little, all of them at once a long task).
  for (const href of ${JSON.stringify(preloads)}) {
    setTimeout(() => {
      const link = document.createElement('link');
      link.rel = 'modulepreload';
      link.crossOrigin = '';
      link.href = href;
      document.head.append(link);
    });
  }
};
requestAnimationFrame(() => setTimeout(start));
setTimeout(start, 1500);
`;
  return { head: rest, loader: `<script type="module">${script}</script>`, script };
}

/**
 * `head` before </head> (else with the rest), `body` before </body> (else at the end), and the
 * server-rendered `markup` inside the empty `<div id="root"></div>` (none when it has none). The
 * page's own chunks are preloaded: by the loader with a rendered page, else by links in the head
 * (the browser renders that page itself, with the template's scripts as they are).
 */
function inject(
  template: string,
  head: string,
  body: string,
  markup: string,
  pageScripts: readonly string[],
): { html: string; scripts: string[] } {
  const own = ownScripts(template, pageScripts);
  const rootAt = markup ? template.indexOf(EMPTY_ROOT) : -1;
  const at = rootAt + ROOT_OPEN.length;
  let page = template;
  let tail = body;
  const scripts: string[] = [];
  if (rootAt >= 0) {
    const loading = scriptsAfterFirstPaint(template.slice(0, at), own);
    page = loading.head + markup + template.slice(at);
    tail += loading.loader;
    if (loading.script) scripts.push(loading.script);
  } else {
    head += own.map((href) => `<link rel="modulepreload" crossorigin href="${escapeAttribute(href)}">`).join('');
  }
  const headAt = page.indexOf('</head>');
  let html = headAt >= 0 ? page.slice(0, headAt) + head + page.slice(headAt) : page;
  const rest = headAt >= 0 ? tail : head + tail;
  const bodyAt = html.lastIndexOf('</body>');
  html = bodyAt >= 0 ? html.slice(0, bodyAt) + rest + html.slice(bodyAt) : html + rest;
  return { html, scripts };
}

/** Drops the least recently used home views beyond MAX_CACHED_HOME_VIEWS (the default view and product pages stay). */
function forgetOldViews(pages: Map<string, unknown>): void {
  const views = [...pages.keys()].filter((key) => key.startsWith('home:') && key !== 'home:');
  for (const key of views.slice(0, Math.max(0, views.length - MAX_CACHED_HOME_VIEWS))) pages.delete(key);
}

const etagOf = (body: string) => `W/"${createHash('sha1').update(body).digest('base64url')}"`;

export interface ShopPagesOptions {
  /** The built index.html. */
  template: string;
  catalogue: CatalogueService;
  /** GET /api/config's body. */
  publicConfig: () => PublicConfig;
  logger: Logger;
  /**
   * Renders the page's markup (the client's server-rendering entry, loaded from dist-ssr/), or
   * null/absent: the page then carries its data only and the browser renders it. A page whose
   * rendering fails is served the same way (and the failure logged).
   */
  render?: () => Promise<RenderShopPage | null>;
  /** The URLs of a page's own chunks, preloaded with it (server/pages/client-manifest.ts); none by default. */
  pageScripts?: (kind: ShopPageKind) => readonly string[];
  /**
   * The template with the page's head (title, description, canonical, share tags, structured
   * data: server/pages/seo/page-meta.ts) in place of its own; the template as it is when absent.
   */
  meta?: (template: string, page: { kind: ShopPageKind; config: PublicConfig; product?: Product }) => string;
  /** The renders of new home views allowed (VIEW_RENDERS unless a test asks for another). */
  viewRenders?: BucketSize;
}

/**
 * The page for a path: its HTML with the data inlined, or null when the path is not one of the
 * pages with data (the caller serves the plain index.html as before).
 */
export function shopPages(opts: ShopPagesOptions): (pathname: string, search?: URLSearchParams) => Promise<ShopPage | null> {
  const plain: ShopPage = { body: opts.template, etag: etagOf(opts.template), scriptSources: [] };

  const renderMarkup = async (input: Parameters<RenderShopPage>[0]): Promise<string> => {
    try {
      const render = await opts.render?.();
      return (render && (await render(input))) ?? '';
    } catch (err) {
      opts.logger.error({ err, path: input.path }, 'shop page served without its server rendering: rendering failed');
      return '';
    }
  };
  // One map per catalogue snapshot: a newer snapshot starts afresh and the old pages go with it.
  const built = new WeakMap<ProductListSnapshot, Map<string, Promise<ShopPage>>>();

  const viewRenders = tokenBucket(opts.viewRenders ?? VIEW_RENDERS);

  const build = async (snap: ProductListSnapshot, route: Route, path: string, rendered = true): Promise<ShopPage> => {
    const config = opts.publicConfig();
    const configJson = JSON.stringify(config);
    let head: string;
    let body = jsonTag(INLINE_DATA_IDS.config, configJson);
    let markup = '';
    if (route.kind === 'home') {
      // The view's first page: GET /api/catalogue/products's stored answer, the same size at any catalogue size.
      const pageJson = (await opts.catalogue.pages.page(snap, { ...route.view, limit: CATALOGUE_PAGE_SIZE })).body.toString();
      const page = JSON.parse(pageJson) as CataloguePage;
      const first = page.products[0];
      head = first ? preloadTag(productImages(first)[0]?.url, 'card') : '';
      body += jsonTag(INLINE_DATA_IDS.cataloguePage, pageJson);
      // From the very bytes the page carries, so the server renders what the browser will hydrate.
      if (rendered) markup = await renderMarkup({ path, config, cataloguePage: page });
    } else {
      const product: Product | undefined = snap.byId.get(route.id);
      if (!product) return plain;
      head =
        route.kind === 'product'
          ? preloadTag(productImages(product)[0]?.url, 'productPage')
          : preloadTag(simplePageImageUrl(product), 'simplePage');
      const productJson = JSON.stringify(product);
      body += jsonTag(INLINE_DATA_IDS.product, productJson);
      markup = await renderMarkup({ path, config, product: JSON.parse(productJson) as Product });
    }
    const shown = route.kind === 'home' ? undefined : snap.byId.get(route.id);
    const template = opts.meta?.(opts.template, { kind: route.kind, config, product: shown }) ?? opts.template;
    const { html, scripts } = inject(template, head, body, markup, opts.pageScripts?.(route.kind) ?? []);
    return { body: html, etag: etagOf(html), scriptSources: scripts.map(inlineScriptSource) };
  };

  return async (pathname, search = new URLSearchParams()) => {
    const route = routeOf(pathname, search);
    if (!route) return null;
    let snap: ProductListSnapshot;
    try {
      snap = await opts.catalogue.list();
    } catch (err) {
      opts.logger.warn({ err }, 'shop page served without its data: the catalogue could not be read');
      return plain;
    }
    let pages = built.get(snap);
    if (!pages) built.set(snap, (pages = new Map()));
    // The home's view as its one URL (the order and anything else in the query aside).
    const query = route.kind === 'home' ? filterToSearchParams(route.view).toString() : '';
    const key = route.kind === 'home' ? `home:${query}` : `${route.kind}:${route.id}`;
    // Unknown ids are not remembered: a stranger's made-up ids must not grow the map.
    if (route.kind !== 'home' && !snap.byId.has(route.id)) return plain;
    let page = pages.get(key);
    if (page && route.kind === 'home' && !isDefaultFilter(route.view)) {
      // Most recently used last: the oldest view goes first.
      pages.delete(key);
      pages.set(key, page);
    }
    if (!page) {
      const path =
        route.kind === 'home' ? (query ? `/?${query}` : '/') : `/${route.kind === 'product' ? 'product' : 'products'}/${route.id}`;
      // Over the budget for new views: the data only, and not kept (a later visit may render it).
      if (route.kind === 'home' && !isDefaultFilter(route.view) && !viewRenders.take()) return build(snap, route, path, false);
      // Concurrent first visits share one rendering.
      page = build(snap, route, path);
      pages.set(key, page);
      if (route.kind === 'home' && !isDefaultFilter(route.view)) forgetOldViews(pages);
    }
    return page;
  };
}
