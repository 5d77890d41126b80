/**
 * The wallet payment, step by step (docs/checkout.md). Every effect is
 * a dependency (the server calls, the chain, toasts, navigation), so the whole sequence runs in
 * unit tests with fakes; the state machine only hears what happened.
 */
import type { Cart, Checkout, CreateOrderRequest, Order, PaymasterOffer } from '../../../../common/api';
import type { SponsorablePayment } from '../../../web3/token-payment';
import type { Eip1193Provider } from '../../../web3/types';
import { insufficientBalanceMessage, RECEIPT_NOT_FOUND_MESSAGE, TRANSACTION_FAILED_MESSAGE } from '../../../web3/payment-errors';
import { CONNECT_WALLET_FIRST_MESSAGE, NO_PROVIDER_MESSAGE } from '../../../web3/wallet-errors';
import type { CheckoutEvent } from './checkout-machine';
import { CheckoutFailure, PAYMENT_FAILED_TITLE, paymentFailureNotice, TRANSACTION_FAILED_TITLE } from './payment-failure';

/** The shopper is sent to the shipping page 1.5 s after the order exists. */
export const REDIRECT_DELAY_MS = 1500;

export const TRANSACTION_CONFIRMED_NOTICE = Object.freeze({
  title: 'Transaction Confirmed',
  description: 'Payment successful! Creating your order...',
});
/** Said when the shop's paymaster pays the payment's gas (a smart wallet that can use it). */
export const SPONSORED_NOTICE = Object.freeze({
  title: 'Network fee paid by the shop',
  description: 'Confirm the payment in your wallet: you need no ETH for it.',
});
/** Said when the shop could pay a smart wallet's gas but will not this time; the shop's reason follows. */
export const UNSPONSORED_TITLE = 'Network fee paid from your wallet';
export const ORDER_CREATED_NOTICE = Object.freeze({
  title: 'Order Created',
  description: 'Payment confirmed! Redirecting to shipping...',
});

export interface PaymentRequest {
  cart: Cart;
  /** The connected wallet's address: it pays, and the checkout is made for it. */
  address: string;
  provider: Eip1193Provider;
}

export interface PaymentNotice {
  title: string;
  description: string;
  variant?: 'default' | 'destructive';
}

export interface PaymentDeps {
  dispatch(event: CheckoutEvent): void;
  createCheckout(customerWallet: string): Promise<Checkout>;
  /** Moves the wallet to Base, then binds the checkout's token (client/web3, loaded lazily). */
  connectToken(provider: Eip1193Provider, tokenAddress: string): Promise<SponsorablePayment>;
  reportTransaction(checkoutId: string, transactionHash: string): Promise<unknown>;
  /**
   * Null when the shop pays no gas; else the shop's paymaster for a checkout (its service and the
   * checkout's ticket), or why it will not pay this payment's gas (its budget for the day is
   * spent, the wallet is not one it knows, …), or null when the shop could not say (then the
   * plain transfer).
   */
  paymasterFor: ((checkoutId: string) => Promise<PaymasterOffer | null>) | null;
  /**
   * Null when the shop takes POGS only (config.payWith empty); else, for a wallet whose POGS are
   * short of the checkout, pays it by a swap the shopper chooses (run-swap.ts): the swap's
   * transaction hash, or null when the shopper closed it unpaid. `shortBy` says by how much.
   */
  payBySwap: ((checkout: Checkout, shortBy: string) => Promise<string | null>) | null;
  createOrder(request: CreateOrderRequest): Promise<Order>;
  /** Refetches the cart (the server emptied it with the order) and tells every reader. */
  refreshCart(): Promise<void>;
  notify(notice: PaymentNotice): void;
  /** A full navigation, so the server can redirect /orders/<id>/shipping to Shopify. */
  redirect(url: string): void;
  sleep(ms: number): Promise<void>;
}

/**
 * Before anything is made for it: the wallet must still answer, and still list the account the shop
 * shows as connected. A wallet that locked itself or was disconnected from the site inside the
 * extension may not have said so (no accountsChanged while the tab slept); a wallet whose extension
 * is gone, or whose WalletConnect session ended, does not answer.
 */
