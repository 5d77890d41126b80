import { LoaderCircle } from 'lucide-react';
import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Outlet, useLocation } from 'react-router-dom';
import { useShopNames } from '../../../lib/public-config';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { endAdminSession, useAdminSession } from '../api/admin-session';
import { AdminAccess } from '../components/admin-access';
import { AdminNav } from '../components/admin-nav';
import { ProductManagement } from '../components/product-management';
import { LOGIN_ERROR_NOTICE, SESSION_EXPIRED_NOTICE } from '../lib/login-notice';

/**
 * /admin and its sections (spec §2 "Admin", issues 12 and 13): 'Admin Access' until the server
 * says this browser holds an admin session, then the section tabs and the section (Products,
 * Payments, Orders). The session ends on the page when its time is up or when any admin call is
 * refused for it ('Session Expired').
 */
export function AdminPage() {
  const { shopName } = useShopNames();
  // Set here for every section: a section's own title would be overwritten by this frame's (effects run child first).
  useDocumentTitle(sectionTitle(useLocation().pathname), shopName);
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

  if (session.data?.authenticated) {
    return (
      <div className="min-h-[calc(100dvh-4rem)] bg-surface">
        <AdminNav />
        <Outlet />
      </div>
    );
  }
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

/** The tab title of an admin section. */
function sectionTitle(pathname: string): string {
  if (pathname.startsWith('/admin/payments')) return 'Payments';
  if (pathname.startsWith('/admin/orders')) return 'Orders';
  return 'Admin';
}

/** /admin itself: 'Product Management'. */
export function AdminProductsPage() {
  return <ProductManagement />;
}
