/**
 * `npm start`: read the configuration, open the database and migrate it, start the Shopify
 * emulator in local mode (nothing real configured), sync the catalogue, and serve the built shop
 * and the API on one port.
 */
import path from 'node:path';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { BASE_CHAIN_ID } from '../common/chain';
import { ConfigError, loadConfig, withAdminPassword } from './config';
import { createDb, migrate } from './db';
import { createApp } from './app';
import { createLogger } from './lib/logger';
import { shutdownOnSignals } from './lib/graceful-shutdown';
import { observeGauges, startMetricsServer } from './lib/metrics';
import { gaugeSources } from './ops/observability';
import type { ShopifyGraphql } from './shopify';
import type { LocalMode } from './local/local-mode';
import type { ChainTarget } from './modules/payments';
import { subscribeShopifyWebhooks } from './modules/orders';
import { formatCheck, liveStartLine, runLiveChecks } from './ops/live-checks';
import { loadLocalAdminPassword } from './modules/admin';
import { loadLocalPushKeys } from './modules/notifications';
import { withPushKeys } from './push-config';
import { buildServices } from './wiring';
import { startFailureSentence } from './ops/start-failure';
import { openLocalDatabase } from './local/local-database';
import { createWorkers, runCatalogueSync } from './workers';

// The root holding dist/: one folder up both from server/main.ts (tsx) and dist-server/main.js (the build).
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      if (process.env.NODE_ENV === 'production') {
        createLogger({ level: 'fatal' }).fatal(
          { problems: err.problems },
          'POGS Shop cannot start: see the configuration table in docs/configuration.md',
        );
      } else {
        console.error(`POGS Shop cannot start.\n${err.message}\nSee the configuration table in docs/configuration.md.`);
      }
      process.exit(1);
    }
    throw err;
  }
  const logger = createLogger({ level: config.logLevel, pretty: config.env !== 'production', requestLines: 'gathered' });
  let adminPasswordLine: string | null = null;
  for (const line of config.defaults) logger.info(`default ${line}`);

  if (config.adminPassword.kind === 'generated') {
    // Local mode only (config.ts refuses production and live mode without ADMIN_PASSWORD_HASH).
    const { file } = config.adminPassword;
    const local = await loadLocalAdminPassword(file);
    config = withAdminPassword(config, local.hash);
    // Said again as the last line, under the address, where a newcomer looks.
    adminPasswordLine = `admin password: ${local.password} (${local.created ? 'generated now' : 'generated on first start'}, kept in ${file}; log in at /admin)`;
  }

  // Local mode's own VAPID key pair for order updates, made once and kept in the data folder.
  if (config.push.kind === 'generated') config = withPushKeys(config, await loadLocalPushKeys(config.push.file));

  // Loaded only in local mode: a live shop never has the local demo's code (anvil, the demo token,
  // the Demo Wallet, the Shopify emulator) in memory. The production image leaves local-mode.js
  // and everything only it reaches out (scripts/stage-production.ts), so there local mode is a
  // configuration mistake, said plainly before anything starts.
  const localModule =
    config.mode === 'local'
      ? await import('./local/local-mode').catch((err: NodeJS.ErrnoException) => {
          // Only the module itself missing means a production build; anything else missing below it
          // (a dev dependency, a chunk of its own) is a real error, with its stack.
          if (err.code !== 'ERR_MODULE_NOT_FOUND' || !/Cannot find module '[^']*[/\\]local-mode(\.[jt]s)?'/.test(err.message)) throw err;
          logger.fatal(
            'this is a production build, without the local demo: configure a real chain and Shopify store (docs/configuration.md)',
          );
          process.exit(1);
        })
      : null;

  // The local database is set up first, however long that takes on this machine (local-database.ts).
  const pglite =
    config.database.kind === 'pglite' && config.database.dir !== ':memory:'
      ? await openLocalDatabase(config.database.dir, { logger })
      : undefined;
  const db = createDb(config.database, { logger, pglite });
  const { applied, newer } = await migrate(db);
  if (applied.length) logger.info({ migrations: applied }, 'database migrated');
  if (newer.length) {
    logger.warn(
      { migrations: newer },
      'the database has migrations of a newer version of the shop; this version serves on it as it is (roll forward when you can)',
    );
  }

  let listeningPort = config.port;
  let target: ChainTarget;
  let local: LocalMode | undefined;
  let shopify: ShopifyGraphql | undefined;
  const mounts = [];
  if (localModule) {
    // The local chain, the demo token, the Demo Wallet and the Shopify emulator (in this very
    // process, behind the same port; its secrets come from the data folder).
    local = await localModule.startLocalMode(config, { db, logger, origin: () => `http://127.0.0.1:${listeningPort}` });
    ({ config, target, shopify } = local);
    mounts.push(local.mount);
  } else {
    const { rpcUrl, tokenAddress, storeWallet } = config.chain as Extract<typeof config.chain, { kind: 'rpc' }>;
    target = { rpcUrl, chainId: BASE_CHAIN_ID, tokenAddress, storeWallet, timeoutMs: config.timeouts.chainRpcMs };
  }

  const services = buildServices({
    config,
    db,
    logger,
    shopify,
    target,
    staticDir: path.join(ROOT, 'dist'),
    mounts,
    demoWallet: local?.demoWallet,
    // Local mode's venue; a shop on Base has no swap facts wired yet: every transfer is taken as plain.
    swap: local?.swap ?? null,
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
  // The schedule, the sweeps, the chain watcher, the Shopify hand-off and its poll: server/workers.ts
  // (started below, once the catalogue is in).
  const workers = createWorkers(services);
  let metricsServer: Server | null = null;
  // SIGTERM / SIGINT: not ready, answer what is in flight, stop the jobs, then close (lib/graceful-shutdown.ts).
  shutdownOnSignals({
    server,
    graceMs: config.shutdownGraceMs,
    logger,
    onBegin: () => services.readiness.markShuttingDown(),
    unreadyDelayMs: config.shutdownDelayMs,
    // The jobs' passes, then the dollar references of orders just made (each bounded by its own timeout).
    drain: async () => {
      await workers.stop();
      await payments.settlement.referencesKept();
    },
    close: [
      {
        name: 'metrics listener',
        run: () => new Promise<void>((resolve) => (metricsServer ? metricsServer.close(() => resolve()) : resolve())),
      },
      { name: 'chain client', run: () => payments.chain.destroy() },
      { name: 'Shopify token renewal', run: () => services.shopify.tokens.stop() },
      { name: 'catalogue notifications', run: () => services.catalogue.close() },
      { name: 'cart notifications', run: () => services.carts.close() },
      // Its rechecks of a service that is down (the database is closed next).
      { name: 'outage rechecks', run: () => services.outages.close() },
      { name: 'local chain', run: async () => local?.stop() },
      { name: 'database', run: () => db.destroy() },
    ],
  });

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

  workers.start();
  if (config.shopify.kind === 'emulator') {
    // Local mode: the emulator lives in this server, so its webhooks can only be subscribed once it listens.
    const webhookUri = `http://127.0.0.1:${listeningPort}/api/webhooks/shopify`;
    await subscribeShopifyWebhooks(services.shopify, webhookUri, logger).then(
      (n) => n && logger.debug({ uri: webhookUri, topics: n }, 'Shopify webhooks subscribed'),
      (err) => logger.warn({ err }, 'could not subscribe Shopify webhooks; the order poller still catches up'),
    );
  }

  if (config.metricsPort !== null) {
    observeGauges(gaugeSources(services));
    metricsServer = await startMetricsServer({ port: config.metricsPort, host: config.metricsHost, logger });
    const at = config.metricsHost.includes(':') ? `[${config.metricsHost}]` : config.metricsHost;
    logger.info(`metrics at http://${at}:${config.metricsPort}/metrics (no authentication: keep this port off the public network)`);
  }

  // Without PUBLIC_URL, print the port actually bound (PORT=0 picks a free one).
  const url = process.env.PUBLIC_URL ? config.publicUrl : `http://localhost:${listeningPort}`;
  logger.info(`POGS Shop is running at ${url}`);
  if (adminPasswordLine) logger.info(adminPasswordLine);
}

main().catch((err) => {
  // What an operator can fix is one sentence naming the setting (start-failure.ts); anything else
  // is a bug, with its stack. Production logs are JSON, one line an event: a failed start too.
  const sentence = startFailureSentence(err);
  if (process.env.NODE_ENV === 'production') {
    const log = createLogger({ level: 'fatal' });
    if (sentence) log.fatal({ reason: sentence }, `POGS Shop cannot start: ${sentence}`);
    else log.fatal({ err }, 'POGS Shop failed to start');
  } else if (sentence) console.error(`POGS Shop cannot start: ${sentence}.`);
  else console.error('POGS Shop failed to start:', err);
  process.exit(1);
});
