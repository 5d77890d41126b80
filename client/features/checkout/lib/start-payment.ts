/**
 * The payment's side effects, wired for runPayment: loaded with `import()` by the checkout
 * provider (when the cart drawer opens, or at the pay tap), so the first screen does not carry
 * the checkout's requests, the failure texts and the order handling.
 */
import { toast } from '../../../components/ui/use-toast';
import type { PayWith } from '../../../../common/swap-pay';
import { sleep } from '../../../lib/sleep';
import type { BaseNetworkOptions } from '../../../web3/ensure-base-network';
import { loadWeb3 } from '../../../web3/load-web3';
import { WalletError, WRONG_NETWORK_MESSAGE } from '../../../web3/wallet-errors';
import { createCheckout } from '../api/create-checkout';
import { createOrder } from '../api/create-order';
import { getPaymaster } from '../api/get-paymaster';
import { getSwapQuote } from '../api/get-swap-quote';
import { reportTransaction } from '../api/report-transaction';
import { runPayment, type PaymentDeps, type PaymentRequest } from './run-payment';
import { runSwap } from './run-swap';
import { SwapPrompt } from './swap-prompt';

interface StartPaymentOptions {
  dispatch: PaymentDeps['dispatch'];
  /** Base's public RPC and explorer (null until the config is known). */
  network: BaseNetworkOptions | null;
  /** The shop pays smart wallets' gas: a wallet that can take a paymaster gets the shop's at each payment (else none is asked for). */
  gasPaidByShop: boolean;
  refreshCart: () => Promise<void>;
  /** The coins the shop takes besides POGS (config.payWith): offered when the POGS are short. */
  payWith: readonly PayWith[];
  /** Shows the swap dialog the payment drives (the provider loads it). */
  showSwap: (prompt: SwapPrompt) => void;
}

export function startPayment(
  request: PaymentRequest,
  { dispatch, network, gasPaidByShop, refreshCart, payWith, showSwap }: StartPaymentOptions,
): Promise<void> {
  const deps: PaymentDeps = {
    dispatch,
    createCheckout,
    connectToken: async (provider, tokenAddress) => {
      // A wallet connects only once the config is known; without it Base cannot be offered.
      if (!network) throw new WalletError(WRONG_NETWORK_MESSAGE);
      const web3 = await loadWeb3();
      await web3.ensureBaseNetwork(provider, network);
      return web3.createTokenPayment(provider, tokenAddress);
    },
    reportTransaction,
    paymasterFor: gasPaidByShop ? getPaymaster : null,
    payBySwap:
      payWith.length > 0
        ? (checkout, shortBy) => {
            const prompt = new SwapPrompt(checkout.displayTotal);
            showSwap(prompt);
            return runSwap({
              coins: payWith,
              checkout,
              shortBy,
              quote: getSwapQuote,
              balanceOf: async (quote) => (await loadWeb3()).coinBalance(request.provider, request.address, quote),
              send: async (quote) => (await loadWeb3()).sendSwapCalls(request.provider, request.address, quote.calls),
              prompt,
              onSending: () => dispatch({ type: 'balance-ok' }),
              onQuoteAgain: () => dispatch({ type: 'short' }),
              now: Date.now,
            });
          }
        : null,
    createOrder,
    refreshCart,
    notify: (notice) => void toast(notice),
    redirect: (url) => window.location.assign(url),
    sleep,
  };
  return runPayment(request, deps);
}
