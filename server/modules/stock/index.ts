/**
 * Stock: how many units of a variant are left for sale, and why a line cannot be bought. The one
 * home of the stock rule (product list, cart, checkout and settlement use it). It reads the
 * catalogue, checkout and order tables directly and imports no other module.
 */
export {
  anyLimited,
  heldFor,
  heldUnits,
  knownStock,
  lineProblem,
  lockIntentLines,
  onlyAvailableMessage,
  shortLine,
  SOLD_OUT_MESSAGE,
  UNAVAILABLE_MESSAGE,
  unitsLeft,
  type Held,
  type IntentStockLine,
  type StockFacts,
} from './stock';
