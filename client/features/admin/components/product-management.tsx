import { ClipboardList, LoaderCircle, LogOut, PackageOpen, RefreshCw, Search, TriangleAlert } from 'lucide-react';
import { useDeferredValue, useMemo, useState, type ReactNode } from 'react';
import type { InventoryItem } from '../../../../common/admin';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Input } from '../../../components/ui/input';
import { cn } from '../../../lib/utils';
import { useAdminLogout } from '../api/admin-logout';
import { useInventory } from '../api/get-inventory';
import { countUnpriced, filterInventory, INVENTORY_FILTERS, type InventoryFilter } from '../lib/inventory-filter';
import { groupInventory, type ProductGroup } from '../lib/product-groups';
import { AuditSheet } from './audit-sheet';
import { GroupCard } from './group-card';
import { SyncButton } from './sync-button';
import { VariantCard } from './variant-card';

/** Cards rendered at first and added per 'Show more' (hundreds of products stay quick on a tablet). */
const PAGE_SIZE = 30;

type View = 'grouped' | 'individual';

/** 'Product Management' (spec §2 "Admin"), with search, filters and the unpriced count of issue 12. */
export function ProductManagement() {
  const inventory = useInventory();
  const logout = useAdminLogout();
  const [view, setView] = useState<View>('grouped');
  const [auditOpen, setAuditOpen] = useState(false);
  const items = inventory.data;
  const groups = useMemo(() => (items ? groupInventory(items) : []), [items]);

  const syncButton = <SyncButton />;

  let content: ReactNode;
  if (items) {
    content =
      items.length === 0 ? (
        <StateCard icon={<PackageOpen aria-hidden />} testId="admin-empty">
          <h2 className="text-xl font-bold">No products found</h2>
          <p className="text-sm text-muted-foreground">Sync with Shopify to import your products</p>
          {syncButton}
        </StateCard>
      ) : (
        <InventoryList items={items} groups={groups} view={view} />
      );
  } else if (inventory.isError) {
    content = (
      <StateCard icon={<TriangleAlert aria-hidden />} iconClassName="bg-red-100 text-destructive" role="alert" testId="admin-error">
        <h2 className="text-xl font-bold">Failed to load products</h2>
        <p className="text-sm break-words text-muted-foreground">{inventory.error.message}</p>
        <Button onClick={() => void inventory.refetch()} disabled={inventory.isFetching}>
          <RefreshCw aria-hidden className={inventory.isFetching ? 'motion-safe:animate-spin' : undefined} />
          Try Again
        </Button>
      </StateCard>
    );
  } else {
    content = (
      <p role="status" className="flex items-center justify-center gap-2 py-16 text-lg text-muted-foreground" data-testid="admin-loading">
        <LoaderCircle aria-hidden className="size-8 motion-safe:animate-spin" />
        <span className="sr-only">Loading products...</span>
      </p>
    );
  }

  return (
    // The admin area's frame (client/features/admin/routes/admin-page.tsx) sets the height and background.
    <div>
      <div className="mx-auto grid max-w-7xl grid-cols-[minmax(0,1fr)] gap-5 px-4 py-6 sm:px-6" data-testid="product-management">
        <header className="flex flex-wrap items-start justify-between gap-3">
          <div className="grid gap-1">
            <h1 className="text-3xl font-black tracking-tight">Product Management</h1>
            {items && (
              <p className="text-muted-foreground" data-testid="admin-counts">
                <span className="font-bold text-foreground tabular-nums" data-testid="group-count">
                  {groups.length}
                </span>{' '}
                product groups ·{' '}
                <span className="font-bold text-foreground tabular-nums" data-testid="variant-total">
                  {items.length}
                </span>{' '}
                variants
              </p>
            )}
          </div>
          <div className="flex flex-wrap gap-2">
            <Button variant="outline" onClick={() => setAuditOpen(true)} data-testid="audit-button">
              <ClipboardList aria-hidden />
              Audit trail
            </Button>
            <Button variant="outline" onClick={() => logout.mutate()} disabled={logout.isPending} data-testid="admin-logout">
              <LogOut aria-hidden />
              Log out
            </Button>
          </div>
        </header>

        <div className="flex flex-wrap items-center justify-between gap-3">
          <div role="group" aria-label="View" className="inline-flex rounded-full bg-muted p-1">
            {(['grouped', 'individual'] as const).map((v) => (
              <button
                key={v}
                type="button"
                aria-pressed={view === v}
                onClick={() => setView(v)}
                data-testid={`view-${v}`}
                className={cn(
                  'h-11 rounded-full px-4 text-sm font-semibold focus-visible:outline-2 focus-visible:outline-ring',
                  view === v ? 'bg-background text-foreground shadow-sm' : 'text-muted-foreground hover:text-foreground',
                )}
              >
                {v === 'grouped' ? 'Grouped View' : 'Individual View'}
              </button>
            ))}
          </div>
          {items && items.length > 0 && syncButton}
        </div>

        {content}
      </div>
      <AuditSheet open={auditOpen} onOpenChange={setAuditOpen} />
    </div>
  );
}

