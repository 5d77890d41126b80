/**
 * `npm start`: read the configuration, open the database and migrate it, start the Shopify
 * emulator in local mode (nothing real configured), sync the catalogue, and serve the built shop
 * and the API on one port.
 */
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { BASE_CHAIN_ID } from '../common/chain';
import { ConfigError, loadConfig, withAdminPassword } from './config';
import { createDb, migrate } from './db';
import { createApp } from './app';
import { createLogger } from './lib/logger';
import { sleep } from './lib/sleep';
import type { ShopifyGraphql } from './shopify';
import { DEMO_WALLET_ACCOUNT, DEV_ACCOUNTS, startLocalChain, type LocalChain } from './chain/local-chain';
import { ensureDemoToken } from './chain/demo-token';
import type { ChainTarget } from './modules/payments';
import { subscribeShopifyWebhooks } from './modules/orders';
import { formatCheck, liveStartLine, runLiveChecks } from './live-checks';
import { loadLocalAdminPassword } from './modules/admin';
import { buildServices } from './wiring';
import { createWorkers, runCatalogueSync } from './workers';

/** How long shutdown waits for the background jobs' passes under way. */
const STOP_GRACE_MS = 5_000;

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

  if (config.adminPassword.kind === 'generated') {
    // Local mode only (config.ts refuses production and live mode without ADMIN_PASSWORD_HASH).
    const { file } = config.adminPassword;
    const local = await loadLocalAdminPassword(file);
    config = withAdminPassword(config, local.hash);
    logger.info(
      `default admin password: ${local.password} (${local.created ? 'generated now' : 'generated on first start'}, kept in ${file}; log in at /admin)`,
    );
  }

  // Loaded only in local mode: a live shop never has the emulator's code in memory. The production
  // image leaves the local-mode wiring and the emulator out (scripts/stage-production.ts), so
  // there local mode is a configuration mistake, said plainly before anything starts.
  const localShopify =
    config.mode === 'local'
      ? await import('./local-shopify').catch((err: NodeJS.ErrnoException) => {
          // Only the wiring itself missing means a production build; anything else missing below it
          // (a dev dependency, a broken emulator import) is a real error, with its stack.
          if (err.code !== 'ERR_MODULE_NOT_FOUND' || !/local-shopify/.test(err.message)) throw err;
          logger.fatal(
            'this is a production build, without the local demo: configure a real chain and Shopify store (README, Configuration)',
          );
          process.exit(1);
        })
      : null;

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
      timeoutMs: config.timeouts.chainRpcMs,
    };
  } else {
    const { rpcUrl, tokenAddress, storeWallet } = config.chain as Extract<typeof config.chain, { kind: 'rpc' }>;
    target = { rpcUrl, chainId: BASE_CHAIN_ID, tokenAddress, storeWallet, timeoutMs: config.timeouts.chainRpcMs };
  }

  let listeningPort = config.port;
  const mounts = [];
  let shopify: ShopifyGraphql | undefined;
  if (localShopify) {
    // The emulator lives in this very process, behind the same port; its secrets come from the data folder.
    const local = await localShopify.startLocalShopify(config, { origin: () => `http://127.0.0.1:${listeningPort}`, logger });
    config = local.config;
    mounts.push(local.mount);
    shopify = local.shopify;
  }

  const services = buildServices({
    config,
    db,
    logger,
    shopify,
    target,
    staticDir: path.join(ROOT, 'dist'),
    mounts,
    demoWallet: localChain ? { rpcUrl: localChain.rpcUrl, account: DEMO_WALLET_ACCOUNT } : undefined,
  });
  const { catalogue, rateLimiter } = services;
  const payments = services.payments!;
  if (!rateLimiter.rules.length) logger.warn('rate limits are off (RATE_LIMIT_SCALE=0)');
  if (config.mode === 'live') {
    // Before the first shopper: the chain is Base, the token is what the settings say, Shopify
    // grants a token for this store and will send its order webhooks here (subscribed now).
    const { results, facts } = await runLiveChecks({
      config,
      chain: payments.chain,
      shopify: services.shopify,
      webhookUri: `${config.publicUrl}/api/webhooks/shopify`,
      subscribe: true,
      logger,
    });
    const failed = results.filter((r) => r.status === 'fail');
    if (failed.length) {
      for (const result of failed) logger.fatal(`start check failed: ${formatCheck(result).slice(2).replace(/\n\s*/g, ' ')}`);
      logger.fatal('refusing to start: fix the settings above (`npm run doctor` runs these checks without starting the shop)');
      process.exit(1);
    }
    logger.info(liveStartLine(config, facts));
  }
  const app = createApp(services.app);
  const server = app.listen(config.port, config.host);
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  listeningPort = (server.address() as AddressInfo).port;

  if (config.shopify.kind === 'emulator') {
    // Local mode: the first start imports the demo catalogue and prices it so the shop is not empty.
    if (!(await catalogue.lastSync())) {
      await runCatalogueSync(services, 'first start');
      const seeded = await catalogue.seedDemoPrices();
      if (seeded) logger.info(`default demo prices: ${seeded} demo variants priced in POG and activated`);
    }
  } else {
    void runCatalogueSync(services, 'start');
  }

  // The schedule, the sweeps, the chain watcher, the Shopify hand-off and its poll: server/workers.ts.
  const workers = createWorkers(services);
  workers.start();
  if (config.shopify.kind === 'emulator') {
    // Local mode: the emulator lives in this server, so its webhooks can only be subscribed once it listens.
    const webhookUri = `http://127.0.0.1:${listeningPort}/api/webhooks/shopify`;
    subscribeShopifyWebhooks(services.shopify, webhookUri, logger).then(
      (n) => n && logger.info({ uri: webhookUri, topics: n }, 'Shopify webhooks subscribed'),
      (err) => logger.warn({ err }, 'could not subscribe Shopify webhooks; the order poller still catches up'),
    );
  }

  // Without PUBLIC_URL, print the port actually bound (PORT=0 picks a free one).
  const url = process.env.PUBLIC_URL ? config.publicUrl : `http://localhost:${listeningPort}`;
  logger.info(`POGS Shop is running at ${url}`);

  const shutdown = async (signal: string) => {
    logger.info({ signal }, 'shutting down');
    server.close();
    // A pass under way gets a few seconds (a container's stop grace is about 10 s); a catalogue
    // sync against a throttled Shopify can take minutes. What is cut short is a transaction that
    // rolls back: settlement and the hand-off are written to be retried.
    const finished = await Promise.race([workers.stop().then(() => true), sleep(STOP_GRACE_MS).then(() => false)]);
    if (!finished) logger.warn(`background jobs still running after ${STOP_GRACE_MS / 1000} s; stopping without them`);
    payments.chain.destroy();
    services.shopify.tokens.stop();
    await services.catalogue.close();
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
