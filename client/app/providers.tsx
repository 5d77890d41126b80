import { PersistQueryClientProvider } from '@tanstack/react-query-persist-client';
import { useState, type ReactNode } from 'react';
import { Toaster } from '../components/ui/toast';
import { createQueryClient } from '../lib/query-client';
import { createPersistOptions } from './persistence';
import { PwaUpdatePrompt } from './pwa-update-prompt';

/** Query cache (restored from localStorage for the catalogue), toasts and the PWA prompt. */
export function AppProviders({ children }: { children: ReactNode }) {
  const [queryClient] = useState(createQueryClient);
  const [persistOptions] = useState(createPersistOptions);
  return (
    <PersistQueryClientProvider client={queryClient} persistOptions={persistOptions}>
      {children}
      <Toaster />
      <PwaUpdatePrompt />
    </PersistQueryClientProvider>
  );
}
