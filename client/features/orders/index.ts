/** The orders feature's public surface for app/ (the pages themselves load lazily from the router). */
export { clearOrderHistory, orderHistoryQueryKey } from './api/get-orders';
