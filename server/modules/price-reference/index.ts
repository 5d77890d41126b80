/**
 * The dollar reference beside POGS prices (docs/price-reference.md): a Uniswap v3 pool's
 * time-weighted average times a Chainlink feed, read in the background and answered from memory,
 * hidden whenever it cannot be trusted; and the reference at a payment's block, which payments
 * keeps with the order.
 */
export { checkPriceReference, PriceReferenceService } from './service';
export { priceReferenceRoutes } from './routes';
/** What the start checks and the doctor read of the configured pool and feeds, and what they refuse. */
export { PriceReferenceSetupError } from './reader';
