/**
 * Stock: the units held for payments on their way, and which lines of a cart or checkout cannot be
 * had because of them. The rule itself (known stock, line problems and their words) is pure, in
 * common/availability. It owns no table and imports no other module: the claims and the unsynced
 * sales are read by their owners (payments, orders), whose read functions server/wiring.ts gives
 * the StockService it builds.
 */
export { heldFor, StockService, type ClaimLine, type HeldQuery } from './stock';
