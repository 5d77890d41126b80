import { ClipboardList, LoaderCircle, LogOut, PackageOpen, RefreshCw, Search, TriangleAlert } from 'lucide-react';
import { useEffect, useEffectEvent, useState, type ReactNode } from 'react';
import { useLocation, useSearchParams } from 'react-router-dom';
import { ADMIN_PRODUCTS_SEARCH_MAX, type AdminProductsPage, type ProductFilter } from '../../../../common/admin';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Input } from '../../../components/ui/input';
import { cn } from '../../../lib/utils';
import { useAdminLogout } from '../api/admin-logout';
import { useAdminProducts, type AdminProductsSearch } from '../api/get-admin-products';
import { variantFormKey } from '../lib/form-values';
import { INVENTORY_FILTERS, noMatchText, parseFilter } from '../lib/inventory-filter';
import { matchingVariants, toProductGroup } from '../lib/product-groups';
import { AuditSheet } from './audit-sheet';
import { GroupCard } from './group-card';
import { SyncButton } from './sync-button';
import { VariantCard } from './variant-card';

/** How long the search waits after the last key before it asks the server. */
const SEARCH_DEBOUNCE_MS = 250;

type View = 'grouped' | 'individual';

/**
 * 'Product Management': the product groups a page at a time from the server, searched (title or
 * SKU, kept in the address as ?q=) and filtered (?status=), with the server's counts.
 */
