/**
 * The data of the merchant's `catalogue.synced` webhook event (docs/webhooks.md): the finished
 * sync run, what started it, how Shopify was read, and its counts.
 */
import type { SyncResult } from '../../../common/api';
import type { Db } from '../../db';

/** Sync run `runId` with its counts; null when there is none. */
export async function syncRunEventData(db: Db, runId: string) {
  if (!/^\d{1,18}$/.test(runId)) return null;
  const run = await db('catalogue_sync_runs').where({ id: runId }).first();
  if (!run) return null;
  const result: SyncResult | null = typeof run.result === 'string' ? JSON.parse(run.result) : run.result;
  return {
    run: {
      id: String(run.id),
      status: run.status,
      trigger: run.trigger,
      method: result?.method ?? run.method ?? null,
      products: result?.products ?? run.products_read,
      variants: result?.variants ?? null,
      removed: result?.deactivated ?? null,
      startedAt: new Date(run.started_at).toISOString(),
      finishedAt: run.finished_at ? new Date(run.finished_at).toISOString() : null,
    },
  };
}
