/**
 * A route into POGS as Uniswap v3 encodes it (`token, fee, token, …`: 20 bytes, 3 bytes, 20
 * bytes…). An exact-output swap walks its path backwards, so the path it is given starts with
 * the token that comes out (POGS) and ends with the one paid in.
 */
import { getAddress, solidityPacked } from 'ethers';
import type { SwapPath } from '../../swap-config';

/** Every pool of the route in the order the coin flows: `[tokenIn, fee, tokenOut]` per hop, POGS last. */
export function hopsOf(path: SwapPath, pogs: string): Array<{ tokenIn: string; tokenOut: string; fee: number }> {
  return path.tokens.map((tokenIn, i) => ({ tokenIn, fee: path.fees[i]!, tokenOut: path.tokens[i + 1] ?? getAddress(pogs.toLowerCase()) }));
}

/** The path exactOutput and quoteExactOutput take: POGS first, then each fee and token back to the coin's token. */
export function exactOutputPath(path: SwapPath, pogs: string): string {
  const types: string[] = ['address'];
  const values: Array<string | number> = [getAddress(pogs.toLowerCase())];
  for (let i = path.tokens.length - 1; i >= 0; i--) {
    types.push('uint24', 'address');
    values.push(path.fees[i]!, path.tokens[i]!);
  }
  return solidityPacked(types, values);
}
