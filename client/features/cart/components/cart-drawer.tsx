import { CircleCheck, Info, LoaderCircle, CirclePause, RefreshCw, Wallet, WifiOff } from 'lucide-react';
import { useRef } from 'react';
import { Link } from 'react-router-dom';
import { Button } from '../../../components/ui/button';
import { Sheet, SheetClose, SheetContent, SheetDescription, SheetTitle } from '../../../components/ui/sheet';
import { Skeleton } from '../../../components/ui/skeleton';
import { ToastAction } from '../../../components/ui/toast';
import { toast } from '../../../components/ui/use-toast';
import { formatPogAmount } from '../../../lib/format-pog-price';
import { connectionNeededText, useOffline } from '../../../lib/online-status';
import { useScreenEdge } from '../../../lib/screen-edges';
import { ToastSpace } from '../../../components/ui/toast-space';
import { shortenAddress } from '../../../../common/shorten-address';
import { useCart } from '../api/get-cart';
import { usePaymentsPaused } from '../api/payments-status';
import { CART_TOGGLE_ATTRIBUTE } from '../lib/cart-events';
import { hasPayableTotal, payPrecheck } from '../lib/pay-precheck';
import type { Cart } from '../types';
import { CartEmpty } from './cart-empty';
import { CartLineItem } from './cart-line-item';
import { UsdReferenceFigure as UsdReference } from '../../../components/ui/usd-reference-figure';

export const CART_DRAWER_ID = 'cart-drawer';

/** The drawer shows amounts in POG ('25.00 POG'); the pages use '$POGS'. */
export const formatPog = (value: string | null | undefined) => `${formatPogAmount(value)} POG`;

/** What the pay button needs from the wallet (app/ passes the wallet feature's state in). */
export interface CartDrawerWallet {
  /** A wallet is connected and its provider is available. */
  connected: boolean;
  /** Opens the wallet chooser (offered in the 'Connect Wallet' toast). */
  openChooser?: () => void;
}

/** Called when the pay pre-check passes (connected wallet, payable total). */
export type PayHandler = (cart: Cart) => void;

/** A payment under way, as the pay button shows it. */
export interface CartDrawerPayProgress {
  /** The current step ('Confirming on chain...'). */
  label: string;
  /** The transfer's hash once the wallet returned it. */
  transactionHash: string | null;
  /**
   * Once the order exists: the cart as it was paid. The drawer shows it with the success until
   * the redirect, not the emptied cart ('Your cart is empty', '0.00 POG'), which reads as a failure.
   */
  paidCart?: Cart | null;
}

interface CartDrawerPayment {
  /** Pays with the connected wallet (app/ passes the checkout feature's). */
  onPay: PayHandler;
  /** The payment under way, or null: the pay button shows its step and stays disabled. */
  progress: CartDrawerPayProgress | null;
  /** Opens "Pay from another wallet", offered whenever the cart is payable, wallet or not. */
  onPayElsewhere: PayHandler;
}

export interface CartDrawerProps extends CartDrawerPayment {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  wallet: CartDrawerWallet;
}

/**
 * The cart drawer: a non-modal sheet from the right, 3/4 of the width
 * up to a small maximum. The page behind stays scrollable and usable; Escape, the close button
 * and a tap outside close it. Focus moves in on open and back to what opened it on close.
 * Mounted in the app layout from its first opening (lazy-cart-drawer.tsx), opened by the header's
 * cart button and the 'open-cart' event.
 */
export function CartDrawer({ open, onOpenChange, wallet, ...payment }: CartDrawerProps) {
  const returnFocusRef = useRef<HTMLElement | null>(null);
  const interactedOutsideRef = useRef(false);
  const edgeRef = useScreenEdge('top');
  return (
    <Sheet open={open} onOpenChange={onOpenChange} modal={false}>
      <SheetContent
        id={CART_DRAWER_ID}
        data-testid="cart-drawer"
        width="drawer"
        className="border-l border-border"
        onOpenAutoFocus={() => {
          // Runs before focus moves in: remember where it was.
          const active = document.activeElement;
          returnFocusRef.current = active instanceof HTMLElement && active !== document.body ? active : null;
          interactedOutsideRef.current = false;
        }}
        onInteractOutside={(event) => {
          const target = event.target instanceof Element ? event.target : null;
          // The cart button toggles the drawer itself; closing here would reopen it on click.
          // A dialog opened over the drawer ("Pay from another wallet", the wallet chooser) takes
          // focus without dismissing it: closing that dialog comes back to the cart.
          if (target?.closest(`[${CART_TOGGLE_ATTRIBUTE}], [role="dialog"]`)) event.preventDefault();
          else interactedOutsideRef.current = true;
        }}
        onCloseAutoFocus={(event) => {
          const back = returnFocusRef.current;
          returnFocusRef.current = null;
          // After a tap elsewhere, focus stays where the shopper put it.
          if (!interactedOutsideRef.current && back?.isConnected) {
            event.preventDefault();
            back.focus();
          }
        }}
      >
        {/* On phones toasts show below it, clear of the title and the close button (lib/screen-edges.ts),
            in the room the space below makes for them, above the lines. A div: a header here would be
            the page's second banner landmark. */}
        <div ref={edgeRef} className="border-b border-border px-4 pt-4 pr-14 pb-3">
          <SheetTitle size="lg">Your Shopping Cart</SheetTitle>
          <SheetDescription className="mt-1">View your items and proceed to checkout</SheetDescription>
        </div>
        <ToastSpace />
        <CartDrawerBody wallet={wallet} payment={payment} />
      </SheetContent>
    </Sheet>
  );
}

