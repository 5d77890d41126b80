/**
 * Where the scrape-time metrics (server/lib/metrics.ts) read from: the chain watcher's lag, and the
 * outbox's depth, as the database and the chain say at that moment.
 */
import type { GaugeSources } from '../lib/metrics';
import { outboxDepth } from '../modules/orders';
import type { Services } from '../wiring';

export function gaugeSources({ db, payments }: Pick<Services, 'db' | 'payments'>): GaugeSources {
  return {
    async watcherLagBlocks() {
      if (!payments) return null;
      return payments.watcher.lagBlocks((await payments.chain.latestBlock()).number);
    },
    async outbox() {
      return (await outboxDepth(db)).flatMap((r) => [
        { job: r.kind, state: 'pending' as const, count: r.pending },
        { job: r.kind, state: 'failing' as const, count: r.failing },
      ]);
    },
    async paymasterBudgetLeftWei() {
      const ledger = payments?.paymaster?.ledger;
      return ledger ? (await ledger.today(new Date())).leftWei : null;
    },
  };
}
