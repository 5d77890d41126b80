import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/api-client';
import { WalletError, WRONG_NETWORK_MESSAGE } from '../../../web3/wallet-errors';
import { CheckoutFailure, paymentFailureNotice } from './payment-failure';

describe('paymentFailureNotice', () => {
  it("keeps the checkout's own titles and texts", () => {
    expect(paymentFailureNotice(new CheckoutFailure('Transaction Failed', 'Transaction failed'))).toEqual({
      title: 'Transaction Failed',
      description: 'Transaction failed',
    });
    expect(paymentFailureNotice(new CheckoutFailure('Order Creation Failed', 'Server returned invalid JSON response'))).toEqual({
      title: 'Order Creation Failed',
      description: 'Server returned invalid JSON response',
    });
  });

  it("falls back to 'Failed to create order. Please contact support.' for an empty order failure", () => {
    expect(paymentFailureNotice(new CheckoutFailure('Order Creation Failed', ''))).toEqual({
      title: 'Order Creation Failed',
      description: 'Failed to create order. Please contact support.',
    });
    expect(paymentFailureNotice(new CheckoutFailure('Transaction Failed', ' ')).description).toBe('Failed to process payment');
  });

  it("shows the wallet code's own messages as they are, even with a wallet code attached", () => {
    expect(paymentFailureNotice(new WalletError(WRONG_NETWORK_MESSAGE, { code: 4001 }))).toEqual({
      title: 'Payment Failed',
      description: 'Please switch to Base Network in your wallet to make payments...',
    });
    expect(paymentFailureNotice(new WalletError('Insufficient POG balance. You need 3.00 more POG')).description).toBe(
      'Insufficient POG balance. You need 3.00 more POG',
    );
  });

  it("shows the server's refusal of a checkout in its words", () => {
    const refused = new ApiError(409, '409: {…}', { code: 'cart-item-unavailable', serverMessage: 'This item is sold out' });
    expect(paymentFailureNotice(refused)).toEqual({ title: 'Payment Failed', description: 'This item is sold out' });
    expect(paymentFailureNotice(new ApiError(503, '503: Service Unavailable')).description).toBe('503: Service Unavailable');
  });

  it("maps the wallet's errors to the shop's payment texts", () => {
    expect(paymentFailureNotice({ code: 4001, message: 'User rejected the request.' })).toEqual({
      title: 'Payment Failed',
      description: 'Transaction was rejected by user',
    });
    expect(paymentFailureNotice(undefined).description).toBe('Failed to process payment');
  });
});
