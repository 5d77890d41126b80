import { LoaderCircle, PackageOpen, RefreshCw, TriangleAlert, Wallet, WifiOff } from 'lucide-react';
import type { HTMLAttributes, ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { Button, buttonVariants } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { connectionNeededText } from '../../../lib/online-status';
import { cn } from '../../../lib/utils';
import { useWallet } from '../../wallet';
import { ORDERS_FETCH_ERROR } from '../api/get-orders';

interface OrdersStateCardProps extends HTMLAttributes<HTMLDivElement> {
  icon: ReactNode;
  /** The round icon backdrop's colours, replacing the brand ones (`cn` does not resolve conflicts). */
  iconClassName?: string;
}

/** The centred card of every state of the orders page but the list. */
export function OrdersStateCard({ icon, iconClassName, className, children, ...props }: OrdersStateCardProps) {
  return (
    <Card className={cn('mx-auto grid w-full max-w-md justify-items-center gap-3 p-6 text-center sm:p-8', className)} {...props}>
      <span
        className={cn('flex size-16 items-center justify-center rounded-full [&_svg]:size-8', iconClassName ?? 'bg-brand-soft text-brand')}
      >
        {icon}
      </span>
      {children}
    </Card>
  );
}

/** 'Connect Wallet': 'Please connect your wallet to view your order history.'; the button opens the wallet chooser. */
export function ConnectWalletCard() {
  const { status, setChooserOpen, prepare } = useWallet();
  const connecting = status === 'connecting';
  return (
    <OrdersStateCard icon={<Wallet aria-hidden />} data-testid="orders-connect-wallet">
      <h1 className="text-xl font-bold">Connect Wallet</h1>
      <p className="text-sm text-muted-foreground">Please connect your wallet to view your order history.</p>
      <Button
        size="lg"
        className="mt-2 w-full"
        disabled={connecting}
        onPointerEnter={prepare}
        onFocus={prepare}
        onClick={() => setChooserOpen(true)}
        data-testid="orders-connect-button"
      >
        {connecting ? <LoaderCircle aria-hidden className="motion-safe:animate-spin" /> : <Wallet aria-hidden />}
        {connecting ? 'Connecting...' : 'Connect Wallet'}
      </Button>
    </OrdersStateCard>
  );
}

/** 'Loading your orders...' (also while the wallet reconnects and the sign-in is read). */
export function OrdersLoading() {
  return (
    <p role="status" className="flex items-center justify-center gap-2 py-16 text-lg text-muted-foreground" data-testid="orders-loading">
      <LoaderCircle aria-hidden className="size-6 motion-safe:animate-spin" />
      Loading your orders...
    </p>
  );
}

/** 'Failed to fetch orders', with a way to try again. */
export function OrdersError({ onRetry, retrying }: { onRetry: () => void; retrying: boolean }) {
  return (
    <OrdersStateCard
      icon={<TriangleAlert aria-hidden />}
      iconClassName="bg-red-100 text-destructive"
      role="alert"
      data-testid="orders-error"
    >
      <h1 className="text-xl font-bold">{ORDERS_FETCH_ERROR}</h1>
      <Button className="mt-2" onClick={onRetry} disabled={retrying}>
        <RefreshCw aria-hidden className={retrying ? 'motion-safe:animate-spin' : undefined} />
        Try Again
      </Button>
    </OrdersStateCard>
  );
}

/** 'No Orders Found - Your order history will appear here after you make a purchase.' */
export function OrdersEmpty() {
  return (
    <OrdersStateCard icon={<PackageOpen aria-hidden />} data-testid="orders-empty">
      <h1 className="text-xl font-bold">No Orders Found</h1>
      <p className="text-sm text-muted-foreground">Your order history will appear here after you make a purchase.</p>
      <Link to="/" className={cn(buttonVariants(), 'mt-2')}>
        Continue shopping
      </Link>
    </OrdersStateCard>
  );
}

/** No connection: the order history needs the server (shown again, and read, once it answers). */
export function OrdersOffline() {
  return (
    <OrdersStateCard icon={<WifiOff aria-hidden />} iconClassName="bg-amber-50 text-amber-900" role="status" data-testid="orders-offline">
      <h1 className="text-xl font-bold">Your Orders</h1>
      <p className="text-sm text-muted-foreground">{connectionNeededText('see your orders')}</p>
    </OrdersStateCard>
  );
}
