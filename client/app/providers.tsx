import { PersistQueryClientProvider } from '@tanstack/react-query-persist-client';
import { useState, type ReactNode } from 'react';
import { LazyToaster } from '../components/ui/lazy-toaster';
import { createQueryClient } from '../lib/query-client';
import { createPersistOptions } from './persistence';
import { PwaUpdatePrompt } from './pwa-update-prompt';

/** Query cache (restored from localStorage for the catalogue), toasts (their UI loads with the first) and the PWA prompt. */
export function AppProviders({ children }: { children: ReactNode }) {
  const [queryClient] = useState(createQueryClient);
  const [persistOptions] = useState(createPersistOptions);
  return (
    <PersistQueryClientProvider client={queryClient} persistOptions={persistOptions}>
      {children}
      <LazyToaster />
      <PwaUpdatePrompt />
    </PersistQueryClientProvider>
  );
}
