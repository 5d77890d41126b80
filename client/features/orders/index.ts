/** The orders feature's public surface for app/ (the pages themselves load lazily from the router). */
export {
  clearOrderHistory,
  /** @internal The key of every wallet's order history, which app/'s persistence test proves is never saved offline. */
  orderHistoryQueryKey,
} from './api/order-history-key';
