/**
 * Stock: the units held for payments on their way, and which lines of a cart or checkout cannot be
 * had because of them. The rule itself (known stock, line problems and their words) is pure, in
 * common/availability. It reads the catalogue, checkout and order tables directly and imports no
 * other module.
 */
export { heldFor, heldUnits, lineProblems, lockIntentLines, shortLine } from './stock';
