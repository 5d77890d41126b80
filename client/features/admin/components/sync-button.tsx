import { RefreshCw } from 'lucide-react';
import type { SyncJob } from '../../../../common/api';
import { Button } from '../../../components/ui/button';
import { useSyncInventory } from '../api/sync-inventory';

const count = (n: number) => n.toLocaleString('en-US');

/** What a running sync is doing, in a few words. */
function syncProgressText(job: Pick<SyncJob, 'phase' | 'productsRead' | 'total'>): string {
  const read = job.total ? `${count(job.productsRead)} of ${count(job.total)}` : count(job.productsRead);
  switch (job.phase) {
    case 'starting':
      return 'Starting…';
    case 'bulk-running':
      return job.productsRead ? `Shopify is preparing products (${count(job.productsRead)})…` : 'Shopify is preparing products…';
    case 'downloading':
    case 'paging':
      return `Reading products: ${read}`;
    case 'writing':
      return `Saving ${count(job.total ?? job.productsRead)} products…`;
    default:
      return 'Finishing…';
  }
}

/** 'Sync with Shopify', with the running sync's progress beside it until it ends. */
export function SyncButton() {
  const sync = useSyncInventory();
  return (
    <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
      <Button onClick={sync.start} disabled={sync.busy} data-testid="sync-button" aria-busy={sync.busy}>
        <RefreshCw aria-hidden className={sync.busy ? 'motion-safe:animate-spin' : undefined} />
        Sync with Shopify
      </Button>
      <span role="status" aria-live="polite" className="text-sm text-muted-foreground tabular-nums" data-testid="sync-progress">
        {sync.job ? syncProgressText(sync.job) : ''}
      </span>
    </div>
  );
}
