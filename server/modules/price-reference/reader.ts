/**
 * What the dollar reference reads of the chain, through the shop's chain client (its provider, its
 * timeout, its outage errors): once, the pool's tokens and decimals and the feed's decimals and
 * name (`readPoolFacts`, also the start checks'); then, at one block, the pool's observations, the
 * feed's round and the sequencer's (`readAtBlock`), for twap.ts to judge.
 */
import { Contract, isError } from 'ethers';
import type { PriceReferenceContracts } from '../../price-reference-config';
import type { ChainClient } from '../payments';
import type { ChainReading, PoolSides, RoundData } from './twap';

const POOL_ABI = [
  'function token0() view returns (address)',
  'function token1() view returns (address)',
  'function observe(uint32[] secondsAgos) view returns (int56[] tickCumulatives, uint160[] secondsPerLiquidityCumulativeX128s)',
];
const ERC20_ABI = ['function decimals() view returns (uint8)', 'function symbol() view returns (string)'];
const FEED_ABI = [
  'function decimals() view returns (uint8)',
  'function description() view returns (string)',
  'function latestRoundData() view returns (uint80 roundId, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound)',
];

/** The short average the window's is compared with: the last minute. */
export const RECENT_SECONDS = 60;

/** What does not change: which token POGS is, the decimals, and the source as people read it. */
export interface PoolFacts extends PoolSides {
  feedDecimals: number;
  /** "Uniswap v3 POGS/WETH 30-min average × Chainlink ETH/USD" */
  source: string;
}

/** The settings name contracts that cannot give a reference (the start refuses; the doctor says why). */
export class PriceReferenceSetupError extends Error {
  constructor(
    message: string,
    /** What to change, for the doctor's line. */
    readonly fix: string,
  ) {
    super(message);
    this.name = 'PriceReferenceSetupError';
  }
}

const windowText = (s: number) => (s % 60 === 0 ? `${s / 60}-min` : `${s}-s`);

/**
 * Reads the pool's tokens and both tokens' decimals and symbols, and the feed's decimals and
 * description. A pool that does not hold `tokenAddress` (POGS), or a contract that does not answer
 * as a pool or a feed, is a PriceReferenceSetupError; an RPC that does not answer is the chain
 * client's UnavailableError.
 */
