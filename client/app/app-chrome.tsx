import type { ReactNode } from 'react';
import { LazyToaster } from '../components/ui/lazy-toaster';

/**
 * The page and what sits beside it: the toast area and the update prompt. Shared by the browser
 * (providers.tsx) and the server's rendering (entry-server.tsx, without the update prompt, which
 * needs the service worker), so both build the same tree and React's ids (useId) agree when the
 * browser hydrates the server's HTML.
 */
export function AppChrome({ children, updatePrompt }: { children: ReactNode; updatePrompt: ReactNode }) {
  return (
    <>
      {children}
      <LazyToaster />
      {updatePrompt}
    </>
  );
}
