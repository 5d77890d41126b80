/**
 * Orders: writing a paid order and what later happens to it (the status machine, the Shopify
 * hand-off, webhooks, chain reorganisations), and the shopper's view. Payments calls in here with
 * its transaction; orders never imports payments.
 */
/** The shopper's view of orders (only the buyer may read one). */
export { OrdersService } from './service';
/** Writes a paid checkout's order, items, stock taken and hand-off job in the caller's transaction. */
export { createOrder } from './create-order';
/**
 * The order a checkout made (payments' answer to the shopper), and the units orders took that
 * Shopify has no order for yet (the stock module's unsynced sales, given to it in server/wiring.ts).
 */
export { orderIdOfCheckout, unsyncedSalesByVariant } from './create-order';
/** Status changes a chain reorganisation causes, applied in the caller's transaction. */
export { lockOrder, failReorgedOrder, restoreReorgedOrder, PAYMENT_REORGED } from './payment-events';
/**
 * The refunds payments records (read and written in its transaction), and what they do to an order
 * (fully refunded → 'refunded'), in the caller's transaction.
 */
export { insertRefund, refundedWeiByTransfer, refundOrderIfFull, refundsOfLogs, refundsRecordedBy } from './refund-events';
/** Creates each paid order's Shopify draft order (the outbox job createOrder queues); `runOne` is the admin's retry. */
export { outboxDepth, ShopifyHandoff } from './handoff';
/** The outbox job kind of a Shopify hand-off (the admin's orders view reads the jobs of that kind). */
export { HANDOFF_JOB } from './create-order';
/** Shopify's signed webhooks, subscribing to them at start, and which order topics are not subscribed. */
export { shopifyWebhookRoutes, subscribeShopifyWebhooks, missingWebhookTopics } from './webhooks';
/** GET /api/orders/:id, the wallet's order list and the shipping link. */
export { orderRoutes } from './routes';
/**
 * The outbox's mechanics, for the order news jobs the status changes queue (`notify:<status>`,
 * ORDER_NEWS_KINDS): claim one with a lease, finish it, or fail it for a retry with back-off; run a pass of them.
 */
export { claimOutboxJob, failOutboxJob, finishOutboxJob, ORDER_NEWS_KINDS, runDueOutboxJobs, type OutboxJob } from './outbox';
/** What the news of a job says, and the wallet whose devices hear it. */
export { orderNewsOf } from './news';
/**
 * The dollar reference an order keeps from its payment's block (payments records it after the
 * order's transaction), and how a row's reference reads (the admin's orders view and export).
 */
export { orderReferenceOf, recordOrderReference } from './price-reference';
/** The data of the merchant's webhook events about an order and about a refund (server/wiring.ts hands them to the sender). */
export { orderEventData, refundEventData } from './webhook-data';
