/**
 * The background jobs main.ts starts: every one registered, and the chain watcher among them
 * finding a transfer on its own (nobody calls tick) once the workers run, until they stop.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_ACCOUNTS } from './chain/local-chain';
import { sleep } from './lib/sleep';
import { sendTokenTransfer } from './test/chain';
import { testDatabaseKinds } from './test/databases';
import { startHarness, type Harness } from './test/harness';
import { useTestChain } from './test/use-test-chain';
import { createWorkers } from './workers';

const testChain = useTestChain();
const STRANGER = DEV_ACCOUNTS[3];

describe.each(testDatabaseKinds)('background workers on %s', (kind) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness(kind, { chain: testChain.chain, env: { CHAIN_POLL_INTERVAL_MS: '100', CATALOGUE_SYNC_INTERVAL_MINUTES: '15' } });
  });
  afterAll(async () => {
    await h?.close();
  });

  const transfersFrom = (from: string) => h.database.db('chain_transfers').where({ from_address: from.toLowerCase() });

  it('registers every job of the server, and the watcher works through them until they stop', async () => {
    const workers = createWorkers(h.services);
    expect(workers.jobs).toEqual([
      'catalogue freshness',
      'catalogue sync',
      'expiry sweep',
      'chain watcher',
      'Shopify hand-off',
      'Shopify order poll',
      'order news',
      'merchant webhooks',
    ]);

    const { tokenAddress, storeWallet } = h.payments!.target;
    const send = async () => {
      const tx = await sendTokenTransfer(testChain.provider, STRANGER, { token: tokenAddress, to: storeWallet, value: 12_345n });
      await testChain.provider.send('evm_mine', []);
      return tx.hash.toLowerCase();
    };

    workers.start();
    const found = await send();
    const deadline = Date.now() + 20_000;
    while (!(await transfersFrom(STRANGER).where({ tx_hash: found }).first()) && Date.now() < deadline) await sleep(100);
    expect(await transfersFrom(STRANGER).where({ tx_hash: found }).first()).toMatchObject({ status: 'unmatched' });

    await workers.stop();
    const missed = await send();
    await sleep(1000); // ten poll intervals: a watcher still running would have recorded it
    expect(await transfersFrom(STRANGER).where({ tx_hash: missed }).first()).toBeUndefined();
  });
});
