/**
 * What payments must know to prove who paid a swap on Base (the payments module's SwapFacts): the
 * configured router, the EntryPoints a smart wallet's swap may come through, the pools that send
 * the store its POGS at the end of each route (found on the router's factory), USDC and the WETH
 * the router wraps ether into. Read from the chain once at start; a transfer to the store from one
 * of those pools is a swap, and a refund of it goes to the payer the chain proves, never to the pool.
 */
import { getAddress, Interface, ZeroAddress } from 'ethers';
import { PAY_WITH } from '../../../common/swap-pay';
import type { SwapConfig } from '../../swap-config';
import type { ChainClient, SwapFacts } from '../payments';
import { hopsOf } from './path';
import { ROUTER_ABI } from './quote';

const FACTORY = new Interface(['function getPool(address tokenA, address tokenB, uint24 fee) view returns (address pool)']);

/**
 * ERC-4337's EntryPoints, v0.6 (Coinbase Smart Wallet's), v0.7 and v0.8, at the same address on
 * every chain; they share the UserOperationEvent and log an operation's own events before it.
 */
export const ENTRY_POINTS = [
  '0x5FF137D4b0FDCD49DcA30c7CF57E578a026d2789',
  '0x0000000071727De22E5E9d8BAf0edAc6f37da032',
  '0x4337084D9E255Ff0702461CF8895CE9E3b5Ff108',
] as const;

/**
 * The facts of the configured routes, or null when no coin has one. `entryPoint`: the one the
 * shop's paymaster uses, when it is not one of ERC-4337's own. Every call within the chain's timeout.
 */
export async function swapFacts(
  config: SwapConfig,
  tokenAddress: string,
  chain: ChainClient,
  entryPoint?: string,
): Promise<SwapFacts | null> {
  const coins = PAY_WITH.filter((coin) => config.routes[coin]);
  if (!coins.length) return null;
  const call = async (to: string, iface: Interface, fn: string, args: unknown[]) =>
    String(
      iface.decodeFunctionResult(
        fn,
        String(await chain.request('eth_call', [{ to, data: iface.encodeFunctionData(fn, args) }, 'latest'])),
      )[0],
    );
  return chain.withinTimeout(async () => {
    const weth = await call(config.router, ROUTER_ABI, 'WETH9', []);
    const factory = await call(config.router, ROUTER_ABI, 'factory', []);
    const pools: string[] = [];
    for (const coin of coins) {
      const last = hopsOf(config.routes[coin]!, tokenAddress).at(-1)!;
      const pool = getAddress(await call(factory, FACTORY, 'getPool', [last.tokenIn, last.tokenOut, last.fee]));
      if (pool !== ZeroAddress) pools.push(pool.toLowerCase());
    }
    const lower = (a: string) => a.toLowerCase();
    return {
      router: lower(config.router),
      entryPoints: [...new Set([...ENTRY_POINTS, ...(entryPoint ? [entryPoint] : [])].map(lower))],
      pools: [...new Set(pools)],
      usdc: lower(config.routes.USDC?.tokens[0] ?? ZeroAddress),
      weth: lower(weth),
    };
  });
}
