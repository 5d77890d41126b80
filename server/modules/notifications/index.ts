/**
 * Order updates by Web Push (docs/order-updates.md): the browsers a signed-in wallet subscribed,
 * the routes that subscribe them, and the job that sends each order's news (the outbox jobs the
 * orders module queues with every status change that is news).
 */
/** The wallet's subscriptions, made and removed by its signed-in session; bounded per wallet. */
export { PushSubscriptions } from './subscriptions';
/** Sends the queued order news to every subscription of the order's wallet (a Job of server/workers.ts). */
export { OrderNews } from './sender';
/** GET /api/notifications/key and GET, PUT, DELETE /api/notifications/subscription. */
export { notificationRoutes } from './routes';
/** Local mode's VAPID key pair, kept in the data folder (read by main.ts at start). */
export { loadLocalPushKeys } from './local-keys';
