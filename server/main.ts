/**
 * `npm start`: read the configuration, open the database and migrate it, start the Shopify
 * emulator in local mode (nothing real configured), sync the catalogue, and serve the built shop
 * and the API on one port.
 */
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { BASE_CHAIN_ID } from '../common/chain';
import { ConfigError, loadConfig } from './config';
import { createDb, migrate } from './db';
import { createApp } from './app';
import { createLogger } from './lib/logger';
import { RateLimiter } from './lib/rate-limit';
import { CatalogueService, ShopifyGraphql } from './modules/catalogue';
import { CartService } from './modules/cart';
import { SessionService } from './modules/session';
import { DEMO_WALLET_ACCOUNT, DEV_ACCOUNTS, startLocalChain, type LocalChain } from './chain/local-chain';
import { ensureDemoToken } from './chain/demo-token';
import type { ChainTarget } from './chain/chain-client';
import { createPaymentSystem } from './modules/payments';
import { subscribeShopifyWebhooks } from './modules/orders';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`POGS Shop cannot start.\n${err.message}\nSee the configuration table in README.md.`);
      process.exit(1);
    }
    throw err;
  }
  const logger = createLogger({ level: config.logLevel, pretty: config.env !== 'production' });
  for (const line of config.defaults) logger.info(`default ${line}`);

  const db = createDb(config.database);
  const applied = await migrate(db);
  if (applied.length) logger.info({ migrations: applied }, 'database migrated');

  let localChain: LocalChain | undefined;
  if (config.chain.kind === 'local') {
    localChain = await startLocalChain({ port: config.chain.port, stateFile: config.chain.stateFile, logger });
  }

  let target: ChainTarget;
  if (localChain) {
    const token = await ensureDemoToken(db, localChain.rpcUrl, logger);
    logger.info(
      `default token: demo POGS ${token.deployed ? 'deployed' : 'found'} at ${token.tokenAddress} on the local chain; store wallet ${token.storeWallet}; dev accounts ${DEV_ACCOUNTS.slice(1).join(', ')} were funded with 1,000,000 POGS each (the Demo Wallet is ${DEMO_WALLET_ACCOUNT})`,
    );
    target = {
      rpcUrl: localChain.rpcUrl,
      chainId: BASE_CHAIN_ID,
      tokenAddress: token.tokenAddress,
      storeWallet: token.storeWallet,
      savedHead: localChain.savedHead,
    };
  } else {
    const { rpcUrl, tokenAddress, storeWallet } = config.chain as Extract<typeof config.chain, { kind: 'rpc' }>;
    target = { rpcUrl, chainId: BASE_CHAIN_ID, tokenAddress, storeWallet };
  }

  let listeningPort = config.port;
  const mounts = [];
  let shopify: ShopifyGraphql;
  if (config.mode === 'local') {
    // Loaded only in local mode: a live shop never has the emulator's code in memory. Its
    // secrets come from the data folder; the emulator lives in this very process, behind the
    // same port.
    const { startLocalShopify } = await import('./local-shopify');
    const local = startLocalShopify(config, { origin: () => `http://127.0.0.1:${listeningPort}`, logger });
    config = local.config;
    mounts.push(local.mount);
    shopify = local.shopify;
  } else {
    shopify = new ShopifyGraphql({
      storeDomain: config.shopify.storeDomain,
      apiVersion: config.shopify.apiVersion,
      accessToken: config.shopify.accessToken,
      logger,
    });
  }

  const catalogue = new CatalogueService(db, shopify, logger);
  const sessions = new SessionService(db, { ttlMs: config.sessionTtlMs });
  const carts = new CartService(db, catalogue);
  const rateLimiter = new RateLimiter(db, { scale: config.rateLimitScale });
  if (!rateLimiter.rules.length) logger.warn('rate limits are off (RATE_LIMIT_SCALE=0)');
  const payments = createPaymentSystem({ config, db, logger, shopify, target });
  const rpcChainId = await payments.chain.chainId().catch((err) => {
    logger.error({ err }, 'the chain RPC does not answer; payments wait for it');
    return null;
  });
  if (rpcChainId !== null && rpcChainId !== target.chainId) {
    logger.fatal(
      `the RPC at ${target.rpcUrl} serves chain id ${rpcChainId}, not Base (${target.chainId}); refusing to take payments there`,
    );
    process.exit(1);
  }
  const app = createApp({
    config,
    db,
    logger,
    catalogue,
    sessions,
    carts,
    rateLimiter,
    staticDir: path.join(ROOT, 'dist'),
    mounts,
    demoWallet: localChain ? { rpcUrl: localChain.rpcUrl, account: DEMO_WALLET_ACCOUNT } : undefined,
    payments,
  });
  const server = app.listen(config.port, config.host);
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  listeningPort = (server.address() as AddressInfo).port;

  const runSync = async (why: string) => {
    try {
      const result = await catalogue.sync();
      logger.info({ why, products: result.products, variants: result.variants, removed: result.deactivated }, 'catalogue synced');
    } catch (err) {
      logger.error({ err, why }, 'catalogue sync failed; the shop keeps serving the last synced catalogue');
    }
  };
  if (config.shopify.kind === 'emulator') {
    // Local mode: the first start imports the demo catalogue and prices it so the shop is not empty.
    if (!(await catalogue.lastSync())) {
      await runSync('first start');
      const seeded = await catalogue.seedDemoPrices();
      if (seeded) logger.info(`default demo prices: ${seeded} demo variants priced in POG and activated`);
    }
  } else {
    void runSync('start');
  }
  const timer = config.catalogueSyncIntervalMs > 0 ? setInterval(() => void runSync('schedule'), config.catalogueSyncIntervalMs) : null;
  timer?.unref();
  // Expired shopper sessions (and their carts), sign-in nonces and rate-limit counters are swept hourly.
  const sweep = async () => {
    const swept = await sessions.sweep().catch((err) => logger.error({ err }, 'session sweep failed'));
    await payments.auth.sweep().catch((err) => logger.error({ err }, 'sign-in nonce sweep failed'));
    await rateLimiter.sweep().catch((err) => logger.error({ err }, 'rate-limit counter sweep failed'));
    if (swept) logger.info({ swept }, 'expired sessions removed');
  };
  void sweep();
  const sweeper = setInterval(() => void sweep(), 60 * 60 * 1000);
  sweeper.unref();

  // Payments: the chain watcher finds transfers on its own; the hand-off creates Shopify draft
  // orders; a slow poll catches Shopify webhooks that never arrived.
  payments.watcher.start();
  payments.handoff.start();
  const webhookUri =
    config.shopify.kind === 'emulator'
      ? `http://127.0.0.1:${listeningPort}/api/webhooks/shopify`
      : `${config.publicUrl}/api/webhooks/shopify`;
  subscribeShopifyWebhooks(shopify, webhookUri, logger).then(
    (n) => n && logger.info({ uri: webhookUri, topics: n }, 'Shopify webhooks subscribed'),
    (err) => logger.warn({ err }, 'could not subscribe Shopify webhooks; the order poller still catches up'),
  );
  const reconciler = setInterval(
    () => void payments.handoff.reconcile().catch((err) => logger.warn({ err }, 'Shopify order poll failed')),
    5 * 60 * 1000,
  );
  reconciler.unref();

  // Without PUBLIC_URL, print the port actually bound (PORT=0 picks a free one).
  const url = process.env.PUBLIC_URL ? config.publicUrl : `http://localhost:${listeningPort}`;
  logger.info(`POGS Shop is running at ${url}`);

  const shutdown = async (signal: string) => {
    logger.info({ signal }, 'shutting down');
    if (timer) clearInterval(timer);
    clearInterval(sweeper);
    clearInterval(reconciler);
    server.close();
    await Promise.all([payments.watcher.stop(), payments.handoff.stop()]);
    payments.chain.destroy();
    await localChain?.stop();
    await db.destroy();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
}

main().catch((err) => {
  console.error('POGS Shop failed to start:', err);
  process.exit(1);
});
