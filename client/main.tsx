import { startTransition, StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { AppErrorBoundary } from './app/app-error-boundary';
import { AppProviders } from './app/providers';
import { AppRoutes, loadMatchedRoutes } from './app/router';
import { FirstScreenMark } from './lib/after-first-screen';
import { replayTaps, takeEarlyTaps } from './lib/early-taps';
// Chromium's install offer can come before hydration: kept from now on (the offer's UI loads later).
import './lib/install-events';
import { markServerRendered } from './lib/server-rendered';
import './styles.css';

const container = document.getElementById('root')!;
// The server rendered the home and the product pages (entry-server.tsx); the service worker's
// offline copy of index.html and every other page arrive empty.
const serverRendered = container.firstElementChild !== null;
markServerRendered(serverRendered);

async function start() {
  // The page's code (preloaded by the server's page beside this script). Hydration waits for it;
  // a page the browser renders itself shows 'Loading...' until it arrives. Without it (offline,
  // or an old page after a release) the page's Suspense tries again, and says so if it fails.
  const pageCode = loadMatchedRoutes(window.location.pathname).catch(() => undefined);
  if (serverRendered) await pageCode;
  const app = (
    <StrictMode>
      <AppErrorBoundary>
        <AppProviders>
          <BrowserRouter>
            <AppRoutes />
          </BrowserRouter>
        </AppProviders>
      </AppErrorBoundary>
      <FirstScreenMark />
    </StrictMode>
  );
  if (serverRendered) {
    const taps = takeEarlyTaps();
    // In a transition: React hydrates in slices of a few milliseconds, yielding to the browser
    // between them, instead of one long task (the page is already painted and readable). A tap
    // meanwhile makes React finish hydrating at once, then handles it.
    startTransition(() => {
      hydrateRoot(container, app);
    });
    // Tapped again now that React listens: React hydrates the part of the page each tap is on
    // at once (its replay of events on server markup), then runs the tap's handler.
    replayTaps(taps);
  } else createRoot(container).render(app);
}

void start();
