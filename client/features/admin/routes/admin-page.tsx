import { LoaderCircle } from 'lucide-react';
import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useShopNames } from '../../../lib/public-config';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { endAdminSession, useAdminSession } from '../api/admin-session';
import { AdminAccess } from '../components/admin-access';
import { ProductManagement } from '../components/product-management';
import { LOGIN_ERROR_NOTICE, SESSION_EXPIRED_NOTICE } from '../lib/login-notice';

/**
 * /admin (spec §2 "Admin", issue 12): 'Admin Access' until the server says this browser holds an
 * admin session, then 'Product Management'. The session ends on the page when its time is up
 * or when any admin call is refused for it ('Session Expired').
 */
export function AdminPage() {
  const { shopName } = useShopNames();
  useDocumentTitle('Admin', shopName);
  const session = useAdminSession();
  const queryClient = useQueryClient();
  const expiresAt = session.data?.authenticated ? session.data.expiresAt : null;

  useEffect(() => {
    if (!expiresAt) return;
    const wait = Date.parse(expiresAt) - Date.now();
    if (!Number.isFinite(wait)) return;
    // Beyond setTimeout's range the session outlives the page anyway.
    if (wait > 2 ** 31 - 1) return;
    const timer = setTimeout(() => endAdminSession(queryClient, true), Math.max(wait, 0));
    return () => clearTimeout(timer);
  }, [expiresAt, queryClient]);

  if (session.data?.authenticated) return <ProductManagement />;
  if (session.isPending) {
    return (
      <p role="status" className="flex items-center justify-center gap-2 py-16 text-lg text-muted-foreground">
        <LoaderCircle aria-hidden className="size-6 motion-safe:animate-spin" />
        Loading...
      </p>
    );
  }
  const notice = session.data?.expired ? SESSION_EXPIRED_NOTICE : session.isError ? LOGIN_ERROR_NOTICE : null;
  return <AdminAccess key={notice?.kind ?? 'none'} initialNotice={notice} />;
}
