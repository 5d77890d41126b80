/**
 * `npm run doctor`: the operator's first command. Reads the settings as `npm start` would and runs
 * the live start checks (server/ops/live-checks.ts) without starting the shop, subscribing anything or
 * changing the database: prints each check with what it found and, for a failure, what to change.
 * Exits 0 when the shop would start, 1 when it would refuse.
 */
import { BASE_CHAIN_ID } from '../common/chain';
import { ConfigError, loadConfig } from './config';
import { formatCheck, runLiveChecks } from './ops/live-checks';
import { orderUpdatesCheck } from './push-config';
import { createLogger } from './lib/logger';
import { ChainClient } from './modules/payments';
import { storeClient } from './wiring';

async function doctor(): Promise<number> {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    console.log('POGS Shop doctor: the settings are refused before any check can run\n');
    for (const problem of err.problems) console.log(`✗ setting: ${problem}`);
    console.log('\nSee the configuration table in docs/configuration.md.');
    return 1;
  }
  if (config.mode === 'local') {
    console.log(
      'POGS Shop doctor: nothing real is configured, so `npm start` runs the local demo (its own chain, token and Shopify emulator).',
    );
    console.log('Configure a chain and a Shopify store to run live; then run this again. See docs/going-live.md.');
    return 0;
  }
  console.log(`POGS Shop doctor: live settings (NODE_ENV=${config.env}); checking what the shop checks before it starts\n`);
  // A check's failure is its result, printed below: the log says only what went wrong around them.
  const logger = createLogger({ level: 'error' });
  const { rpcUrl, tokenAddress, storeWallet } = config.chain;
  const chain = new ChainClient({ rpcUrl, chainId: BASE_CHAIN_ID, tokenAddress, storeWallet, timeoutMs: config.timeouts.chainRpcMs });
  const shopify = storeClient(config, logger);
  try {
    const { results } = await runLiveChecks({
      config,
      chain,
      shopify,
      webhookUri: `${config.publicUrl}/api/webhooks/shopify`,
      subscribe: false,
      database: config.database,
      logger,
    });
    results.push(orderUpdatesCheck(config.push));
    for (const result of results) console.log(formatCheck(result));
    const failed = results.filter((r) => r.status === 'fail').length;
    console.log(
      failed
        ? `\n${failed} of ${results.length} checks failed: the shop would refuse to start.`
        : `\nAll ${results.length} checks passed: the shop can start.`,
    );
    return failed ? 1 : 0;
  } finally {
    chain.destroy();
    shopify.tokens.stop();
  }
}

doctor().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error('POGS Shop doctor failed:', err);
    process.exit(1);
  },
);
