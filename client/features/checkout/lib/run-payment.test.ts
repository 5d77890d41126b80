import { describe, expect, it } from 'vitest';
import type { Cart, Checkout, Order } from '../../../../common/api';
import { ApiError } from '../../../lib/api-client';
import type { SponsorablePayment, TransferReceipt } from '../../../web3/token-payment';
import { WalletError, WRONG_NETWORK_MESSAGE } from '../../../web3/wallet-errors';
import { checkoutReducer, initialCheckoutState, type CheckoutEvent, type CheckoutState } from './checkout-machine';
import { CheckoutFailure, PAYMENT_FAILED_TITLE } from './payment-failure';
import { runPayment, type PaymentDeps, type PaymentNotice } from './run-payment';

const POG = 10n ** 18n;
const BUYER = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';
const STORE = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const TOKEN = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
const HASH = '0x' + 'ab'.repeat(32);

const cart: Cart = {
  items: [
    {
      id: 'l1',
      variantId: '101',
      productId: '11',
      title: 'Cap',
      image: null,
      price: '25.00',
      quantity: 1,
      lineTotal: '25.00',
      problem: null,
    },
  ],
  total: '25.00',
};

const checkout: Checkout = {
  id: '6f1c3a52-8d0e-4a59-9a3f-1b2c3d4e5f60',
  status: 'open',
  amount: '25.000000000000012345',
  amountWei: (25n * POG + 12345n).toString(),
  displayTotal: '25.00',
  amountReceived: '0.00',
  amountDue: '25.00',
  tokenAddress: TOKEN,
  storeWallet: STORE,
  chainId: 8453,
  expiresAt: '2026-01-01T12:30:00Z',
  paymentUri: `ethereum:${TOKEN}@8453/transfer?address=${STORE}&uint256=25000000000000012345`,
  customerWallet: BUYER,
  items: [{ variantId: '101', title: 'Cap', price: '25.00', quantity: 1 }],
  orderId: null,
  transactionHash: null,
};

const order = { id: 'o1', shippingUrl: '/orders/o1/shipping' } as Order;

interface Harness {
  deps: PaymentDeps;
  /** Everything that happened, in order. */
  log: string[];
  notices: PaymentNotice[];
  state: () => CheckoutState;
  phases: string[];
}

function harness(
  overrides: { balance?: bigint; receipt?: TransferReceipt | null; payment?: Partial<SponsorablePayment> } & Partial<PaymentDeps> = {},
): Harness {
  const log: string[] = [];
  const notices: PaymentNotice[] = [];
  let state = initialCheckoutState;
  const phases: string[] = [state.phase];
  const { balance = 1000n * POG, receipt = { status: 1, blockNumber: 7 }, payment: paymentOverrides, ...depOverrides } = overrides;
  const payment: SponsorablePayment = {
    balanceOf: async (owner) => {
      log.push(`balanceOf ${owner}`);
      return balance;
    },
    transfer: async (from, to, amount) => {
      log.push(`transfer ${from} → ${to} ${amount}`);
      return HASH;
    },
    // A plain-key wallet unless a test says otherwise (asked quietly: the log is the payment's steps).
    offersPaymaster: async () => false,
    sponsoredTransfer: async (from, to, amount, paymaster) => {
      log.push(`sponsoredTransfer ${from} → ${to} ${amount} via ${paymaster.url}`);
      return HASH;
    },
    waitForReceipt: async (hash) => {
      log.push(`waitForReceipt ${hash}`);
      return receipt;
    },
    dispose: () => log.push('dispose'),
    ...paymentOverrides,
  };
  const deps: PaymentDeps = {
    dispatch: (event: CheckoutEvent) => {
      state = checkoutReducer(state, event);
      if (phases.at(-1) !== state.phase) phases.push(state.phase);
    },
    createCheckout: async (wallet) => {
      log.push(`createCheckout ${wallet}`);
      return checkout;
    },
    connectToken: async (_provider, token) => {
      log.push(`connectToken ${token}`);
      return payment;
    },
    reportTransaction: async (id, hash) => {
      log.push(`reportTransaction ${id} ${hash}`);
      return checkout;
    },
    // A shop that pays no gas unless a test says otherwise.
    paymasterFor: null,
    // A shop that takes POGS only unless a test says otherwise.
    payBySwap: null,
    createOrder: async (request) => {
      log.push(`createOrder ${request.checkoutId} ${request.transactionHash} ${request.customerWallet} ${request.cartItems?.length}`);
      return order;
    },
    refreshCart: async () => {
      // What the drawer will show once the refreshed cart is empty.
      log.push(`refreshCart${state.paidCart ? ` (holding the paid cart, ${state.paidCart.total})` : ''}`);
    },
    notify: (notice) => {
      notices.push(notice);
      log.push(`toast ${notice.title}`);
    },
    redirect: (url) => log.push(`redirect ${url}`),
    sleep: async (ms) => {
      log.push(`sleep ${ms}`);
    },
    ...depOverrides,
  };
  return { deps, log, notices, state: () => state, phases };
}

