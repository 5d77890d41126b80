import { Component, type ErrorInfo, type ReactNode } from 'react';

interface State {
  error: Error | null;
}

/** Last line of defence outside the router: a plain page with a reload button. */
export class AppErrorBoundary extends Component<{ children: ReactNode }, State> {
  state: State = { error: null };

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error('Unhandled error in the shop', error, info.componentStack);
  }

  render() {
    if (!this.state.error) return this.props.children;
    return (
      <div role="alert" className="flex min-h-dvh items-center justify-center bg-surface p-4">
        <div className="grid w-full max-w-md justify-items-center gap-3 rounded-(--radius-cap) border border-border bg-card p-8 text-center">
          <h1 className="text-xl font-bold">Something went wrong</h1>
          <p className="text-sm break-words text-muted-foreground">{this.state.error.message}</p>
          <button
            type="button"
            onClick={() => window.location.reload()}
            className="inline-flex h-11 items-center rounded-full bg-brand px-5 font-semibold text-brand-foreground hover:bg-brand-hover"
          >
            Reload
          </button>
        </div>
      </div>
    );
  }
}
