import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useReducer,
  useRef,
  useState,
  type ComponentType,
  type ReactNode,
} from 'react';
import type { Cart } from '../../../../common/api';
import { toast } from '../../../components/ui/use-toast';
import { NETWORK_ERROR_MESSAGE } from '../../../lib/api-client';
import type { BaseNetworkOptions } from '../../../web3/ensure-base-network';
import type { Eip1193Provider } from '../../../web3/types';
import type { PayWith } from '../../../../common/swap-pay';
import type { PayElsewhereDialogProps } from '../components/pay-elsewhere-dialog';
import type { SwapDialogProps } from '../components/swap-dialog';
import type { SwapPrompt } from '../lib/swap-prompt';
import { checkoutReducer, initialCheckoutState, isPaying, PAY_BUTTON_LABELS, PAYMENT_FAILED_TITLE } from '../lib/checkout-machine';

/** The payment's code (requests, failure texts, order handling): fetched when the drawer opens. */
const loadPayment = () => import('../lib/start-payment');
const preparePayment = () => void loadPayment().catch(() => undefined);

/** A payment under way, as the pay button shows it. */
interface PayProgress {
  /** The step, as the pay button says it ('Confirming on chain...'). */
  label: string;
  /** Held from the moment the wallet returned it. */
  transactionHash: string | null;
  /** Once the order exists: the cart as it was paid, shown until the redirect (the server emptied the real one). */
  paidCart: Cart | null;
}

interface PayingWallet {
  address: string;
  provider: Eip1193Provider;
}

interface CheckoutContextValue {
  /** Null while idle. */
  progress: PayProgress | null;
  /** Pays the cart from the connected wallet (ignored while a payment runs). */
  pay: (cart: Cart, wallet: PayingWallet) => void;
  /** Opens "Pay from another wallet" for the cart. */
  payElsewhere: (cart: Cart) => void;
  /** Fetches the payment's code ahead of the pay tap (the cart drawer is open). */
  prepare: () => void;
}

const CheckoutContext = createContext<CheckoutContextValue | null>(null);

interface CheckoutProviderProps {
  /** Base's public RPC and explorer, for wallets that must add the network (null until known). */
  network: BaseNetworkOptions | null;
  /** The shop pays smart wallets' gas (public config): only then is the paymaster asked for. */
  gasPaidByShop: boolean;
  /** The coins the shop takes besides POGS (public config), offered when the wallet's POGS are short. */
  payWith: readonly PayWith[];
  /** Refetches the cart and tells its readers (app/ wires in the cart feature's). */
  refreshCart: () => Promise<void>;
  children: ReactNode;
}

/**
 * The payment's state for the whole app, above the cart drawer: closing and reopening the drawer
 * mid-payment shows the same step. Also hosts the "Pay from another wallet" dialog.
 */
export function CheckoutProvider({ network, gasPaidByShop, payWith, refreshCart, children }: CheckoutProviderProps) {
  const [state, dispatch] = useReducer(checkoutReducer, initialCheckoutState);
  const running = useRef(false);
  const [elsewhere, setElsewhere] = useState<{ open: boolean; cart: Cart | null }>({ open: false, cart: null });
  // Loaded on first use: few shoppers need it, and it brings the QR code library along.
  const [ElsewhereDialog, setElsewhereDialog] = useState<ComponentType<PayElsewhereDialogProps> | null>(null);
  // "Pay with ETH or USDC", loaded when a payment first offers it.
  const [swap, setSwap] = useState<{ Dialog: ComponentType<SwapDialogProps>; prompt: SwapPrompt } | null>(null);
  const showSwap = useCallback((prompt: SwapPrompt) => {
    import('../components/swap-dialog').then(
      ({ SwapDialog }) => setSwap({ Dialog: SwapDialog, prompt }),
      () => {
        prompt.close(); // the payment ends unpaid
        toast({ title: PAYMENT_FAILED_TITLE, description: NETWORK_ERROR_MESSAGE, variant: 'destructive' });
      },
    );
  }, []);

  // Back from the shipping page through the back/forward cache: the page is as it was left,
  // 'Redirecting to shipping...'. Start over.
  useEffect(() => {
    const onPageShow = (event: PageTransitionEvent) => {
      if (event.persisted) dispatch({ type: 'reset' });
    };
    window.addEventListener('pageshow', onPageShow);
    return () => window.removeEventListener('pageshow', onPageShow);
  }, []);

  const pay = useCallback(
    (cart: Cart, wallet: PayingWallet) => {
      if (running.current) return;
      running.current = true;
      void loadPayment()
        .then(
          ({ startPayment }) => startPayment({ cart, ...wallet }, { dispatch, network, gasPaidByShop, refreshCart, payWith, showSwap }),
          // Its code could not be fetched (offline, an old page after a release): as a failed request would say.
          () => void toast({ title: PAYMENT_FAILED_TITLE, description: NETWORK_ERROR_MESSAGE, variant: 'destructive' }),
        )
        .finally(() => {
          running.current = false;
        });
    },
    [network, gasPaidByShop, refreshCart, payWith, showSwap],
  );

  const payElsewhere = useCallback((cart: Cart) => {
    import('../components/pay-elsewhere-dialog').then(
      ({ PayElsewhereDialog }) => {
        setElsewhereDialog(() => PayElsewhereDialog);
        setElsewhere({ open: true, cart });
      },
      () => toast({ title: 'Pay from another wallet', description: NETWORK_ERROR_MESSAGE, variant: 'destructive' }),
    );
  }, []);
  const closeElsewhere = useCallback((open: boolean) => setElsewhere((current) => ({ ...current, open })), []);
  const onPaidElsewhere = useCallback(() => void refreshCart().catch(() => undefined), [refreshCart]);

  const paying = isPaying(state.phase);
  const value = useMemo<CheckoutContextValue>(
    () => ({
      progress: paying
        ? { label: PAY_BUTTON_LABELS[state.phase], transactionHash: state.transactionHash, paidCart: state.paidCart ?? null }
        : null,
      pay,
      payElsewhere,
      prepare: preparePayment,
    }),
    [paying, state.phase, state.transactionHash, state.paidCart, pay, payElsewhere],
  );

  return (
    <CheckoutContext.Provider value={value}>
      {children}
      {ElsewhereDialog && elsewhere.cart && (
        <ElsewhereDialog open={elsewhere.open} cart={elsewhere.cart} onOpenChange={closeElsewhere} onPaid={onPaidElsewhere} />
      )}
      {swap && <swap.Dialog prompt={swap.prompt} />}
    </CheckoutContext.Provider>
  );
}

export function useCheckout(): CheckoutContextValue {
  const value = useContext(CheckoutContext);
  if (!value) throw new Error('useCheckout must be used inside <CheckoutProvider>');
  return value;
}
