import { useLocation } from 'react-router-dom';

/**
 * Whether the page the visit started on came rendered from the server (the home and the product
 * pages, see entry-server.tsx) and is being hydrated, rather than rendered by the browser (any
 * other page, and every page the service worker serves from its copy of index.html). True on the
 * server itself. What the first render does differently for such a page must be the same on
 * both sides, or hydration would not match.
 */
let fromServer = typeof document === 'undefined';

/** Called once by main.tsx before the first render. */
export function markServerRendered(value: boolean): void {
  fromServer = value;
}

/**
 * Whether the page being rendered is that server-rendered first page (not one reached since by
 * navigating, even to the same path): true on the server and while the browser hydrates it.
 */
export function useOnServerRenderedPage(): boolean {
  return useLocation().key === 'default' && fromServer;
}
