/**
 * The full local demo's start-up, all in one place: the embedded anvil (under its guard), the demo
 * token, the shop's paymaster (sponsored gas), the dollar reference's pool and feeds, the swap venue
 * (paying with ETH or USDC), the Demo Wallet's JSON-RPC and the Shopify emulator inside the shop's own server.
 *
 * main.ts reaches this module only by a dynamic import, and only when `config.mode` is 'local'. The
 * build makes it an entry of its own (dist-server/local/local-mode.js) and the production set leaves it
 * out together with everything only it reaches (scripts/stage-production.ts): anvil, the guard, the
 * contracts' artifacts, the emulator, PGlite's client. A live shop never has any of it on disk.
 */
import type Koa from 'koa';
import type { Router } from '@koa/router';
import { BASE_CHAIN_ID } from '../../common/chain';
import type { Config } from '../config';
import type { Db } from '../db';
import type { Logger } from '../lib/logger';
import type { ShopifyGraphql } from '../shopify';
import type { ChainTarget, SwapFacts } from '../modules/payments';
import { DEMO_WALLET_ACCOUNT, DEV_ACCOUNTS, startLocalChain } from '../chain/local-chain';
import { ensureDemoToken } from '../chain/demo-token';
import { ensureLocalPaymaster, localEntryPoint } from '../chain/local-paymaster';
import { ensurePricePool, type LocalPricePool } from '../chain/price-pool';
import { ensureSwapVenue, localSwapConfig, type LocalSwapVenue } from '../chain/swap-venue';
import { BASE_SWAP_QUOTER, BASE_SWAP_ROUTER } from '../swap-config';
import { demoWalletRoutes } from '../chain/demo-wallet';
import { startLocalShopify } from './local-shopify';

/** How far back a new local chain begins: the pool's history, past the default 30-minute window and the sequencer's grace hour. */
const LOCAL_HISTORY_S = 3 * 3600;

export interface LocalMode {
  /**
   * The configuration with the emulator's secrets filled in (the webhook key payments check) and
   * the local chain's paymaster (the shop pays smart wallets' gas, as a live shop can).
   */
  config: Config;
  /** The demo token on the local chain, paid to dev account #0. */
  target: ChainTarget;
  /** The real Shopify client, pointed at the emulator behind the shop's own port. */
  shopify: ShopifyGraphql;
  /** The emulator, to mount in the shop's app (createApp serves it in local mode only). */
  mount: { path: string; app: Koa };
  /** The Demo Wallet's JSON-RPC routes, acting as one dev account of the local chain. */
  demoWallet: Router;
  /** The swap venue's facts: who paid a swap through its router or the local EntryPoint is proven from the chain. */
  swap: SwapFacts;
  /** Ends the local chain (the guard saves it first). */
  stop(): Promise<void>;
}

/**
 * The local swap venue's facts for payments (lower case): its router, the EntryPoint local mode
 * deploys, the routes' POGS-side pools (POGS/WETH for ETH, POGS/USDC for USDC), USDC and WETH.
 */
export function localSwapFacts(
  venue: Pick<LocalSwapVenue, 'router' | 'usdc' | 'usdcPool'>,
  pricePool: Pick<LocalPricePool, 'pool' | 'weth'>,
): SwapFacts {
  return {
    router: venue.router.toLowerCase(),
    entryPoint: localEntryPoint().toLowerCase(),
    pools: [pricePool.pool, venue.usdcPool].map((a) => a.toLowerCase()),
    usdc: venue.usdc.toLowerCase(),
    weth: pricePool.weth.toLowerCase(),
  };
}

/**
 * Starts the local chain on `config.chain`'s state file, deploys the demo token once per chain and
 * builds the emulator. `origin` is where this process itself is reachable, asked at each request
 * since the port is known only after listen.
 */
