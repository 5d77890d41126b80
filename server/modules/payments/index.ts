/** Payments: checkout intents, on-chain verification, settlement into orders, the chain watcher. */
export { CheckoutService, receivedWeiByCheckout, type PaymentTarget } from './checkout-service';
export { OrderFromTransaction } from './order-from-transaction';
export { paymentRoutes } from './routes';
export { createPaymentSystem, type PaymentSystem } from './system';
export { ChainClient, type ChainTarget } from './chain-client';
export { RefundService } from './refunds';
