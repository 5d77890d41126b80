import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from '../../../components/ui/use-toast';
import { apiFetch } from '../../../lib/api-client';
import { endAdminSession, isAdminSessionLost } from './admin-session';

/** POST /api/admin/logout: ends the admin session on the server (every instance). */
export async function adminLogout(): Promise<void> {
  await apiFetch<unknown>('/api/admin/logout', { method: 'POST' });
}

export function useAdminLogout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['admin', 'logout'],
    mutationFn: adminLogout,
    onSuccess: () => endAdminSession(queryClient, false),
    onError: (error) => {
      // Already ended on the server: this page is logged out all the same.
      if (isAdminSessionLost(error)) endAdminSession(queryClient, false);
      else toast({ title: 'Error', description: 'An error occurred. Please try again.', variant: 'destructive' });
    },
  });
}
