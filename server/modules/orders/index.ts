/** Orders: the status machine, the shopper's view, the Shopify hand-off and webhooks. */
export { OrdersService, shippingPath, type OrderRow, type Viewer } from './service';
export { nextStatus, needsShipping, type OrderEvent } from './status';
export { ShopifyHandoff, orderTag } from './handoff';
export { shopifyWebhookRoutes, subscribeShopifyWebhooks } from './webhooks';
export { applyOrderEvent } from './events';
export { orderRoutes } from './routes';
