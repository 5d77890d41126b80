import { Clock, Store, Tag } from 'lucide-react';
import type { InventoryItem } from '../../../../common/admin';
import { Tooltip } from '../../../components/ui/tooltip';
import { relativeTime } from '../../../lib/relative-time';

/** Product type ('No type'), vendor ('No vendor') with their tooltips, and 'Last synced' ('Never'). */
export function ProductFacts({ item }: { item: Pick<InventoryItem, 'productType' | 'vendor' | 'lastSyncedAt'> }) {
  return (
    <dl className="grid gap-1 text-sm text-muted-foreground">
      <div className="flex min-w-0 items-center gap-2">
        <dt className="sr-only">Product type</dt>
        <Tag aria-hidden className="size-4 shrink-0" />
        <dd className="min-w-0">
          <Tooltip content="Product type">
            <span className="block truncate" data-testid="product-type">
              {item.productType.trim() || 'No type'}
            </span>
          </Tooltip>
        </dd>
      </div>
      <div className="flex min-w-0 items-center gap-2">
        <dt className="sr-only">Vendor</dt>
        <Store aria-hidden className="size-4 shrink-0" />
        <dd className="min-w-0">
          <Tooltip content="Vendor">
            <span className="block truncate" data-testid="product-vendor">
              {item.vendor.trim() || 'No vendor'}
            </span>
          </Tooltip>
        </dd>
      </div>
      <div className="flex items-center gap-2">
        <dt className="sr-only">Last synced</dt>
        <Clock aria-hidden className="size-4 shrink-0" />
        <dd data-testid="last-synced">
          Last synced:{' '}
          {item.lastSyncedAt ? (
            <time dateTime={item.lastSyncedAt} title={new Date(item.lastSyncedAt).toLocaleString()}>
              {relativeTime(item.lastSyncedAt)}
            </time>
          ) : (
            'Never'
          )}
        </dd>
      </div>
    </dl>
  );
}
