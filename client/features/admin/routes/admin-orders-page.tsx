import { ChevronRight, LoaderCircle, RefreshCw, Search, TriangleAlert } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { AdminOrder } from '../../../../common/payments-desk';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Input } from '../../../components/ui/input';
import { OrderStatusBadge } from '../../../components/ui/order-status-badge';
import { orderStatusStyle } from '../../../lib/order-status';
import { shortenAddress } from '../../../../common/shorten-address';
import { adminErrorText } from '../api/admin-errors';
import { useAdminOrders, type AdminOrdersFilter } from '../api/admin-orders';
import { OrderDetailSheet } from '../components/order-detail-sheet';
import { LoadMore, Pog, When } from '../components/desk-bits';
import { ADMIN_ORDER_STATUSES, draftStateText, isPositiveAmount, orderFlagsText } from '../lib/admin-order-text';

/**
 * /admin/orders: every order, newest first, by status or searched by id, payer or
 * transaction; 50 at a time. An order opens in a sheet (?order=<id>, so the queue can link to it).
 */
export function AdminOrdersPage() {
  const [params, setParams] = useSearchParams();
  const [filter, setFilter] = useState<AdminOrdersFilter>({ status: '', q: '' });
  const [typed, setTyped] = useState('');
  const orders = useAdminOrders(filter);
  const openId = params.get('order');
  const rows = orders.data?.pages.flatMap((page) => page.orders);

  const setOpen = (id: string | null) => {
    const next = new URLSearchParams(params);
    if (id) next.set('order', id);
    else next.delete('order');
    setParams(next);
  };
  const search = (event: FormEvent) => {
    event.preventDefault();
    setFilter((f) => ({ ...f, q: typed.trim() }));
  };

  return (
    <div className="mx-auto grid max-w-5xl grid-cols-[minmax(0,1fr)] gap-5 px-4 py-6 sm:px-6" data-testid="admin-orders-page">
      <h1 className="text-3xl font-black tracking-tight">Orders</h1>
      <form role="search" className="flex gap-2" onSubmit={search}>
        <label className="relative block min-w-0 flex-1" htmlFor="orders-search">
          <span className="sr-only">Order id, payer or transaction</span>
          <Search aria-hidden className="pointer-events-none absolute top-1/2 left-3 size-5 -translate-y-1/2 text-muted-foreground" />
          <Input
            id="orders-search"
            type="search"
            placeholder="Order id, payer or transaction"
            value={typed}
            maxLength={80}
            onChange={(e) => {
              setTyped(e.target.value);
              if (!e.target.value.trim()) setFilter((f) => ({ ...f, q: '' }));
            }}
            enterKeyHint="search"
            className="pl-10"
            data-testid="orders-search"
          />
        </label>
        {/* A magnifier on phones, so the search field keeps the width its placeholder needs. */}
        <Button type="submit" variant="outline" className="max-sm:w-11 max-sm:px-0" data-testid="orders-search-submit">
          <Search aria-hidden className="sm:hidden" />
          <span className="max-sm:sr-only">Search</span>
        </Button>
      </form>
      <div role="group" aria-label="Status" className="flex flex-wrap gap-2">
        {['', ...ADMIN_ORDER_STATUSES].map((status) => (
          <Button
            key={status || 'all'}
            size="sm"
            variant={filter.status === status ? 'default' : 'outline'}
            aria-pressed={filter.status === status}
            onClick={() => setFilter((f) => ({ ...f, status }))}
            data-testid={`orders-filter-${status || 'all'}`}
          >
            {status ? orderStatusStyle(status).label : 'All'}
          </Button>
        ))}
      </div>

      {rows === undefined && orders.isError && (
        <Card role="alert" className="grid justify-items-start gap-2 p-5">
          <p className="flex items-center gap-2 font-semibold">
            <TriangleAlert aria-hidden className="size-5 text-destructive" /> Could not load the orders
          </p>
          <p className="text-sm break-words text-muted-foreground">{adminErrorText(orders.error, orders.error.message)}</p>
          <Button variant="outline" onClick={() => void orders.refetch()} disabled={orders.isFetching}>
            <RefreshCw aria-hidden className={orders.isFetching ? 'motion-safe:animate-spin' : undefined} />
            Try again
          </Button>
        </Card>
      )}
      {rows === undefined && !orders.isError && (
        <p role="status" className="flex items-center justify-center gap-2 py-12 text-muted-foreground">
          <LoaderCircle aria-hidden className="size-6 motion-safe:animate-spin" /> Loading...
        </p>
      )}
      {rows?.length === 0 && (
        <Card className="p-8 text-center text-lg font-bold" data-testid="orders-empty">
          {filter.q || filter.status ? 'No orders match' : 'No orders yet'}
        </Card>
      )}
      {rows && rows.length > 0 && (
        <ol className="grid grid-cols-1 gap-3 md:grid-cols-2" data-testid="admin-orders">
          {rows.map((order) => (
            <li key={order.id}>
              <OrderRow order={order} onOpen={() => setOpen(order.id)} />
            </li>
          ))}
        </ol>
      )}
      <LoadMore pages={orders} failText="Could not load more orders. Try again." testId="orders-load-more" />

      <OrderDetailSheet orderId={openId} onClose={() => setOpen(null)} />
    </div>
  );
}

