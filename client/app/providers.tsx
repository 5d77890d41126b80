import { PersistQueryClientProvider } from '@tanstack/react-query-persist-client';
import { useState, type ReactNode } from 'react';
import { seedInlineData } from '../features/catalogue';
import { createQueryClient } from '../lib/query-client';
import { AppChrome } from './app-chrome';
import { createPersistOptions, saveAfterRestore } from './persistence';
import { PwaUpdatePrompt } from './pwa-update-prompt';

/** Query cache (restored from localStorage for the catalogue), toasts (their UI loads with the first) and the PWA prompt. */
export function AppProviders({ children }: { children: ReactNode }) {
  const [queryClient] = useState(() => {
    const client = createQueryClient();
    // Before the first render: the home's grid (or the product) paints (or hydrates) from the HTML's data.
    seedInlineData(client);
    return client;
  });
  const [persistOptions] = useState(createPersistOptions);
  return (
    <PersistQueryClientProvider
      client={queryClient}
      persistOptions={persistOptions}
      onSuccess={() => saveAfterRestore(queryClient, persistOptions)}
    >
      <AppChrome updatePrompt={<PwaUpdatePrompt />}>{children}</AppChrome>
    </PersistQueryClientProvider>
  );
}
