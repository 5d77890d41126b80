/**
 * Builds the payment services from their dependencies: the chain client, checkouts, settlement,
 * orders from a transaction, refunds and the chain watcher. The rest of the server (the orders,
 * the Shopify hand-off, sign-in) is built beside it in server/wiring.ts, the one place the
 * server's services are put together, for `npm start` and the integration tests alike.
 */
import type { OrderReference } from '../../../common/api';
import type { Config } from '../../config';
import { ChainClient, type ChainTarget } from './chain-client';
import { dbKind, type Db } from '../../db';
import type { Logger } from '../../lib/logger';
import type { Outages } from '../../lib/outages';
import type { OrdersService } from '../orders';
import type { StockService } from '../stock';
import { CheckoutService } from './checkout-service';
import { OrderFromTransaction } from './order-from-transaction';
import { RefundService } from './refunds';
import { SettlementService } from './settlement';
import type { SwapFacts } from './swap-payer';
import { ChainWatcher } from './watcher';

export interface PaymentServices {
  target: ChainTarget;
  chain: ChainClient;
  checkouts: CheckoutService;
  settlement: SettlementService;
  orderFromTx: OrderFromTransaction;
  /** Refunds the store wallet sent, verified on chain and recorded (the admin's payments desk). */
  refunds: RefundService;
  watcher: ChainWatcher;
}

export function createPaymentServices(deps: {
  config: Config;
  db: Db;
  logger: Logger;
  target: ChainTarget;
  /** The orders a paid checkout's shopper is answered with (POST /api/orders/create). */
  orders: OrdersService;
  /** What payments on their way hold (built in server/wiring.ts from payments' claims and orders' unsynced sales). */
  stock: StockService;
  /** Where the watcher's passes report the outages they meet. */
  outages?: Outages;
  now?: () => Date;
  /** The dollar reference at a block, kept with each order made (server/wiring.ts hands in the price reference's). */
  referenceAt?: (block: number) => Promise<OrderReference>;
  /**
   * The swap route's facts, lower case (absent or null when no route is set): a transfer from one
   * of its pools was paid through a swap, by whoever the chain proves (swap-payer.ts).
   */
  swap?: SwapFacts | null;
}): PaymentServices {
  const { config, db, logger, target, orders, stock, now, outages, referenceAt } = deps;
  const swap = deps.swap ?? null;
  const chain = new ChainClient(target);
  const checkouts = new CheckoutService(db, target, {
    stock,
    ttlMs: config.payments.checkoutTtlMs,
    latePaymentMs: config.payments.latePaymentMs,
    now,
  });
  const settlement = new SettlementService(db, stock, { now, latePaymentMs: config.payments.latePaymentMs, logger, referenceAt });
  const orderFromTx = new OrderFromTransaction({
    chain,
    checkouts,
    settlement,
    orders,
    requiredConfirmations: config.payments.requiredConfirmations,
    logger,
    outages,
    swap,
  });
  const refunds = new RefundService({ chain, requiredConfirmations: config.payments.requiredConfirmations, logger, now, swap });
  const watcher = new ChainWatcher({
    db,
    dbKind: dbKind(db),
    chain,
    settlement,
    checkouts,
    config: config.payments,
    logger,
    outages,
    swap,
    startAtGenesis: config.chain.kind === 'local',
  });
  return { target, chain, checkouts, settlement, orderFromTx, refunds, watcher };
}
