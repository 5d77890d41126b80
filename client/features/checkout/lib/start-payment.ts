/**
 * The payment's side effects, wired for runPayment: loaded with `import()` by the checkout
 * provider (when the cart drawer opens, or at the pay tap), so the first screen does not carry
 * the checkout's requests, the failure texts and the order handling.
 */
import { toast } from '../../../components/ui/use-toast';
import { sleep } from '../../../lib/sleep';
import type { BaseNetworkOptions } from '../../../web3/ensure-base-network';
import { loadWeb3 } from '../../../web3/load-web3';
import { WalletError, WRONG_NETWORK_MESSAGE } from '../../../web3/wallet-errors';
import { createCheckout } from '../api/create-checkout';
import { createOrder } from '../api/create-order';
import { getPaymaster } from '../api/get-paymaster';
import { reportTransaction } from '../api/report-transaction';
import { runPayment, type PaymentDeps, type PaymentRequest } from './run-payment';

interface StartPaymentOptions {
  dispatch: PaymentDeps['dispatch'];
  /** Base's public RPC and explorer (null until the config is known). */
  network: BaseNetworkOptions | null;
  /** The shop pays smart wallets' gas: a wallet that can take a paymaster gets the shop's at each payment (else none is asked for). */
  gasPaidByShop: boolean;
  refreshCart: () => Promise<void>;
}

export function startPayment(
  request: PaymentRequest,
  { dispatch, network, gasPaidByShop, refreshCart }: StartPaymentOptions,
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
    createOrder,
    refreshCart,
    notify: (notice) => void toast(notice),
    redirect: (url) => window.location.assign(url),
    sleep,
  };
  return runPayment(request, deps);
}
