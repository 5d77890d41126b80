import { CircleAlert } from 'lucide-react';
import { useDocumentTitle } from '../../../lib/use-document-title';

/** The fallback screen for unknown routes: '404 Page Not Found' in a card with a red warning icon. */
export function NotFoundPage() {
  useDocumentTitle('Page Not Found');
  return (
    <div data-testid="not-found" className="flex min-h-[calc(100dvh-4rem)] w-full items-center justify-center bg-gray-50 px-4">
      <div className="w-full max-w-md rounded-(--radius-cap) border border-border bg-card p-6 shadow-sm">
        <div className="mb-4 flex items-center gap-2">
          <CircleAlert aria-hidden className="size-8 shrink-0 text-red-500" />
          <h1 className="text-2xl font-bold text-gray-900">404 Page Not Found</h1>
        </div>
        <p className="text-sm text-gray-600">Did you forget to add the page to the router?</p>
      </div>
    </div>
  );
}
