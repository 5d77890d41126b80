import type { Product, PublicConfig } from './api';
import type { CataloguePage } from './catalogue-view';

/**
 * The contract between the server and the client's server-rendering entry
 * (client/entry-server.tsx, built by Vite into dist-ssr/ and loaded by the server at run time;
 * the server never imports client source).
 */
export interface ShopRenderInput {
  /** The page's path with its query, e.g. `/`, `/?q=cap&sort=price-asc` or `/product/123`. */
  path: string;
  /** GET /api/config's body. */
  config: PublicConfig;
  /** The home's first page of the view its query names (exactly GET /api/catalogue/products' body). */
  cataloguePage?: CataloguePage;
  /** A product page's product (exactly GET /api/products/:id's body). */
  product?: Product;
}

/** The markup for inside `<div id="root">`, or null when the page is not one the server renders. */
export type RenderShopPage = (input: ShopRenderInput) => Promise<string | null>;

/** What dist-ssr/entry-server.js exports. */
export interface ShopRenderModule {
  renderShopPage: RenderShopPage;
}

/**
 * The global through which a server-rendered page hands the browser the buttons tapped before
 * its scripts had run (server/pages/shop-pages.ts records them; client/main.tsx replays them once the
 * page is hydrated): `window[EARLY_TAPS_GLOBAL].take()` stops recording and returns them.
 */
export const EARLY_TAPS_GLOBAL = '__pogsEarlyTaps';

/**
 * The client module of each page the server renders (a path under client/, as Vite's build
 * manifest names it; client/app/router.tsx imports exactly these). The server preloads the
 * module's chunk and its imports with the page, so the browser fetches them beside the entry
 * script instead of after it.
 */
export const SHOP_PAGE_MODULES = {
  home: 'features/catalogue/routes/shop-home-page.tsx',
  product: 'features/catalogue/routes/product-page.tsx',
  simple: 'features/catalogue/routes/simple-product-page.tsx',
} as const;

export type ShopPageKind = keyof typeof SHOP_PAGE_MODULES;
