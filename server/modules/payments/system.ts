/**
 * Wires the payment pieces together, the same way for `npm start` and the integration tests.
 */
import type { Config } from '../../config';
import { ChainClient, type ChainTarget } from './chain-client';
import { dbKind, type Db } from '../../db';
import type { Logger } from '../../lib/logger';
import type { ShopifyGraphql } from '../../shopify';
import { OrdersService, ShopifyHandoff } from '../orders';
import { AuthService } from '../auth';
import { CheckoutService } from './checkout-service';
import { OrderFromTransaction } from './order-from-transaction';
import { RefundService } from './refunds';
import { SettlementService } from './settlement';
import { ChainWatcher } from './watcher';

export interface PaymentSystem {
  target: ChainTarget;
  chain: ChainClient;
  checkouts: CheckoutService;
  settlement: SettlementService;
  orders: OrdersService;
  orderFromTx: OrderFromTransaction;
  /** Refunds the store wallet sent, verified on chain and recorded (the admin's payments desk). */
  refunds: RefundService;
  watcher: ChainWatcher;
  handoff: ShopifyHandoff;
  auth: AuthService;
  webhookSecret: string | undefined;
}

export function createPaymentSystem(deps: {
  config: Config;
  db: Db;
  logger: Logger;
  shopify: ShopifyGraphql;
  target: ChainTarget;
  now?: () => Date;
}): PaymentSystem {
  const { config, db, logger, shopify, target, now } = deps;
  const chain = new ChainClient(target);
  const checkouts = new CheckoutService(db, target, {
    ttlMs: config.payments.checkoutTtlMs,
    latePaymentMs: config.payments.latePaymentMs,
    now,
  });
  const settlement = new SettlementService(db, { now, latePaymentMs: config.payments.latePaymentMs, logger });
  const orders = new OrdersService(db, { explorerUrl: config.mode === 'local' ? null : config.publicLinks.explorerUrl });
  const orderFromTx = new OrderFromTransaction({
    chain,
    checkouts,
    settlement,
    orders,
    requiredConfirmations: config.payments.requiredConfirmations,
    logger,
  });
  const refunds = new RefundService({ chain, requiredConfirmations: config.payments.requiredConfirmations, logger, now });
  const watcher = new ChainWatcher({
    db,
    dbKind: dbKind(db),
    chain,
    settlement,
    checkouts,
    config: config.payments,
    logger,
    startAtGenesis: config.chain.kind === 'local',
  });
  const handoff = new ShopifyHandoff({ db, shopify, logger, now });
  // The chain's RPC also checks contract wallets' sign-in signatures (EIP-1271).
  const auth = new AuthService(db, {
    chainId: target.chainId,
    provider: chain.provider,
    now,
    // A proven wallet may claim the transfers it sent with a wrong amount (never a typed address).
    onSignedIn: (sessionId, address) =>
      settlement.adoptUnmatched(sessionId, address).catch((err) => logger.error({ err }, 'matching a signed-in wallet’s transfers failed')),
  });
  return {
    target,
    chain,
    checkouts,
    settlement,
    orders,
    orderFromTx,
    refunds,
    watcher,
    handoff,
    auth,
    webhookSecret: config.shopify.clientSecret,
  };
}
