/**
 * Server rendering of the shop's first pages (the home and the product pages), so a cold visit
 * paints the header, the hero and the grid from the HTML, before any JavaScript has run. Vite
 * builds this file for Node (`vite build --ssr`, into dist-ssr/); the server loads the result at
 * run time (server/pages/shop-pages.ts) and renders each page once per catalogue snapshot from the
 * data it also inlines for the browser, which hydrates the same tree (main.tsx).
 *
 * The tree is the browser's: the same routes, error boundary, page chrome (app/app-chrome.tsx)
 * and the same query cache contents (seeded as the browser seeds them), minus the service
 * worker's update prompt. No visitor's state is involved (no cart, wallet or session): the page
 * is the same for everyone.
 */
import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { StaticRouter } from 'react-router-dom';
import type { RenderShopPage } from '../common/shop-render';
import { AppChrome } from './app/app-chrome';
import { AppErrorBoundary } from './app/app-error-boundary';
import { AppRoutes, loadMatchedRoutes } from './app/router';
import { seedShopData } from './features/catalogue';
import { FirstScreenMark } from './lib/after-first-screen';
import { createQueryClient } from './lib/query-client';

export const renderShopPage: RenderShopPage = async ({ path, config, cataloguePage, product }) => {
  // The page's code in first, as the browser loads it before hydrating: it renders at once.
  const url = new URL(path, 'http://shop.invalid');
  await loadMatchedRoutes(url.pathname);
  const queryClient = createQueryClient();
  seedShopData(queryClient, { config, cataloguePage: cataloguePage && { search: url.search, page: cataloguePage }, product });
  const html = renderToString(
    <StrictMode>
      <AppErrorBoundary>
        <QueryClientProvider client={queryClient}>
          <AppChrome updatePrompt={null}>
            <StaticRouter location={path}>
              <AppRoutes />
            </StaticRouter>
          </AppChrome>
        </QueryClientProvider>
      </AppErrorBoundary>
      <FirstScreenMark />
    </StrictMode>,
  );
  queryClient.clear();
  return html;
};