function CartDrawerBody({ wallet, payment }: { wallet: CartDrawerWallet; payment: CartDrawerPayment }) {
  const { data: liveCart, isPending, isError, isFetching, refetch } = useCart();
  const offline = useOffline();
  const paidCart = payment.progress?.paidCart ?? null;
  const cart = paidCart ?? liveCart;
  const hasItems = Boolean(cart && cart.items.length > 0);

  return (
    <>
      <div className="flex-1 overflow-y-auto overscroll-contain px-4" aria-busy={isPending || undefined}>
        {paidCart && (
          <p
            role="status"
            data-testid="cart-paid"
            className="mt-3 flex items-start gap-2 rounded-2xl bg-brand-soft p-3 text-sm font-semibold text-foreground"
          >
            <CircleCheck aria-hidden className="mt-px size-5 shrink-0 text-brand" />
            Payment confirmed! Redirecting to shipping...
          </p>
        )}
        {cart ? (
          hasItems ? (
            <ul
              className="divide-y divide-border"
              aria-label={paidCart ? 'Items you paid for' : 'Items in your cart'}
              data-testid="cart-items"
            >
              {cart.items.map((item) => (
                <CartLineItem key={item.id} item={item} formatPrice={formatPog} revealRemoveOnHover removable={!paidCart} />
              ))}
            </ul>
          ) : (
            <CartDrawerEmpty />
          )
        ) : isError && offline ? (
          // No answer at all: say what is needed, not 'Failed to fetch cart' (kept for the server's failures).
          <div role="alert" data-testid="cart-offline" className="grid justify-items-center gap-3 py-10 text-center">
            <WifiOff aria-hidden className="size-8 text-muted-foreground" />
            <p className="font-semibold">{connectionNeededText('see your cart')}</p>
            <Button variant="outline" size="sm" onClick={() => void refetch()} disabled={isFetching}>
              <RefreshCw aria-hidden className={isFetching ? 'motion-safe:animate-spin' : undefined} />
              Try Again
            </Button>
          </div>
        ) : isError ? (
          <div role="alert" data-testid="cart-error" className="grid justify-items-center gap-3 py-10 text-center">
            <p className="font-semibold">Failed to fetch cart</p>
            <Button variant="outline" size="sm" onClick={() => void refetch()} disabled={isFetching}>
              <RefreshCw aria-hidden className={isFetching ? 'motion-safe:animate-spin' : undefined} />
              Try Again
            </Button>
          </div>
        ) : (
          <CartDrawerSkeleton />
        )}
      </div>
      <CartDrawerFooter cart={cart} loading={!paidCart && isPending} wallet={wallet} payment={payment} />
    </>
  );
}

interface CartDrawerFooterProps {
  cart: Cart | undefined;
  loading: boolean;
  wallet: CartDrawerWallet;
  payment: CartDrawerPayment;
}

