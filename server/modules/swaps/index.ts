/**
 * Paying with ETH or USDC (docs/pay-with-eth-or-usdc.md): the quote of a Uniswap v3 swap that
 * delivers exactly a checkout's POGS to the store wallet, and the wallet's calls that make it.
 */
export { SwapQuotes } from './quote';
export { swapRoutes } from './routes';
/** The encodings the start checks and the doctor quote the configured routes with. */
export { QUOTER_ABI, quoteCall, ROUTER_ABI } from './quote';
export { hopsOf } from './path';
