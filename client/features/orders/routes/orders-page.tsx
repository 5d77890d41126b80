import type { ReactNode } from 'react';
import type { Order, RefundLine } from '../../../../common/api';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { useOffline } from '../../../lib/online-status';
import { useShopNames } from '../../../lib/public-config';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useAuthSession, type SigningWallet } from '../../auth';
import { useWallet } from '../../wallet';
import { isSignInRequired, ORDERS_FETCH_ERROR, useOrderHistory } from '../api/get-orders';
import { useWalletRefunds } from '../api/get-refunds';
import { OrderCard } from '../components/order-card';
import { OrderRefunds } from '../components/order-refunds';
import { OrderUpdatesToggle } from '../components/order-updates-toggle';
import { ConnectWalletCard, OrdersEmpty, OrdersError, OrdersLoading, OrdersOffline } from '../components/orders-states';
import { SignInStep } from '../components/sign-in-step';
import { orderHistoryAccess } from '../lib/order-history-access';
import { groupOrders, type OrderSectionGroup } from '../lib/order-sections';
import { ordersOfPages } from '../lib/orders-pages';

/**
 * /orders: connect a wallet, prove it once (Sign-In with
 * Ethereum), then the wallet's orders in three sections. Nothing of an order history outlives the
 * wallet it belongs to on the page: another account or a disconnect shows the first steps again.
 */
export function OrdersPage() {
  const { shopName } = useShopNames();
  useDocumentTitle('Your Orders', shopName);
  const wallet = useWallet();
  const signer: SigningWallet | null =
    wallet.status === 'connected' && wallet.address && wallet.provider ? { address: wallet.address, provider: wallet.provider } : null;
  const session = useAuthSession(signer !== null);
  const access = orderHistoryAccess({
    wallet: { status: wallet.status, address: wallet.address, hasProvider: wallet.provider !== null, silent: wallet.silent },
    session: session.data,
    sessionFailed: session.isError,
  });
  const offline = useOffline();

  let content: ReactNode;
  switch (access) {
    case 'connect':
      content = <ConnectWalletCard />;
      break;
    case 'checking':
      content = <OrdersLoading />;
      break;
    case 'session-error':
      content = <OrdersError onRetry={() => void session.refetch()} retrying={session.isFetching} />;
      break;
    case 'sign-in':
      // Keyed by wallet: a sign-in under way for the previous account does not show as this one's.
      content = signer && <SignInStep key={signer.address} signer={signer} />;
      break;
    case 'signed-in':
      content = signer && <OrderHistory address={signer.address} />;
      break;
  }

  // Offline, every step but an order history already on the page needs the server.
  if (offline && access !== 'signed-in') content = <OrdersOffline />;

  return (
    <div className="min-h-[calc(100dvh-4rem)] bg-surface">
      <div className="mx-auto grid max-w-3xl grid-cols-[minmax(0,1fr)] gap-6 px-4 py-6 sm:px-6 sm:py-10" data-testid="orders-page">
        {content}
      </div>
    </div>
  );
}

function OrderHistory({ address }: { address: string }) {
  const history = useOrderHistory(address);
  const { data, error, isFetching, refetch } = history;
  // Refunds of payments that made no order: shown when there are any; a failed read hides none of the orders.
  const { data: refunds = [] } = useWalletRefunds(address);
  const offline = useOffline();
  if (data) {
    const groups = groupOrders(ordersOfPages(data.pages));
    return groups.length === 0 && refunds.length === 0 ? (
      <OrdersEmpty />
    ) : (
      <OrderSections
        address={address}
        groups={groups}
        refunds={refunds}
        more={
          history.hasNextPage && (
            <div className="grid justify-items-center gap-2">
              <Button
                variant="outline"
                onClick={() => void history.fetchNextPage()}
                disabled={history.isFetchingNextPage}
                data-testid="orders-load-more"
              >
                {history.isFetchingNextPage ? 'Loading...' : 'Load more'}
              </Button>
              {history.isFetchNextPageError && (
                <p role="alert" className="text-center text-sm text-red-800" data-testid="orders-load-more-error">
                  {ORDERS_FETCH_ERROR}
                </p>
              )}
            </div>
          )
        }
      />
    );
  }
  // A refused read (signed out meanwhile) shows the sign-in step in a moment, not an error.
  if (offline) return <OrdersOffline />;
  if (error && !isSignInRequired(error)) return <OrdersError onRetry={() => void refetch()} retrying={isFetching} />;
  return <OrdersLoading />;
}

function OrderSections({
  address,
  groups,
  refunds,
  more,
}: {
  address: string;
  groups: OrderSectionGroup<Order>[];
  refunds: RefundLine[];
  /** 'Load more', while more orders are on the server. */
  more: ReactNode;
}) {
  return (
    <>
      <header className="grid gap-1">
        <h1 className="text-3xl font-black tracking-tight">Your Orders</h1>
        <p className="text-sm text-muted-foreground">
          Connected Wallet:{' '}
          <span className="font-mono font-semibold break-all text-foreground" data-testid="orders-wallet">
            {address}
          </span>
        </p>
      </header>
      <OrderUpdatesToggle wallet={address} />
      {groups.map(({ id, title, orders }) => (
        <section key={id} aria-labelledby={`orders-${id}`} className="grid gap-3" data-testid="order-section" data-section={id}>
          <h2 id={`orders-${id}`} className="text-lg font-bold">
            {title}
            {/* Inline, so it follows the title's last word when the title wraps. */}
            <span
              aria-hidden
              className="ml-2 inline-block rounded-full bg-muted px-2 py-0.5 align-middle text-xs font-bold text-muted-foreground tabular-nums"
            >
              {orders.length}
            </span>
          </h2>
          <ul className="grid gap-4">
            {orders.map((order) => (
              <li key={order.id}>
                <OrderCard order={order} needsShipping={id === 'needs-shipping'} />
              </li>
            ))}
          </ul>
        </section>
      ))}
      {more}
      {refunds.length > 0 && (
        <section aria-labelledby="orders-refunds" className="grid gap-3" data-testid="wallet-refunds">
          <h2 id="orders-refunds" className="text-lg font-bold">
            Refunds
          </h2>
          <p className="text-sm text-muted-foreground">Payments that did not make an order, sent back to this wallet.</p>
          <Card className="p-3">
            <OrderRefunds refunds={refunds} />
          </Card>
        </section>
      )}
    </>
  );
}

export { OrdersPage as Component };
