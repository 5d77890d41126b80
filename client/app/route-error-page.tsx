import { RefreshCw, TriangleAlert } from 'lucide-react';
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { Button } from '../components/ui/button';

interface BoundaryProps {
  /** The page's path: moving to another page clears the error. */
  pathname: string;
  children: ReactNode;
}

interface BoundaryState {
  error: unknown;
  pathname: string;
}

/**
 * Errors thrown while loading or rendering a page, caught inside the layout so the header stays
 * usable; the next page starts afresh.
 */
export class RouteErrorBoundary extends Component<BoundaryProps, BoundaryState> {
  state: BoundaryState = { error: null, pathname: this.props.pathname };

  static getDerivedStateFromError(error: unknown): Partial<BoundaryState> {
    return { error: error ?? new Error('Unknown error') };
  }

  static getDerivedStateFromProps(props: BoundaryProps, state: BoundaryState): Partial<BoundaryState> | null {
    return props.pathname === state.pathname ? null : { error: null, pathname: props.pathname };
  }

  componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error('Error on a page of the shop', error, info.componentStack);
  }

  render() {
    return this.state.error ? <RouteErrorPage error={this.state.error} /> : this.props.children;
  }
}

function RouteErrorPage({ error }: { error: unknown }) {
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
