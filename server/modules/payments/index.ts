/** Payments: checkout intents, on-chain verification, settlement into orders, the chain watcher. */
export { CheckoutService, type PaymentTarget } from './checkout-service';
export { receivedWeiByCheckout } from './checkout-received';
/** A checkout as the paymaster sees it: where its payment goes, the amount it asks for now, whose it is, whether it can be paid. */
export { checkoutNotFound } from './checkout-service';
export { checkoutToSponsor } from './checkout-received';
export { OrderFromTransaction } from './order-from-transaction';
export { paymentRoutes } from './routes';
export { createPaymentServices, type PaymentServices } from './system';
export { ChainClient, type ChainTarget } from './chain-client';
/** Why a transfer that already counts (or went back) cannot be attached by the admin. */
export { notAttachable } from './settlement-decision';
export { RefundService } from './refunds';
/** The swap route's facts: who paid a transfer from its pools is proven from the chain (swap-payer.ts). */
export type { SwapFacts } from './swap-payer';
/** The units claimed by checkouts whose payment is on its way (the stock module's claims, given to it in server/wiring.ts). */
export { claimedUnitsByVariant } from './stock-claim';
/** What became of a transfer to the store wallet (chain_transfers.status), and what of it can still be refunded. */
export { refundableWei, type TransferStatus } from './transfer-status';
/**
 * The payments desk's rule (which transfers need a person, and as what), in JavaScript and as SQL
 * for the desk's reads (server/modules/admin/desk/), and its one write: that a person dealt with a
 * transfer. The transfer statuses that count towards a checkout, and those the export lists.
 */
export {
  attentionKindSql,
  EXPORTED_TRANSFER_STATUSES,
  exportStatusSql,
  itemKindOf,
  judgedStatusOf,
  MATCHED,
  type FactsSql,
} from './desk-kinds';
/** @internal The rule in JavaScript, which the desk's tests read the expected kinds with (the desk itself reads them in SQL). */
export { attentionKindOf } from './desk-kinds';
export { markResolved } from './desk-resolutions';
export { COUNTED } from './checkout-received';
/** The data of the merchant's `payment.needs_attention` webhook event (server/wiring.ts hands it to the sender). */
export { transferEventData } from './webhook-data';