/**
 * Search, filters, the unpriced count, and the cards of what matches: one per variant, or one per
 * product with a matching variant (the whole product, so its bulk actions act on all its variants).
 */
function InventoryList({ items, groups: allGroups, view }: { items: InventoryItem[]; groups: ProductGroup[]; view: View }) {
  const [search, setSearch] = useState('');
  const [filter, setFilter] = useState<InventoryFilter>('all');
  const [shown, setShown] = useState(PAGE_SIZE);
  const deferredSearch = useDeferredValue(search);
  const unpriced = countUnpriced(items);
  const matching = useMemo(() => filterInventory(items, deferredSearch, filter), [items, deferredSearch, filter]);
  const groups = useMemo(() => {
    if (view !== 'grouped') return [];
    const matched = new Set(matching.map((item) => item.productId));
    return allGroups.filter((group) => matched.has(group.productId));
  }, [allGroups, matching, view]);
  const total = view === 'grouped' ? groups.length : matching.length;
  const narrowed = deferredSearch.trim() !== '' || filter !== 'all';

  const choose = (next: InventoryFilter) => {
    setFilter(next);
    setShown(PAGE_SIZE);
  };

  return (
    <>
      {unpriced > 0 && (
        <div
          className="flex flex-wrap items-center justify-between gap-3 rounded-2xl border border-yellow-300 bg-yellow-50 p-4 text-yellow-950"
          data-testid="unpriced-banner"
        >
          <p>
            <span className="text-2xl font-black tabular-nums" data-testid="unpriced-count">
              {unpriced}
            </span>{' '}
            <span className="font-semibold">{unpriced === 1 ? 'variant is' : 'variants are'} not for sale</span>: no POG price yet.
          </p>
          {filter !== 'unpriced' && (
            <Button variant="outline" onClick={() => choose('unpriced')} data-testid="show-unpriced">
              Show unpriced
            </Button>
          )}
        </div>
      )}

      <div className="grid gap-3">
        <label className="relative block" htmlFor="admin-search">
          <span className="sr-only">Search by title or SKU</span>
          <Search aria-hidden className="pointer-events-none absolute top-1/2 left-3 size-5 -translate-y-1/2 text-muted-foreground" />
          <Input
            id="admin-search"
            type="search"
            placeholder="Search by title or SKU"
            value={search}
            onChange={(e) => {
              setSearch(e.target.value);
              setShown(PAGE_SIZE);
            }}
            enterKeyHint="search"
            className="pl-10"
            data-testid="admin-search"
          />
        </label>
        <div role="group" aria-label="Filter" className="flex flex-wrap gap-2">
          {INVENTORY_FILTERS.map(({ id, label }) => (
            <Button
              key={id}
              size="sm"
              variant={filter === id ? 'default' : 'outline'}
              aria-pressed={filter === id}
              onClick={() => choose(id)}
              data-testid={`filter-${id}`}
            >
              {label}
            </Button>
          ))}
        </div>
        {narrowed && (
          <p className="text-sm text-muted-foreground" data-testid="filter-summary">
            {view === 'grouped'
              ? `Showing ${groups.length} of ${allGroups.length} products (${matching.length} of ${items.length} variants match)`
              : `Showing ${matching.length} of ${items.length} variants`}
          </p>
        )}
      </div>

      {total === 0 ? (
        <StateCard icon={<Search aria-hidden />} testId="admin-no-match">
          <h2 className="text-xl font-bold">No variants match</h2>
          <Button
            variant="outline"
            onClick={() => {
              setSearch('');
              choose('all');
            }}
          >
            Clear search and filters
          </Button>
        </StateCard>
      ) : (
        <div className="grid grid-cols-1 gap-4 md:grid-cols-2 lg:grid-cols-3" data-testid="admin-grid" data-view={view}>
          {view === 'grouped'
            ? groups.slice(0, shown).map((group) => <GroupCard key={group.productId} group={group} />)
            : matching.slice(0, shown).map((item) => <VariantCard key={`${item.id}:${item.updatedAt}`} item={item} />)}
        </div>
      )}
      {total > shown && (
        <Button variant="outline" className="justify-self-center" onClick={() => setShown((n) => n + PAGE_SIZE)} data-testid="show-more">
          Show more ({total - shown} more)
        </Button>
      )}
    </>
  );
}

function StateCard({
  icon,
  iconClassName,
  testId,
  role,
  children,
}: {
  icon: ReactNode;
  /** The round icon backdrop's colours, replacing the brand ones (`cn` does not resolve conflicts). */
  iconClassName?: string;
  testId: string;
  role?: 'alert';
  children: ReactNode;
}) {
  return (
    <Card className="mx-auto grid w-full max-w-md justify-items-center gap-3 p-6 text-center sm:p-8" role={role} data-testid={testId}>
      <span
        className={cn('flex size-16 items-center justify-center rounded-full [&_svg]:size-8', iconClassName ?? 'bg-brand-soft text-brand')}
      >
        {icon}
      </span>
      {children}
    </Card>
  );
}