export function ProductManagement() {
  const [params, setParams] = useSearchParams();
  const { pathname } = useLocation();
  const search: AdminProductsSearch = { q: params.get('q') ?? '', status: parseFilter(params.get('status')) };
  const products = useAdminProducts(search);
  const logout = useAdminLogout();
  const [view, setView] = useState<View>('grouped');
  const [auditOpen, setAuditOpen] = useState(false);
  const pages = products.data?.pages;
  const counts = pages?.[0]?.counts;

  /** Changes the search and filter in the address (replacing the entry: the back button leaves the page). */
  const setSearch = (next: Partial<AdminProductsSearch>) => {
    // The search's pause may end after a click elsewhere: the page being left keeps its address.
    if (window.location.pathname !== pathname) return;
    setParams(
      (prev) => {
        const out = new URLSearchParams(prev);
        const q = (next.q ?? prev.get('q') ?? '').trim();
        const status = next.status ?? parseFilter(prev.get('status'));
        if (q) out.set('q', q);
        else out.delete('q');
        if (status !== 'all') out.set('status', status);
        else out.delete('status');
        return out;
      },
      { replace: true },
    );
  };

  const syncButton = <SyncButton />;

  let content: ReactNode;
  if (pages && counts) {
    content =
      counts.allVariants === 0 ? (
        <StateCard icon={<PackageOpen aria-hidden />} testId="admin-empty">
          <h2 className="text-xl font-bold">No products found</h2>
          <p className="text-sm text-muted-foreground">Sync with Shopify to import your products</p>
          {syncButton}
        </StateCard>
      ) : (
        <InventoryList
          pages={pages}
          counts={counts}
          search={search}
          onSearch={setSearch}
          view={view}
          loading={products.isPlaceholderData}
          more={products.hasNextPage ? { load: () => void products.fetchNextPage(), pending: products.isFetchingNextPage } : null}
        />
      );
  } else if (products.isError) {
    content = (
      <StateCard icon={<TriangleAlert aria-hidden />} iconClassName="bg-red-100 text-destructive" role="alert" testId="admin-error">
        <h2 className="text-xl font-bold">Failed to load products</h2>
        <p className="text-sm break-words text-muted-foreground">{products.error.message}</p>
        <Button onClick={() => void products.refetch()} disabled={products.isFetching}>
          <RefreshCw aria-hidden className={products.isFetching ? 'motion-safe:animate-spin' : undefined} />
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
            {counts && (
              // The shop's totals, whatever the search: a search's own count is the summary under the search box.
              <p className="text-muted-foreground" data-testid="admin-counts">
                <span className="font-bold text-foreground tabular-nums" data-testid="group-count">
                  {counts.allGroups}
                </span>{' '}
                {counts.allGroups === 1 ? 'product group' : 'product groups'} ·{' '}
                <span className="font-bold text-foreground tabular-nums" data-testid="variant-total">
                  {counts.allVariants}
                </span>{' '}
                {counts.allVariants === 1 ? 'variant' : 'variants'}
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
          {counts && counts.allVariants > 0 && syncButton}
        </div>

        {content}
      </div>
      <AuditSheet open={auditOpen} onOpenChange={setAuditOpen} />
    </div>
  );
}

/**
 * The unpriced count, the search, the filters, and the cards of what matches: one per product with
 * a matching variant (the whole product, so its bulk actions act on all its variants), or one per
 * matching variant of the groups loaded so far; 'Load more' asks the server for the next groups.
 */
function InventoryList({
  pages,
  counts,
  search,
  onSearch,
  view,
  loading,
  more,
}: {
  pages: AdminProductsPage[];
  /** The first page's counts. */
  counts: NonNullable<AdminProductsPage['counts']>;
  search: AdminProductsSearch;
  onSearch: (next: Partial<AdminProductsSearch>) => void;
  view: View;
  /** The cards are the previous search's while this one loads. */
  loading: boolean;
  more: { load: () => void; pending: boolean } | null;
}) {
  const listed = pages.flatMap((p) => p.groups);
  const shown = view === 'grouped' ? listed.length : matchingVariants(listed).length;
  const total = view === 'grouped' ? counts.groups : counts.variants;
  const narrowed = search.q.trim() !== '' || search.status !== 'all';
  const filter = search.status;
  const choose = (status: ProductFilter) => onSearch({ status });

  return (
    <>
      {counts.unpriced > 0 && (
        <div
          className="flex flex-wrap items-center justify-between gap-3 rounded-2xl border border-yellow-300 bg-yellow-50 p-4 text-yellow-950"
          data-testid="unpriced-banner"
        >
          <p>
            <span className="text-2xl font-black tabular-nums" data-testid="unpriced-count">
              {counts.unpriced}
            </span>{' '}
            <span className="font-semibold">{counts.unpriced === 1 ? 'variant is' : 'variants are'} not for sale</span>: no POG price yet.
          </p>
          {filter !== 'unpriced' && (
            <Button variant="outline" onClick={() => choose('unpriced')} data-testid="show-unpriced">
              Show unpriced
            </Button>
          )}
        </div>
      )}

      <div className="grid gap-3">
        <SearchBox q={search.q} onSearch={(q) => onSearch({ q })} loading={loading} />
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
          <p className="text-sm text-muted-foreground" role="status" data-testid="filter-summary">
            {`${counts.groups} of ${counts.allGroups} products match (${counts.variants} of ${counts.allVariants} variants)`}
          </p>
        )}
      </div>

      {total === 0 ? (
        <StateCard icon={<Search aria-hidden />} testId="admin-no-match">
          <h2 className="text-xl font-bold break-words">{noMatchText(search.q, filter)}</h2>
          <Button variant="outline" onClick={() => onSearch({ q: '', status: 'all' })} data-testid="clear-search">
            Clear search and filters
          </Button>
        </StateCard>
      ) : (
        <div
          className={cn('grid grid-cols-1 gap-4 md:grid-cols-2 lg:grid-cols-3', loading && 'opacity-60')}
          aria-busy={loading}
          data-q={search.q.trim()}
          data-testid="admin-grid"
          data-view={view}
        >
          {view === 'grouped'
            ? listed.map((group) => <GroupCard key={group.productId} group={toProductGroup(group)} />)
            : matchingVariants(listed).map((item) => <VariantCard key={variantFormKey(item)} item={item} />)}
        </div>
      )}
      {total > 0 && (
        <div className="grid justify-items-center gap-2">
          <p className="text-sm text-muted-foreground" data-testid="shown-count">
            Showing {shown} of {total} {view === 'grouped' ? 'products' : 'variants'}
          </p>
          {more && (
            <Button variant="outline" onClick={more.load} disabled={more.pending} data-testid="load-more">
              {more.pending && <LoaderCircle aria-hidden className="motion-safe:animate-spin" />}
              Load more
            </Button>
          )}
        </div>
      )}
    </>
  );
}

/** The search box: asks the server once typing pauses, and at once on Enter. */
function SearchBox({ q, onSearch, loading }: { q: string; onSearch: (q: string) => void; loading: boolean }) {
  const [typed, setTyped] = useState(q);
  // The address's search as last seen, and the last one this box asked for: when the address
  // changes to another (Clear search and filters), the box shows it.
  const [seen, setSeen] = useState(q);
  const [sent, setSent] = useState<string | null>(null);
  if (q !== seen) {
    setSeen(q);
    if (q !== sent) setTyped(q);
  }
  const search = useEffectEvent((text: string) => {
    setSent(text.trim());
    onSearch(text);
  });
  useEffect(() => {
    if (typed.trim() === q.trim()) return;
    const timer = setTimeout(() => search(typed), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [typed, q]);

  return (
    <form
      role="search"
      onSubmit={(e) => {
        e.preventDefault();
        setSent(typed.trim());
        onSearch(typed);
      }}
    >
      <label className="relative block" htmlFor="admin-search">
        <span className="sr-only">Search by title or SKU</span>
        {loading ? (
          <LoaderCircle
            aria-hidden
            className="pointer-events-none absolute top-1/2 left-3 size-5 -translate-y-1/2 text-muted-foreground motion-safe:animate-spin"
          />
        ) : (
          <Search aria-hidden className="pointer-events-none absolute top-1/2 left-3 size-5 -translate-y-1/2 text-muted-foreground" />
        )}
        <Input
          id="admin-search"
          type="search"
          placeholder="Search by title or SKU"
          value={typed}
          maxLength={ADMIN_PRODUCTS_SEARCH_MAX}
          onChange={(e) => setTyped(e.target.value)}
          enterKeyHint="search"
          className="pl-10"
          data-testid="admin-search"
        />
      </label>
    </form>
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
