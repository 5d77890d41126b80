import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build as esbuild } from 'esbuild';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { VitePWA } from 'vite-plugin-pwa';

const apiTarget = process.env.DEV_API_ORIGIN ?? 'http://127.0.0.1:3001';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };
/** Busts the persisted query cache when a new build ships (BUILD_ID: e.g. the commit, set by CI). */
const appVersion = process.env.BUILD_ID ? `${pkg.version}+${process.env.BUILD_ID}` : pkg.version;

/**
 * Chunks reachable only through WalletConnect's lazy import (client/web3/walletconnect.ts):
 * ~1.7 MB that only a shopper who picks WalletConnect should download, so the service worker
 * does not precache them (see workbox.manifestTransforms below).
 */
const walletConnectOnly = new Set<string>();
function findWalletConnectOnlyChunks(): Plugin {
  return {
    name: 'pogs:walletconnect-only-chunks',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = new Map<string, { imports: string[]; dynamicImports: string[] }>();
      for (const item of Object.values(bundle)) if (item.type === 'chunk') chunks.set(item.fileName, item);
      const reach = (start: string[], skip?: string) => {
        const seen = new Set<string>();
        const queue = [...start];
        while (queue.length) {
          const file = queue.pop()!;
          if (seen.has(file) || file === skip) continue;
          seen.add(file);
          const chunk = chunks.get(file);
          if (chunk) queue.push(...chunk.imports, ...chunk.dynamicImports);
        }
        return seen;
      };
      const wc = Object.values(bundle).find((c) => c.type === 'chunk' && c.facadeModuleId?.endsWith('/client/web3/walletconnect.ts'));
      if (!wc) return;
      const entries = Object.values(bundle).flatMap((c) => (c.type === 'chunk' && c.isEntry ? [c.fileName] : []));
      const rest = reach(entries, wc.fileName);
      walletConnectOnly.clear();
      for (const file of reach([wc.fileName])) if (!rest.has(file)) walletConnectOnly.add(file);
    },
  };
}

/**
 * The service worker's order news (client/sw/order-news-sw.ts), bundled on its own into a classic
 * script the generated service worker loads (workbox.importScripts below): the generated worker and
 * its caching rules stay vite-plugin-pwa's.
 */
const ORDER_NEWS_SW = 'sw-order-news.js';
function orderNewsWorker(): Plugin {
  return {
    name: 'pogs:order-news-sw',
    apply: 'build',
    async generateBundle() {
      const built = await esbuild({
        entryPoints: [fileURLToPath(new URL('./client/sw/order-news-sw.ts', import.meta.url))],
        bundle: true,
        write: false,
        format: 'iife',
        platform: 'browser',
        target: 'es2020',
        minify: true,
      });
      this.emitFile({ type: 'asset', fileName: ORDER_NEWS_SW, source: built.outputFiles[0]!.text });
    },
  };
}

const CLIENT_ENTRY = fileURLToPath(new URL('./client/main.tsx', import.meta.url));
let shell: Set<string> | undefined;
/** Every module of the shop's own the client's entry imports statically, however deep (its own file excepted). */
function shellModules(ctx: { getModuleInfo(id: string): { importedIds: readonly string[] } | null }): Set<string> {
  if (shell) return shell;
  const seen = new Set<string>();
  const queue = [CLIENT_ENTRY];
  while (queue.length) {
    const id = queue.pop()!;
    for (const next of ctx.getModuleInfo(id)?.importedIds ?? []) {
      if (seen.has(next) || next.includes('node_modules') || next.startsWith('\0')) continue;
      seen.add(next);
      queue.push(next);
    }
  }
  seen.delete(CLIENT_ENTRY);
  return (shell = seen);
}

const THEME_COLOR = '#6d28d9'; // keep equal to <meta name="theme-color"> in client/index.html