/** The wallet, as far as the payment asks it itself: which accounts it lists for the site. */
const walletListing = (accounts: () => Promise<unknown>) => ({
  request: async ({ method }: { method: string }) => (method === 'eth_accounts' ? accounts() : null),
});
const provider = walletListing(async () => [BUYER.toLowerCase()]);
const request = { cart, address: BUYER, provider };

describe('runPayment', () => {
  it('stops before making a checkout when the wallet no longer lists the account, or does not answer, saying so', async () => {
    const cases: Array<[string, () => Promise<unknown>, string]> = [
      ['locked (no accounts)', async () => [], 'Please connect your wallet first'],
      ['another account only', async () => ['0x0000000000000000000000000000000000000001'], 'Please connect your wallet first'],
      ['an odd answer', async () => null, 'Please connect your wallet first'],
      [
        'no answer',
        async () => {
          throw new Error('Extension context invalidated.');
        },
        'No Web3 provider found',
      ],
    ];
    for (const [what, accounts, description] of cases) {
      const h = harness();
      await runPayment({ ...request, provider: walletListing(accounts) }, h.deps);
      expect(h.log, what).toEqual([`toast ${PAYMENT_FAILED_TITLE}`]);
      expect(h.notices, what).toEqual([{ title: PAYMENT_FAILED_TITLE, description, variant: 'destructive' }]);
      expect(h.state().phase, what).toBe('idle');
    }
  });

  it('pays the exact amount, tells the server, waits, creates the order, refreshes the cart, redirects after 1.5 s', async () => {
    const h = harness();
    await runPayment(request, h.deps);
    expect(h.log).toEqual([
      `createCheckout ${BUYER}`,
      `connectToken ${TOKEN}`,
      `balanceOf ${BUYER}`,
      `transfer ${BUYER} → ${STORE} 25000000000000012345`,
      `reportTransaction ${checkout.id} ${HASH}`,
      `waitForReceipt ${HASH}`,
      'toast Transaction Confirmed',
      `createOrder ${checkout.id} ${HASH} ${BUYER} 1`,
      'refreshCart (holding the paid cart, 25.00)',
      'toast Order Created',
      'sleep 1500',
      'redirect /orders/o1/shipping',
      'dispose',
    ]);
    expect(h.phases).toEqual(['idle', 'checking-balance', 'awaiting-wallet', 'sent', 'confirming', 'creating-order', 'done']);
    // The success stays on screen until the redirect: 'done' keeps the cart as it was paid.
    expect(h.state().paidCart).toBe(cart);
    expect(h.notices).toEqual([
      { title: 'Transaction Confirmed', description: 'Payment successful! Creating your order...' },
      { title: 'Order Created', description: 'Payment confirmed! Redirecting to shipping...' },
    ]);
  });

  describe('with the shop paying the gas', () => {
    const paymaster = { url: 'https://shop.example/api/paymaster', context: { ticket: 'the-ticket' } };

    it('sends the transfer through the paymaster when the shop offers one and the wallet can take it, saying so', async () => {
      const h = harness({
        paymasterFor: async (id) => {
          h.log.push(`paymasterFor ${id}`);
          return paymaster;
        },
        payment: {
          offersPaymaster: async (from) => {
            h.log.push(`offersPaymaster ${from}`);
            return true;
          },
        },
      });
      await runPayment(request, h.deps);
      expect(h.log.slice(0, 8)).toEqual([
        `createCheckout ${BUYER}`,
        `connectToken ${TOKEN}`,
        `balanceOf ${BUYER}`,
        `offersPaymaster ${BUYER}`,
        `paymasterFor ${checkout.id}`,
        'toast Network fee paid by the shop',
        `sponsoredTransfer ${BUYER} → ${STORE} 25000000000000012345 via ${paymaster.url}`,
        `reportTransaction ${checkout.id} ${HASH}`,
      ]);
      expect(h.log).toContain(`createOrder ${checkout.id} ${HASH} ${BUYER} 1`);
      expect(h.log).not.toContainEqual(expect.stringMatching(/^transfer /));
      expect(h.phases.at(-1)).toBe('done');
    });

    it('sends a plain transfer, saying nothing of fees, when the wallet cannot take it or the shop pays no gas', async () => {
      for (const shopPays of [true, false]) {
        const h = harness({
          paymasterFor: shopPays
            ? async (id) => {
                h.log.push(`paymasterFor ${id}`);
                return paymaster;
              }
            : null,
          payment: {
            offersPaymaster: async (from) => {
              h.log.push(`offersPaymaster ${from}`);
              return !shopPays;
            },
          },
        });
        await runPayment(request, h.deps);
        expect(h.log).toContain(`transfer ${BUYER} → ${STORE} 25000000000000012345`);
        expect(h.log.join('\n')).not.toMatch(/sponsoredTransfer|Network fee|paymasterFor/);
        // A shop that pays no gas does not even ask the wallet.
        expect(h.log.includes(`offersPaymaster ${BUYER}`)).toBe(shopPays);
        expect(h.phases.at(-1)).toBe('done');
      }
    });

    it('sends a plain transfer when the wallet could take a paymaster but the shop could not give one for this checkout', async () => {
      const h = harness({ paymasterFor: async () => null, payment: { offersPaymaster: async () => true } });
      await runPayment(request, h.deps);
      expect(h.log).toContain(`transfer ${BUYER} → ${STORE} 25000000000000012345`);
      expect(h.log.join('\n')).not.toMatch(/sponsoredTransfer|Network fee/);
      expect(h.phases.at(-1)).toBe('done');
    });

    it('says why when the shop will not pay this payment’s gas, and sends the plain transfer', async () => {
      const message = 'The shop’s budget for network fees is spent for today: pay the fee from the wallet, or try again tomorrow.';
      const h = harness({
        paymasterFor: async () => ({ unavailable: { reason: 'budget-spent', message } }),
        payment: { offersPaymaster: async () => true },
      });
      await runPayment(request, h.deps);
      expect(h.notices[0]).toEqual({ title: 'Network fee paid from your wallet', description: message });
      expect(h.log).toContain(`transfer ${BUYER} → ${STORE} 25000000000000012345`);
      expect(h.log.join('\n')).not.toMatch(/sponsoredTransfer|Network fee paid by the shop/);
      // Told before the wallet asks for the fee.
      expect(h.log.indexOf('toast Network fee paid from your wallet')).toBeLessThan(
        h.log.indexOf(`transfer ${BUYER} → ${STORE} 25000000000000012345`),
      );
      expect(h.phases.at(-1)).toBe('done');
    });

    it('fails like any payment when the sponsored calls fail, with no order', async () => {
      const h = harness({
        paymasterFor: async () => paymaster,
        payment: {
          offersPaymaster: async () => true,
          sponsoredTransfer: async () => {
            throw new WalletError('The transaction failed on chain.');
          },
        },
      });
      await runPayment(request, h.deps);
      expect(h.log.join('\n')).not.toMatch(/createOrder|reportTransaction/);
      // Back to the start, as any failed payment: the shopper may try again.
      expect(h.phases).toEqual(['idle', 'checking-balance', 'awaiting-wallet', 'idle']);
      expect(h.notices.at(-1)).toMatchObject({ variant: 'destructive', description: 'The transaction failed on chain.' });
    });
  });

  it('goes on when the hint to the server fails', async () => {
    const h = harness({ reportTransaction: async () => Promise.reject(new Error('offline')) });
    await runPayment(request, h.deps);
    expect(h.state().phase).toBe('done');
    expect(h.log).toContain('redirect /orders/o1/shipping');
  });

  it('refuses a short balance with the shortfall, before asking the wallet', async () => {
    const h = harness({ balance: 20n * POG });
    await runPayment(request, h.deps);
    expect(h.log.some((l) => l.startsWith('transfer'))).toBe(false);
    expect(h.state()).toEqual(initialCheckoutState);
    expect(h.notices).toEqual([
      { title: 'Payment Failed', description: 'Insufficient POG balance. You need 5.00 more POG', variant: 'destructive' },
    ]);
    expect(h.log.at(-1)).toBe('dispose');
  });

  describe('with the shop taking ETH or USDC', () => {
    const SWAP_HASH = '0x' + 'cd'.repeat(32);

    it('a short balance is paid by the swap the shopper chooses, and the order follows as for POGS', async () => {
      const h = harness({
        balance: 20n * POG,
        payBySwap: async (paid, shortBy) => {
          h.log.push(`payBySwap ${paid.id} (${shortBy})`);
          // What run-swap reports as the shopper confirms (start-payment.ts wires it so).
          h.deps.dispatch({ type: 'balance-ok' });
          return SWAP_HASH;
        },
      });
      await runPayment(request, h.deps);
      expect(h.log).toEqual([
        `createCheckout ${BUYER}`,
        `connectToken ${TOKEN}`,
        `balanceOf ${BUYER}`,
        `payBySwap ${checkout.id} (Insufficient POG balance. You need 5.00 more POG)`,
        `reportTransaction ${checkout.id} ${SWAP_HASH}`,
        `waitForReceipt ${SWAP_HASH}`,
        'toast Transaction Confirmed',
        `createOrder ${checkout.id} ${SWAP_HASH} ${BUYER} 1`,
        'refreshCart (holding the paid cart, 25.00)',
        'toast Order Created',
        'sleep 1500',
        'redirect /orders/o1/shipping',
        'dispose',
      ]);
      expect(h.phases).toEqual([
        'idle',
        'checking-balance',
        'choosing-coin',
        'awaiting-wallet',
        'sent',
        'confirming',
        'creating-order',
        'done',
      ]);
    });

    it('closed unpaid: back to idle with nothing said and nothing sent', async () => {
      const h = harness({ balance: 0n, payBySwap: async () => null });
      await runPayment(request, h.deps);
      expect(h.phases).toEqual(['idle', 'checking-balance', 'choosing-coin', 'idle']);
      expect(h.notices).toEqual([]);
      expect(h.log.some((l) => /^(transfer|reportTransaction|createOrder)/.test(l))).toBe(false);
      expect(h.log.at(-1)).toBe('dispose');
    });

    it('a swap the wallet rejects is a failed payment, as a rejected transfer', async () => {
      const h = harness({
        balance: 0n,
        payBySwap: async () => {
          h.deps.dispatch({ type: 'balance-ok' });
          throw Object.assign(new Error('User rejected the request.'), { code: 4001 });
        },
      });
      await runPayment(request, h.deps);
      expect(h.phases).toEqual(['idle', 'checking-balance', 'choosing-coin', 'awaiting-wallet', 'idle']);
      expect(h.notices).toEqual([{ title: 'Payment Failed', description: 'Transaction was rejected by user', variant: 'destructive' }]);
    });

    it('enough POGS: the plain transfer, no swap offered', async () => {
      const h = harness({
        payBySwap: async () => {
          h.log.push('payBySwap');
          return SWAP_HASH;
        },
      });
      await runPayment(request, h.deps);
      expect(h.log).not.toContain('payBySwap');
      expect(h.log).toContain(`transfer ${BUYER} → ${STORE} 25000000000000012345`);
    });
  });

  it('a balance of exactly the amount is enough', async () => {
    const h = harness({ balance: 25n * POG + 12345n });
    await runPayment(request, h.deps);
    expect(h.state().phase).toBe('done');
  });

  it('the wrong network stops it with the switch-to-Base message', async () => {
    const h = harness({
      connectToken: async () => {
        throw new WalletError(WRONG_NETWORK_MESSAGE, { code: 4001 });
      },
    });
    await runPayment(request, h.deps);
    expect(h.notices).toEqual([{ title: 'Payment Failed', description: WRONG_NETWORK_MESSAGE, variant: 'destructive' }]);
    expect(h.state()).toEqual(initialCheckoutState);
  });

  it('a rejected transfer returns to idle: "Transaction was rejected by user"', async () => {
    const h = harness({
      payment: {
        transfer: async () => {
          throw Object.assign(new Error('user rejected action'), { code: 'ACTION_REJECTED', info: { error: { code: 4001 } } });
        },
      },
    });
    await runPayment(request, h.deps);
    expect(h.phases).toEqual(['idle', 'checking-balance', 'awaiting-wallet', 'idle']);
    expect(h.notices.at(-1)).toEqual({ title: 'Payment Failed', description: 'Transaction was rejected by user', variant: 'destructive' });
  });

  it('no receipt, or a reverted one, is a "Transaction Failed" and clears the hash', async () => {
    for (const [receipt, text] of [
      [null, 'Transaction receipt not found'],
      [{ status: 0, blockNumber: 9 }, 'Transaction failed'],
    ] as const) {
      const h = harness({ receipt });
      await runPayment(request, h.deps);
      expect(h.phases).toEqual(['idle', 'checking-balance', 'awaiting-wallet', 'sent', 'confirming', 'idle']);
      expect(h.state().transactionHash).toBeNull();
      expect(h.notices).toEqual([{ title: 'Transaction Failed', description: text, variant: 'destructive' }]);
      expect(h.log.some((l) => l.startsWith('createOrder'))).toBe(false);
    }
  });

  it('an order that cannot be created says so and does not redirect', async () => {
    const h = harness({
      createOrder: async () => {
        throw new CheckoutFailure('Order Creation Failed', 'Server response missing shipping URL');
      },
    });
    await runPayment(request, h.deps);
    expect(h.notices.at(-1)).toEqual({
      title: 'Order Creation Failed',
      description: 'Server response missing shipping URL',
      variant: 'destructive',
    });
    expect(h.log.some((l) => l.startsWith('redirect'))).toBe(false);
    expect(h.state()).toEqual(initialCheckoutState);
  });

  it("the server's refusal of the checkout is shown in its words, nothing reaches the wallet", async () => {
    const h = harness({
      createCheckout: async () => {
        throw new ApiError(409, '409: …', { code: 'cart-item-unavailable', serverMessage: 'Only 2 items available' });
      },
    });
    await runPayment(request, h.deps);
    expect(h.log).toEqual(['toast Payment Failed']);
    expect(h.notices).toEqual([{ title: 'Payment Failed', description: 'Only 2 items available', variant: 'destructive' }]);
  });

  it('a failed cart refresh does not undo the order', async () => {
    const h = harness({ refreshCart: async () => Promise.reject(new Error('Failed to fetch cart')) });
    await runPayment(request, h.deps);
    expect(h.state().phase).toBe('done');
    expect(h.log).toContain('redirect /orders/o1/shipping');
  });
});