export async function readPoolFacts(
  chain: ChainClient,
  contracts: PriceReferenceContracts,
  tokenAddress: string,
  windowSeconds: number,
): Promise<PoolFacts> {
  const call = async <T>(what: string, fix: string, read: () => Promise<T>): Promise<T> => {
    try {
      return await read();
    } catch (err) {
      if (isError(err, 'CALL_EXCEPTION') || isError(err, 'BAD_DATA')) throw new PriceReferenceSetupError(`${what} did not answer`, fix);
      throw err;
    }
  };
  return chain.withinTimeout(async () => {
    const pool = new Contract(contracts.pool, POOL_ABI, chain.provider);
    const poolFix = 'PRICE_REFERENCE_POOL must be a Uniswap v3 pool on Base that pairs POGS with WETH or a USD stablecoin';
    const [token0, token1] = await call(`token0()/token1() of the pool ${contracts.pool}`, poolFix, () =>
      Promise.all([pool.getFunction('token0')(), pool.getFunction('token1')()]),
    );
    const pogs = tokenAddress.toLowerCase();
    const pogsIsToken0 = String(token0).toLowerCase() === pogs;
    if (!pogsIsToken0 && String(token1).toLowerCase() !== pogs) {
      throw new PriceReferenceSetupError(
        `the pool ${contracts.pool} pairs ${token0} and ${token1}, neither of them POGS (${tokenAddress})`,
        poolFix,
      );
    }
    const other = new Contract(pogsIsToken0 ? token1 : token0, ERC20_ABI, chain.provider);
    const token = new Contract(tokenAddress, ERC20_ABI, chain.provider);
    const feed = new Contract(contracts.usdFeed, FEED_ABI, chain.provider);
    const tokenFix = "the pool's tokens must be ERC-20s that answer decimals() and symbol()";
    const [pogsDecimals, pogsSymbol, otherDecimals, otherSymbol] = await call("the pool's tokens' decimals() and symbol()", tokenFix, () =>
      Promise.all([
        token.getFunction('decimals')(),
        token.getFunction('symbol')(),
        other.getFunction('decimals')(),
        other.getFunction('symbol')(),
      ]),
    );
    const feedFix = `PRICE_REFERENCE_USD_FEED must be Chainlink's USD feed of ${otherSymbol} on Base`;
    const [feedDecimals, description] = await call(`the feed ${contracts.usdFeed}`, feedFix, () =>
      Promise.all([feed.getFunction('decimals')(), feed.getFunction('description')()]),
    );
    const sequencer = new Contract(contracts.sequencerFeed, FEED_ABI, chain.provider);
    await call(
      `the sequencer feed ${contracts.sequencerFeed}`,
      "PRICE_REFERENCE_SEQUENCER_FEED must be Chainlink's L2 sequencer uptime feed for Base",
      () => sequencer.getFunction('latestRoundData')(),
    );
    const feedName = String(description).replace(/\s*\/\s*/g, '/');
    return {
      pogsIsToken0,
      pogsDecimals: Number(pogsDecimals),
      otherDecimals: Number(otherDecimals),
      feedDecimals: Number(feedDecimals),
      source: `Uniswap v3 ${pogsSymbol}/${otherSymbol} ${windowText(windowSeconds)} average × Chainlink ${feedName}`,
    };
  });
}

const roundOf = (r: readonly bigint[]): RoundData => ({
  roundId: BigInt(r[0]!),
  answer: BigInt(r[1]!),
  startedAt: BigInt(r[2]!),
  updatedAt: BigInt(r[3]!),
  answeredInRound: BigInt(r[4]!),
});

/**
 * Everything twap.ts judges, read at block `block` (eth_call with that block tag, so the answer is
 * the chain's as of that block whatever has happened since), within `timeoutMs` in all.
 */
export async function readAtBlock(
  chain: ChainClient,
  contracts: PriceReferenceContracts,
  block: number,
  windowSeconds: number,
  timeoutMs: number,
): Promise<Omit<ChainReading, 'feedDecimals'>> {
  const overrides = { blockTag: block };
  const pool = new Contract(contracts.pool, POOL_ABI, chain.provider);
  const feed = new Contract(contracts.usdFeed, FEED_ABI, chain.provider);
  const sequencer = new Contract(contracts.sequencerFeed, FEED_ABI, chain.provider);
  const observed = pool
    .getFunction('observe')([windowSeconds, RECENT_SECONDS, 0], overrides)
    .then(
      (r: [bigint[], bigint[]]) => [BigInt(r[0][0]!), BigInt(r[0][1]!), BigInt(r[0][2]!)] as const,
      (err: unknown) => {
        // The pool has no observation as old as the window (Oracle.sol's 'OLD').
        if (isError(err, 'CALL_EXCEPTION') && err.reason === 'OLD') return 'OLD' as const;
        throw err;
      },
    );
  return withTimeout(
    (async () => {
      const [header, tickCumulatives, round, uptime] = await Promise.all([
        chain.provider.getBlock(block),
        observed,
        feed.getFunction('latestRoundData')(overrides),
        sequencer.getFunction('latestRoundData')(overrides),
      ]);
      if (!header) throw new Error(`the chain has no block ${block}`);
      return { blockTimestamp: header.timestamp, tickCumulatives, feed: roundOf(round), sequencer: roundOf(uptime) };
    })(),
    timeoutMs,
    `reading the price reference at block ${block}`,
  );
}

/** `work`, or an Error after `ms` (the calls still under way end at the chain client's own timeout). */
async function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      work,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
