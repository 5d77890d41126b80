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
/** What the admin's attach sheet reads: the transfer, the reports of its hash, the candidate checkouts and their lines. */
export {
  attachCheckoutRows,
  checkoutLines,
  hashReports,
  transferToAttach,
  type AttachCheckoutRow,
  type AttachSearch,
  type AttachTransferRow,
} from './attach-reads';
export { RefundService } from './refunds';
/** The units claimed by checkouts whose payment is on its way (the stock module's claims, given to it in server/wiring.ts). */
export { claimedUnitsByVariant } from './stock-claim';
/** What became of a transfer to the store wallet (chain_transfers.status), and what of it can still be refunded. */
export { refundableWei, type TransferStatus } from './transfer-status';
/**
 * The payments desk's rule (which transfers need a person, and as what) and its reads: the queue
 * and its counts, a transfer with its checkout and order, the export's rows; its one write records
 * that a person dealt with a transfer.
 */
export { itemKindOf, judgedStatusOf, MATCHED } from './desk-kinds';
/** @internal The rule in JavaScript, which the desk's tests read the expected kinds with (the desk itself reads them in SQL). */
export { attentionKindOf } from './desk-kinds';
/** @internal Every desk item by the rule read from scratch, which the desk's tests and bench check it against. */
export { deskItemsFromScratch } from './desk-reads';
export { deskQueue, deskTransferRows, markResolved, transferExists, type DeskTransferRow } from './desk-reads';
export { EXPORT_BATCH, exportBatch, type ExportRow } from './export-reads';
/** The transfers recorded for a checkout, as the admin's order detail lists them. */
export { transfersOfCheckout } from './admin-reads';
