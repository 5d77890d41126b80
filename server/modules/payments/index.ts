/** Payments: checkout intents, on-chain verification, settlement into orders, the chain watcher. */
export { CheckoutService, type PaymentTarget } from './checkout-service';
export { SettlementService, type Settlement } from './settlement';
export { OrderFromTransaction } from './order-from-transaction';
export { ChainWatcher, type TickResult } from './watcher';
export { paymentRoutes } from './routes';
export { decodeStoreTransfer, type StoreTransfer } from './verify';
export { createPaymentSystem, type PaymentSystem } from './system';
export { ChainClient, type ChainTarget } from './chain-client';
