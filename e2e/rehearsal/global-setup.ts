/**
 * Starts the rehearsal's world before the specs run and ends it after (Playwright calls the
 * function this returns as the teardown). The test workers read what they need from the
 * environment it publishes: the world's facts, and the chain the test wallet sends to.
 */
import { DEV_ACCOUNTS } from '../fixtures/test-wallet';
import { publishFacts, SHOPPER_ACCOUNT, startWorld } from './world';

/** Short enough that the shop renews its Shopify token several times during the rehearsal. */
const TOKEN_TTL_SECONDS = 6;
/**
 * Who holds the token: the live spec's shopper (the test wallet's account), and the payers of the
 * topology spec's shoppers. The store wallet (#7) and the deployer (#0) hold none.
 */
const TOKEN_HOLDERS = [SHOPPER_ACCOUNT, DEV_ACCOUNTS[1], DEV_ACCOUNTS[3], DEV_ACCOUNTS[4], DEV_ACCOUNTS[5], DEV_ACCOUNTS[6]];

export default async function globalSetup(): Promise<() => Promise<void>> {
  const databaseUrl = process.env.TEST_DATABASE_URL;
  if (!databaseUrl)
    throw new Error('the live rehearsal needs TEST_DATABASE_URL (a Postgres it may create a database in): run it with `npm run rehearse`');
  const world = await startWorld({
    databaseUrl,
    tokenTtlSeconds: TOKEN_TTL_SECONDS,
    tokenHolders: TOKEN_HOLDERS,
    say: (line) => console.log(`  · ${line}`),
  });
  publishFacts(world);
  process.env.E2E_CHAIN_RPC = world.chainRpc;
  return () => world.stop();
}