function CartDrawerFooter({ cart, loading, wallet, payment }: CartDrawerFooterProps) {
  const { onPay, progress, onPayElsewhere } = payment;
  // Paying needs the server (balance, checkout, the order): offline the button waits for a connection.
  const offline = useOffline();
  // And the shop must see the chain to see the payment: while it cannot, paying waits.
  const paused = usePaymentsPaused() && !progress;
  const hasItems = Boolean(cart && cart.items.length > 0);
  const payable = hasItems && hasPayableTotal(cart?.total);
  const excluded = cart?.items.filter((item) => item.problem).length ?? 0;
  const pay = () => {
    const problem = payPrecheck({ walletConnected: wallet.connected, total: cart?.total });
    if (problem) {
      const openChooser = wallet.openChooser;
      toast({
        ...problem,
        variant: 'destructive',
        action:
          !wallet.connected && openChooser ? (
            <ToastAction altText="Connect a wallet" data-testid="toast-connect-wallet" onClick={openChooser}>
              Connect
            </ToastAction>
          ) : undefined,
      });
      return;
    }
    if (cart) onPay(cart);
  };

  return (
    // One column no wider than the drawer (minmax(0, 1fr)): on a 390 px phone the drawer is 292 px,
    // and the pay button's step text and a long total wrap instead of pushing the footer wider.
    <footer
      data-testid="cart-drawer-footer"
      className="grid grid-cols-[minmax(0,1fr)] gap-3 border-t border-border bg-surface px-4 pt-3 pb-[max(1rem,env(safe-area-inset-bottom))]"
    >
      <div className="flex flex-wrap items-baseline justify-between gap-x-2">
        <span className="text-sm font-semibold text-muted-foreground">Total</span>
        <span className="ml-auto text-right text-xl font-extrabold break-all text-brand tabular-nums" data-testid="cart-total">
          {loading ? '…' : formatPog(cart?.total ?? '0')}
        </span>
        {!loading && <UsdReference pogs={cart?.total} className="basis-full text-right text-xs" />}
      </div>
      {excluded > 0 && (
        <p className="text-xs text-destructive" data-testid="cart-total-note">
          {excluded === 1 ? 'The item marked above is' : `The ${excluded} items marked above are`} not included in the total.
        </p>
      )}
      <p className="flex items-start gap-1.5 text-xs text-muted-foreground" data-testid="base-network-note">
        <Info aria-hidden className="mt-px size-4 shrink-0 text-brand" />
        <span>Make sure your wallet is on the Base Network before paying.</span>
      </p>
      {offline && !progress && (
        <p role="status" className="flex items-start gap-1.5 text-sm font-medium text-amber-950" data-testid="pay-offline">
          <WifiOff aria-hidden className="mt-0.5 size-4 shrink-0" />
          <span>{connectionNeededText('pay')}</span>
        </p>
      )}
      {paused && !offline && (
        <p role="status" className="flex items-start gap-1.5 text-sm font-medium text-amber-950" data-testid="pay-paused">
          <CirclePause aria-hidden className="mt-0.5 size-4 shrink-0" />
          <span>Payments are paused: the shop cannot reach the Base network right now. Your cart is kept; try again in a few minutes.</span>
        </p>
      )}
      <div className="grid gap-1">
        <Button
          size="block-lg"
          // Busy is not unavailable: the step stays readable at (almost) full strength.
          busy={Boolean(progress)}
          data-testid="pay-button"
          data-busy={progress ? 'true' : undefined}
          aria-busy={progress ? true : undefined}
          disabled={!hasItems || progress !== null || offline || paused}
          onClick={pay}
        >
          {progress ? <LoaderCircle aria-hidden className="motion-safe:animate-spin" /> : <Wallet aria-hidden />}
          <span aria-live="polite" className="min-w-0">
            {progress?.label ?? 'Pay with POG'}
          </span>
        </Button>
        {progress?.transactionHash && (
          <p className="text-center text-xs break-all text-muted-foreground" data-testid="pay-transaction">
            Transaction <span className="font-mono">{shortenAddress(progress.transactionHash)}</span>
          </p>
        )}
        {payable && (
          <Button
            variant="link"
            size="sm"
            className="mx-auto"
            data-testid="pay-elsewhere-button"
            disabled={progress !== null || offline || paused}
            onClick={() => cart && onPayElsewhere(cart)}
          >
            Pay from another wallet
          </Button>
        )}
      </div>
    </footer>
  );
}

function CartDrawerEmpty() {
  return (
    <CartEmpty className="py-12">
      <SheetClose asChild>
        <Link
          to="/"
          className="inline-flex h-11 items-center rounded-full px-4 text-sm font-semibold text-brand hover:bg-brand-soft focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
        >
          Continue shopping
        </Link>
      </SheetClose>
    </CartEmpty>
  );
}

function CartDrawerSkeleton() {
  return (
    <div role="status" className="grid gap-4 py-4">
      <span className="sr-only">Loading your cart…</span>
      {[0, 1].map((i) => (
        <div key={i} className="flex gap-3">
          <Skeleton className="size-16 shrink-0" />
          <div className="grid flex-1 content-start gap-2">
            <Skeleton className="h-4 w-4/5" />
            <Skeleton className="h-4 w-1/2" />
          </div>
        </div>
      ))}
    </div>
  );
}