export default defineConfig(({ isSsrBuild }) => ({
  root: 'client',
  publicDir: isSsrBuild ? false : '../public',
  define: {
    __APP_VERSION__: JSON.stringify(appVersion),
  },
  // The server-rendering build (`vite build --ssr entry-server.tsx`, see client/entry-server.tsx)
  // needs React only: no stylesheet, service worker or chunk accounting of its own.
  plugins: isSsrBuild
    ? [react()]
    : [
        react(),
        findWalletConnectOnlyChunks(),
        orderNewsWorker(),
        tailwindcss(),
        VitePWA({
          registerType: 'prompt',
          // Registered from React (client/app/pwa-update-prompt.tsx via useRegisterSW).
          injectRegister: false,
          // robots.txt is the server's (it names PUBLIC_URL's sitemap): never a file of the build.
          includeAssets: ['favicon.svg', 'icons/apple-touch-icon.png', 'icons/favicon-32.png'],
          manifest: {
            id: '/',
            name: 'POGS Shop',
            short_name: 'POGS',
            description: 'Heritage merchandise priced and paid in $POGS on the Base network.',
            theme_color: THEME_COLOR,
            background_color: '#ffffff',
            display: 'standalone',
            orientation: 'portrait-primary',
            start_url: '/',
            scope: '/',
            categories: ['shopping'],
            icons: [
              { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
              { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
              { src: '/icons/icon-maskable-192.png', sizes: '192x192', type: 'image/png', purpose: 'maskable' },
              { src: '/icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
            ],
          },
          workbox: {
            globPatterns: ['**/*.{js,css,html,svg,png,ico,webmanifest,txt}'],
            // WalletConnect loads on demand only; never precache it for every visitor.
            manifestTransforms: [async (entries) => ({ manifest: entries.filter((e) => !walletConnectOnly.has(e.url)), warnings: [] })],
            navigateFallback: '/index.html',
            // Navigations the server must answer itself: the API, the Shopify emulator, an order's
            // shipping link (a redirect to Shopify's form once it exists), robots.txt and the sitemap.
            navigateFallbackDenylist: [
              /^\/api(\/|$)/,
              /^\/orders\/[^/]+\/shipping(\/|$)/,
              /^\/shopify-emulator(\/|$)/,
              /^\/robots\.txt$/,
              /^\/sitemap(-\d+)?\.xml$/,
            ],
            cleanupOutdatedCaches: true,
            // The order news' push and notificationclick handlers (orderNewsWorker above).
            importScripts: [`/${ORDER_NEWS_SW}`],
            // Take control on first install so this visit's catalogue and images are cached too.
            // Updates still wait for the shopper's "Reload" (registerType 'prompt').
            clientsClaim: true,
            runtimeCaching: [
              {
                // Catalogue (the list, its pages and facets, products) + public config: fresh when online, last
                // good answer when offline (each page by its whole URL: its view and cursor).
                urlPattern: ({ url, sameOrigin }) =>
                  sameOrigin &&
                  (url.pathname === '/api/products' ||
                    /^\/api\/products\/[^/]+$/.test(url.pathname) ||
                    url.pathname === '/api/catalogue/products' ||
                    url.pathname === '/api/catalogue/facets' ||
                    url.pathname === '/api/config'),
                handler: 'NetworkFirst',
                method: 'GET',
                options: {
                  cacheName: 'pogs-api-catalogue',
                  networkTimeoutSeconds: 5,
                  expiration: { maxEntries: 300, maxAgeSeconds: 7 * 24 * 60 * 60 },
                  cacheableResponse: { statuses: [200] },
                },
              },
              {
                // Product photos: from the emulator's CDN, Shopify's CDN, or any image request.
                urlPattern: ({ url, request }) =>
                  url.pathname.startsWith('/shopify-emulator/cdn/') ||
                  url.hostname === 'cdn.shopify.com' ||
                  (request.destination === 'image' && !url.pathname.startsWith('/api/')),
                handler: 'CacheFirst',
                options: {
                  cacheName: 'pogs-images',
                  expiration: { maxEntries: 250, maxAgeSeconds: 30 * 24 * 60 * 60, purgeOnQuotaError: true },
                  cacheableResponse: { statuses: [0, 200] },
                },
              },
              {
                // Cart, orders, checkout, admin: always live, never from a cache.
                urlPattern: ({ url, sameOrigin }) => sameOrigin && url.pathname.startsWith('/api/'),
                handler: 'NetworkOnly',
              },
            ],
          },
          devOptions: { enabled: false },
        }),
      ],
  // In the browser every `import ... from 'zod'` (the API's schemas in common/) gets zod with its
  // eval turned off (client/lib/zod-without-eval.ts) before any schema is made. The page's code
  // imports zod only where it checks an answer (the admin, the gas offer): the home never loads it.
  resolve: isSsrBuild
    ? {}
    : { alias: [{ find: /^zod$/, replacement: fileURLToPath(new URL('./client/lib/zod-without-eval.ts', import.meta.url)) }] },
  // The server-rendering entry goes beside dist/, never in it: dist/ is served to browsers.
  // The client's manifest (dist/.vite/manifest.json) tells the server each rendered page's chunks,
  // which it preloads with the page (server/pages/client-manifest.ts); koa-static serves no dot-folder.
  build: isSsrBuild
    ? { outDir: '../dist-ssr', emptyOutDir: true }
    : {
        outDir: '../dist',
        emptyOutDir: true,
        manifest: true,
        // No modulepreload polyfill (0.4 KB gzip on every first screen): every browser the shop
        // supports preloads modules itself (Chromium 66, Firefox 115, Safari 17); an older Safari
        // still runs the shop, fetching each chunk when it is imported instead of ahead.
        // The admin's pages (behind a password, on a tablet) load their shared chunks as they import
        // them instead of ahead: their lists of chunks to preload would sit in every shopper's first
        // screen (the router's code names them), for pages a shopper never opens.
        modulePreload: {
          polyfill: false,
          resolveDependencies: (filename, deps) =>
            /(^|\/)(admin-page|payments-page|admin-orders-page)-[\w-]+\.js$/.test(filename) ? [] : deps,
        },
        rolldownOptions: {
          output: {
            codeSplitting: {
              groups: [
                {
                  name: 'framework',
                  priority: 2,
                  test: /node_modules[\\/](react|react-dom|scheduler|react-router|react-router-dom|@tanstack)[\\/]/,
                },
                { name: (id, ctx) => (shellModules(ctx).has(id) ? 'shell' : null), priority: 1 },
              ],
            },
          },
        },
      },
  // The server-rendering entry carries every library it uses (React, the router, TanStack Query,
  // the UI kit), so the server needs none of the browser's packages installed at run time: they
  // are development dependencies, and the production image has only what the server imports.
  ssr: { noExternal: true },
  server: {
    port: 3000,
    proxy: {
      '/api': apiTarget,
      '/shopify-emulator': apiTarget,
    },
  },
}));