async function checkWallet(provider: Eip1193Provider, address: string): Promise<void> {
  let accounts: unknown;
  try {
    accounts = await provider.request({ method: 'eth_accounts' });
  } catch (error) {
    throw new CheckoutFailure(PAYMENT_FAILED_TITLE, NO_PROVIDER_MESSAGE, { cause: error });
  }
  const listed = Array.isArray(accounts) && accounts.some((a) => typeof a === 'string' && a.toLowerCase() === address.toLowerCase());
  if (!listed) throw new CheckoutFailure(PAYMENT_FAILED_TITLE, CONNECT_WALLET_FIRST_MESSAGE);
}

/** The plain POGS transfer, its gas paid by the shop where it offers to and the wallet can take it. */
async function payWithPogs(
  payment: SponsorablePayment,
  checkout: Checkout,
  address: string,
  amount: bigint,
  deps: PaymentDeps,
): Promise<string> {
  deps.dispatch({ type: 'balance-ok' });
  // The wallet is asked only when the shop offers, the shop only for such a wallet; otherwise a plain transfer.
  const sponsor = deps.paymasterFor && (await payment.offersPaymaster(address)) ? deps.paymasterFor : null;
  const offer = sponsor && (await sponsor(checkout.id));
  const paymaster = offer && 'url' in offer ? offer : null;
  if (paymaster) deps.notify(SPONSORED_NOTICE);
  // The shopper pays the fee: told why, before the wallet asks for it.
  else if (offer && 'unavailable' in offer) deps.notify({ title: UNSPONSORED_TITLE, description: offer.unavailable.message });
  return paymaster
    ? payment.sponsoredTransfer(address, checkout.storeWallet, amount, paymaster)
    : payment.transfer(address, checkout.storeWallet, amount);
}

export async function runPayment({ cart, address, provider }: PaymentRequest, deps: PaymentDeps): Promise<void> {
  const { dispatch } = deps;
  let payment: SponsorablePayment | null = null;
  dispatch({ type: 'start' });
  try {
    await checkWallet(provider, address);
    const checkout = await deps.createCheckout(address);
    payment = await deps.connectToken(provider, checkout.tokenAddress);
    const amount = BigInt(checkout.amountWei);
    const balance = await payment.balanceOf(address);
    let transactionHash: string;
    if (balance < amount) {
      const shortBy = insufficientBalanceMessage(amount, balance);
      if (!deps.payBySwap) throw new CheckoutFailure(PAYMENT_FAILED_TITLE, shortBy);
      // The shop takes other coins: the shopper may pay with one (a swap that delivers the exact amount).
      dispatch({ type: 'short' });
      const swapHash = await deps.payBySwap(checkout, shortBy);
      if (!swapHash) {
        dispatch({ type: 'failed' }); // closed unpaid: nothing to say
        return;
      }
      transactionHash = swapHash;
    } else {
      transactionHash = await payWithPogs(payment, checkout, address, amount, deps);
    }
    dispatch({ type: 'transaction-sent', transactionHash });
    // From here the server can finish the order on its own, even if this tab dies. A hint only.
    await deps.reportTransaction(checkout.id, transactionHash).catch(() => undefined);
    dispatch({ type: 'server-notified' });

    const receipt = await payment.waitForReceipt(transactionHash);
    if (!receipt) throw new CheckoutFailure(TRANSACTION_FAILED_TITLE, RECEIPT_NOT_FOUND_MESSAGE);
    if (receipt.status !== 1) throw new CheckoutFailure(TRANSACTION_FAILED_TITLE, TRANSACTION_FAILED_MESSAGE);
    dispatch({ type: 'receipt-confirmed' });
    deps.notify(TRANSACTION_CONFIRMED_NOTICE);

    const order = await deps.createOrder({ checkoutId: checkout.id, cartItems: cart.items, transactionHash, customerWallet: address });
    dispatch({ type: 'order-created', paidCart: cart });
    // The order exists whatever the cart read says; a failed refresh only leaves a stale badge.
    await deps.refreshCart().catch(() => undefined);
    deps.notify(ORDER_CREATED_NOTICE);
    await deps.sleep(REDIRECT_DELAY_MS);
    deps.redirect(order.shippingUrl);
  } catch (error) {
    dispatch({ type: 'failed' });
    deps.notify({ ...paymentFailureNotice(error), variant: 'destructive' });
  } finally {
    payment?.dispose();
  }
}