function OrderRow({ order, onOpen }: { order: AdminOrder; onOpen: () => void }) {
  const flags = orderFlagsText(order.flags);
  const refunded = isPositiveAmount(order.refunded);
  return (
    <button
      type="button"
      onClick={onOpen}
      className="grid w-full gap-2 rounded-(--radius-cap) border border-border bg-card p-4 text-left shadow-sm hover:bg-muted/50 focus-visible:outline-2 focus-visible:outline-ring"
      data-testid="admin-order"
      data-order-id={order.id}
      data-status={order.status}
    >
      <span className="flex items-start justify-between gap-2">
        <span className="min-w-0 font-mono text-sm font-semibold break-all">{order.id}</span>
        <OrderStatusBadge status={order.status} className="shrink-0" />
      </span>
      <span className="grid grid-cols-2 gap-x-3 gap-y-0.5 text-sm">
        <span className="text-muted-foreground">Total</span>
        <Pog amount={order.total} className="text-right font-semibold" />
        <span className="text-muted-foreground">Paid</span>
        <Pog amount={order.amountPaid} className="text-right" />
        {order.usdAtPayment && (
          <>
            <span className="text-muted-foreground">At payment</span>
            <span className="text-right text-muted-foreground tabular-nums">≈ ${order.usdAtPayment}</span>
          </>
        )}
        {refunded && (
          <>
            <span className="text-muted-foreground">Refunded</span>
            <Pog amount={order.refunded} className="text-right" testId="admin-order-refunded" />
          </>
        )}
        <span className="text-muted-foreground">Payer</span>
        <span className="text-right font-mono" title={order.payer}>
          {shortenAddress(order.payer)}
        </span>
        <span className="text-muted-foreground">Shopify</span>
        <span className="text-right">{draftStateText(order)}</span>
      </span>
      {flags.length > 0 && <span className="text-xs font-semibold text-yellow-900">{flags.join(' · ')}</span>}
      {order.handoff?.lastError && !order.handoff.done && (
        <span className="rounded-lg bg-red-50 px-2 py-1 text-xs break-words text-red-900" data-testid="admin-order-handoff-error">
          Hand-off failed: {order.handoff.lastError}
        </span>
      )}
      <span className="flex items-center justify-between text-xs text-muted-foreground">
        <span>
          Paid <When at={order.paidAt} />
        </span>
        <ChevronRight aria-hidden className="size-4" />
      </span>
    </button>
  );
}
