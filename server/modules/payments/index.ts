/** Payments: checkout intents, on-chain verification, settlement into orders, the chain watcher. */
export { CheckoutService, receivedWeiByCheckout, type PaymentTarget } from './checkout-service';
export { OrderFromTransaction } from './order-from-transaction';
export { paymentRoutes } from './routes';
export { createPaymentServices, type PaymentServices } from './system';
export { ChainClient, type ChainTarget } from './chain-client';
/** Why a transfer that already counts (or went back) cannot be attached by the admin. */
export { notAttachable } from './settlement-decision';
export { RefundService } from './refunds';
/** The units claimed by checkouts whose payment is on its way (the stock module's claims, given to it in server/wiring.ts). */
export { claimedUnitsByVariant } from './stock-claim';
/** What became of a transfer to the store wallet (chain_transfers.status), and what of it can still be refunded. */
export { isTransferStatus, refundableWei, type TransferStatus } from './transfer-status';
