import { useMutation, useQueryClient } from '@tanstack/react-query';
import { RefreshCw, TriangleAlert } from 'lucide-react';
import { useEffect, useEffectEvent, useState } from 'react';
import type { Cart, Checkout } from '../../../../common/api';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '../../../components/ui/dialog';
import { Skeleton } from '../../../components/ui/skeleton';
import { ApiError, apiErrorText } from '../../../lib/api-client';
import { createCheckout } from '../api/create-checkout';
import { checkoutQueryKey } from '../api/get-checkout';
import { canReuseCheckout, cartSignature } from '../lib/pay-elsewhere';
import { PaymentRequest } from './payment-request';

export interface PayElsewhereDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The cart the shopper is paying for (the dialog makes a checkout of the session's cart). */
  cart: Cart;
  /** The payment arrived and the order exists (the server emptied the cart). */
  onPaid: () => void;
}

interface Current {
  checkout: Checkout;
  signature: string;
}

/**
 * "Pay from another wallet" (a bottom sheet on phones): a checkout with no customer wallet, whose
 * exact amount any wallet can send to the store wallet, by QR code or by a link that opens the
 * wallet app. The server's chain watcher spots the transfer; the dialog follows the checkout.
 * Reopened for the same cart while the checkout is still open, it shows the same one.
 */
export function PayElsewhereDialog({ open, onOpenChange, cart, onPaid }: PayElsewhereDialogProps) {
  const [current, setCurrent] = useState<Current | null>(null);
  const queryClient = useQueryClient();
  const signature = cartSignature(cart);
  const create = useMutation({
    mutationFn: () => createCheckout(null),
    onSuccess: (checkout) => setCurrent({ checkout, signature }),
  });
  const { mutate } = create;

  // On opening only: the cart cannot change behind this modal dialog. An effect event reads the
  // latest checkout and cart without making them reasons to run again.
  const onOpened = useEffectEvent(() => {
    const known = current && {
      checkout: queryClient.getQueryData<Checkout>(checkoutQueryKey(current.checkout.id)) ?? current.checkout,
      signature: current.signature,
    };
    if (canReuseCheckout(known, signature, Date.now()) || create.isPending) return;
    setCurrent(null);
    mutate();
  });
  useEffect(() => {
    if (open) onOpened();
  }, [open]);

  const startAgain = () => {
    setCurrent(null);
    mutate();
  };

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent data-testid="pay-elsewhere" width="lg">
        <header className="px-5 pt-5 pr-14">
          <DialogTitle>Pay from another wallet</DialogTitle>
          <DialogDescription className="mt-1">
            Send the exact amount of POG on the Base network from any wallet. The shop recognises your payment by its amount.
          </DialogDescription>
        </header>
        <div className="px-5 pt-4">
          {current ? (
            <PaymentRequest checkout={current.checkout} onPaid={onPaid} onStartAgain={startAgain} onDone={() => onOpenChange(false)} />
          ) : create.isError ? (
            <div
              role="alert"
              data-testid="pay-elsewhere-error"
              className="grid justify-items-start gap-3 rounded-2xl border border-destructive/40 p-4"
            >
              <p className="flex items-start gap-2 text-sm font-semibold">
                <TriangleAlert aria-hidden className="mt-px size-5 shrink-0 text-destructive" />
                {create.error instanceof ApiError ? apiErrorText(create.error) : create.error.message}
              </p>
              <Button variant="outline" size="sm" onClick={startAgain}>
                <RefreshCw aria-hidden />
                Try Again
              </Button>
            </div>
          ) : (
            <div role="status" className="grid gap-3" data-testid="pay-elsewhere-loading">
              <span className="sr-only">Preparing your payment request…</span>
              <Skeleton className="h-24 w-full" />
              <Skeleton className="h-14 w-full" />
              <Skeleton shape="pill" className="h-12 w-full" />
            </div>
          )}
        </div>
      </DialogContent>
    </Dialog>
  );
}
