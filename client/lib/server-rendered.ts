import { useEffect } from 'react';
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

/** The location the browser hydrated (the one its committed first render holds), once known. */
let hydratedLocation: object | null = null;
/** Whether a render of the hydrated page has been committed (its effects have run). */
let hydrationCommitted = false;

/**
 * Whether the page being rendered is that server-rendered first page: true on the server, and in
 * the browser for the location it hydrated. Not for a page reached since by navigating, even to
 * the same path, nor when back returns to the first history entry (a new location, with the same
 * key 'default', that the browser renders itself).
 *
 * Until hydration commits, every render is of the hydrated page: React hydrates in slices and may
 * throw a render away and start it again (an update arrived, a tap came), and the router then
 * makes its first location anew, a different object for the same page. The location a render
 * holds when the commit comes is the one kept.
 */
export function useOnServerRenderedPage(): boolean {
  const location = useLocation();
  useEffect(() => {
    hydrationCommitted = true;
  }, []);
  if (typeof document === 'undefined') return true;
  if (!fromServer) return false;
  if (!hydrationCommitted) {
    hydratedLocation = location;
    return true;
  }
  return location === hydratedLocation;
}
