import { LoaderCircle, WifiOff } from 'lucide-react';
import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Outlet, useLocation } from 'react-router-dom';
import { Card } from '../../../components/ui/card';
import { connectionNeededText, useOffline } from '../../../lib/online-status';
import { useShopNames } from '../../../lib/public-config';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { endAdminSession, useAdminSession } from '../api/admin-session';
import { AdminAccess } from '../components/admin-access';
import { AdminNav } from '../components/admin-nav';
import { ProductManagement } from '../components/product-management';
import { LOGIN_ERROR_NOTICE, SESSION_EXPIRED_NOTICE } from '../lib/login-notice';

/**
 * /admin and its sections: 'Admin Access' until the server
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
  const offline = useOffline();

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
  // Signing in needs the server: say so rather than wait or fail ('An error occurred').
  if (offline) return <AdminOffline />;
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

function AdminOffline() {
  return (
    <div className="flex min-h-[calc(100dvh-4rem)] items-start justify-center bg-surface px-4 py-10 sm:items-center">
      <Card role="status" className="grid w-full max-w-md justify-items-center gap-3 p-6 text-center sm:p-8" data-testid="admin-offline">
        <span className="flex size-14 items-center justify-center rounded-full bg-amber-50 text-amber-900 [&_svg]:size-7">
          <WifiOff aria-hidden />
        </span>
        <h1 className="text-2xl font-black tracking-tight">Admin Access</h1>
        <p className="text-sm text-muted-foreground">{connectionNeededText('manage the shop')}</p>
      </Card>
    </div>
  );
}

/** The tab title of an admin section. */
function sectionTitle(pathname: string): string {
  if (pathname.startsWith('/admin/payments')) return 'Payments';
  if (pathname.startsWith('/admin/orders')) return 'Orders';
  if (pathname.startsWith('/admin/webhooks')) return 'Webhooks';
  return 'Admin';
}

/** /admin itself: 'Product Management'. */
export function AdminProductsPage() {
  return <ProductManagement />;
}
