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

/** The location the browser hydrated (the first one rendered), once known. */
let hydratedLocation: object | null = null;

/**
 * Whether the page being rendered is that server-rendered first page: true on the server, and in
 * the browser for the location it hydrated. Not for a page reached since by navigating, even to
 * the same path, nor when back returns to the first history entry (a new location, with the same
 * key 'default', that the browser renders itself).
 */
export function useOnServerRenderedPage(): boolean {
  const location = useLocation();
  if (typeof document === 'undefined') return true;
  if (!fromServer) return false;
  hydratedLocation ??= location;
  return location === hydratedLocation;
}
