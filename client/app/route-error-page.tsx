import { RefreshCw, TriangleAlert } from 'lucide-react';
import { isRouteErrorResponse, useRouteError } from 'react-router-dom';
import { Button } from '../components/ui/button';
import { NotFoundPage } from '../features/layout/routes/not-found-page';

/** Errors thrown while loading or rendering a route (the header stays usable). */
export function RouteErrorPage() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundPage />;
  const message = error instanceof Error ? error.message : String(error);
  // After a release the old page may ask for code files that no longer exist.
  const staleBuild = /dynamically imported module|Importing a module script failed|error loading dynamically/i.test(message);
  return (
    <div className="flex min-h-[60dvh] items-center justify-center px-4 py-10">
      <div
        role="alert"
        className="grid w-full max-w-md justify-items-center gap-3 rounded-(--radius-cap) border border-border bg-card p-8 text-center"
      >
        <TriangleAlert aria-hidden className="size-10 text-destructive" />
        <h1 className="text-xl font-bold">{staleBuild ? 'This page could not be loaded' : 'Something went wrong'}</h1>
        <p className="text-sm break-words text-muted-foreground">
          {staleBuild ? 'A new version of the shop may be available, or you may be offline. Reload to continue.' : message}
        </p>
        <Button onClick={() => window.location.reload()}>
          <RefreshCw aria-hidden />
          Reload
        </Button>
      </div>
    </div>
  );
}