export async function startLocalMode(config: Config, opts: { db: Db; logger: Logger; origin: () => string }): Promise<LocalMode> {
  if (config.mode !== 'local') throw new Error('The local demo runs only when nothing real is configured');
  const { db, logger } = opts;
  // A new chain begins three hours back, so the dollar reference's pool, made first, has the history
  // its 30-minute average needs once the chain catches up with the clock (below).
  const chain = await startLocalChain({
    port: config.chain.port,
    stateFile: config.chain.stateFile,
    logger,
    historySeconds: LOCAL_HISTORY_S,
  });
  try {
    const token = await ensureDemoToken(db, chain.rpcUrl, logger);
    logger.info(
      `default token: demo POGS ${token.deployed ? 'deployed' : 'found'} at ${token.tokenAddress} on the local chain; store wallet ${token.storeWallet}; dev accounts ${DEV_ACCOUNTS.slice(1).join(', ')} were funded with 1,000,000 POGS each (the Demo Wallet is ${DEMO_WALLET_ACCOUNT})`,
    );
    if (config.paymaster) {
      logger.warn(
        'the PAYMASTER_ADDRESS, PAYMASTER_SIGNER_KEY and PAYMASTER_SERVICE_* settings are for a shop on Base and are not used here: the local chain has its own paymaster (the budget and limits apply to it)',
      );
    }
    const paymaster = await ensureLocalPaymaster(db, chain.rpcUrl, logger);
    logger.info(
      `sponsored gas: the shop's paymaster ${paymaster.deployed ? 'deployed' : 'found'} at ${paymaster.address} (EntryPoint ${paymaster.entryPoint}); it pays smart wallets' gas on the local chain`,
    );
    if (config.priceReference.contracts) {
      logger.warn(
        'the PRICE_REFERENCE_POOL, PRICE_REFERENCE_USD_FEED and PRICE_REFERENCE_SEQUENCER_FEED settings are for a shop on Base and are not used here: the local chain has its own pool and feeds (the window, the grace period and the gap apply to them)',
      );
    }
    const pricePool = await ensurePricePool(db, chain.rpcUrl, token.tokenAddress, logger);
    const history = chain.inThePast;
    await chain.catchUpWithClock();
    logger.info(
      `dollar reference: POGS/WETH pool ${pricePool.deployed ? 'deployed' : 'found'} at ${pricePool.pool} (1 POGS ≈ $0.05), ETH/USD feed ${pricePool.usdFeed}, sequencer feed ${pricePool.sequencerFeed}${pricePool.deployed && !history ? `; the chain was made before the pool, so the reference shows once the pool has ${config.priceReference.windowSeconds} s of history on the chain's clock (which moves as blocks are mined)` : ''}`,
    );
    const { swap } = config;
    if (Object.keys(swap.routes).length || swap.router !== BASE_SWAP_ROUTER || swap.quoter !== BASE_SWAP_QUOTER) {
      logger.warn(
        'the SWAP_ETH_PATH, SWAP_USDC_PATH, SWAP_ROUTER and SWAP_QUOTER settings are for a shop on Base and are not used here: the local chain has its own router, quoter and pools (the slippage bound and the quote lifetime apply to them)',
      );
    }
    const venue = await ensureSwapVenue(db, chain.rpcUrl, { ...pricePool, token: token.tokenAddress }, logger);
    logger.info(
      `pay with ETH or USDC: SwapRouter02 ${venue.deployed ? 'deployed' : 'found'} at ${venue.router}, QuoterV2 ${venue.quoter}, demo USDC ${venue.usdc} (dev accounts ${DEV_ACCOUNTS.slice(1).join(', ')} hold 100,000 each when it is new), POGS/USDC pool (0.05 %) ${venue.usdcPool}; ETH swaps through the POGS/WETH pool (0.3 %)`,
    );
    const target: ChainTarget = {
      rpcUrl: chain.rpcUrl,
      chainId: BASE_CHAIN_ID,
      tokenAddress: token.tokenAddress,
      storeWallet: token.storeWallet,
      savedHead: chain.savedHead,
      timeoutMs: config.timeouts.chainRpcMs,
    };
    // The emulator lives in this very process, behind the same port; its secrets come from the data folder.
    const local = await startLocalShopify(config, { origin: opts.origin, logger });
    return {
      config: {
        ...local.config,
        swap: localSwapConfig(config.swap, venue, pricePool.weth),
        priceReference: {
          ...config.priceReference,
          contracts: { pool: pricePool.pool, usdFeed: pricePool.usdFeed, sequencerFeed: pricePool.sequencerFeed },
        },
        paymaster: {
          entryPoint: paymaster.entryPoint,
          sponsor: { kind: 'verifying', address: paymaster.address, signerKey: paymaster.signerKey },
          ...config.sponsorship,
          localWallets: paymaster.wallets,
        },
      },
      target,
      shopify: local.shopify,
      mount: local.mount,
      demoWallet: demoWalletRoutes({ rpcUrl: chain.rpcUrl, account: DEMO_WALLET_ACCOUNT }),
      swap: localSwapFacts(venue, pricePool),
      stop: () => chain.stop(),
    };
  } catch (err) {
    await chain.stop();
    throw err;
  }
}
