import { ArrowUpDown, ChevronDown, Search } from 'lucide-react';
import { useEffect, useEffectEvent, useId, useState, type ReactNode } from 'react';
import {
  CATALOGUE_SORT_LABELS,
  CATALOGUE_SORTS,
  MAX_SEARCH_LENGTH,
  type CatalogueFacets,
  type CatalogueFilter,
  type CatalogueSort,
  type FacetValue,
} from '../../../../common/catalogue-view';
import { Input } from '../../../components/ui/input';
import { cn } from '../../../lib/utils';

/** How long typing pauses before the results follow it. */
const SEARCH_DEBOUNCE_MS = 180;

interface CatalogueControlsProps {
  view: CatalogueFilter;
  facets: CatalogueFacets | undefined;
  /** Each search typed replaces the URL's view; a filter or sort is a new history entry. */
  onChange: (next: Partial<CatalogueFilter>, options?: { replace?: boolean }) => void;
  /** A new view's first page is loading (the previous results stay shown meanwhile). */
  busy: boolean;
}

/** The home's search box, filters (product type, vendor, tag) and sort. */
export function CatalogueControls({ view, facets, onChange, busy }: CatalogueControlsProps) {
  return (
    <div className="grid gap-2 lg:grid-cols-[minmax(0,2fr)_repeat(4,minmax(0,1fr))]" data-testid="catalogue-controls">
      <SearchBox value={view.q} busy={busy} onSearch={(q) => onChange({ q }, { replace: true })} />
      <div className="grid grid-cols-2 gap-2 sm:grid-cols-4 lg:contents">
        <FacetSelect
          label="Type"
          anyLabel="All types"
          value={view.type}
          values={facets?.productTypes}
          onChange={(type) => onChange({ type })}
        />
        <FacetSelect
          label="Vendor"
          anyLabel="All vendors"
          value={view.vendor}
          values={facets?.vendors}
          onChange={(vendor) => onChange({ vendor })}
        />
        <FacetSelect label="Tag" anyLabel="All tags" value={view.tag} values={facets?.tags} onChange={(tag) => onChange({ tag })} />
        <SelectField label="Sort by" icon={<ArrowUpDown aria-hidden />}>
          {(id) => (
            <select
              id={id}
              className={SELECT}
              data-testid="catalogue-sort"
              value={view.sort}
              onChange={(event) => onChange({ sort: event.target.value as CatalogueSort })}
            >
              {CATALOGUE_SORTS.map((sort) => (
                <option key={sort} value={sort}>
                  {CATALOGUE_SORT_LABELS[sort]}
                </option>
              ))}
            </select>
          )}
        </SelectField>
      </div>
    </div>
  );
}

/**
 * Results follow the typing (after a short pause), without a submit; Enter searches at once and
 * closes a phone's keyboard. The text typed stays as typed while the URL catches up; a search
 * changed from elsewhere (Clear, Back) replaces it.
 */
function SearchBox({ value, busy, onSearch }: { value: string; busy: boolean; onSearch: (q: string) => void }) {
  const id = useId();
  const [text, setText] = useState(value);
  const [shown, setShown] = useState(value);
  if (value !== shown) {
    setShown(value);
    if (value !== text.trim()) setText(value);
  }
  const search = useEffectEvent((q: string) => onSearch(q));
  useEffect(() => {
    const q = text.trim();
    if (q === value) return;
    const timer = setTimeout(() => search(q), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text, value]);

  return (
    <form
      role="search"
      className="relative"
      onSubmit={(event) => {
        event.preventDefault();
        if (text.trim() !== value) onSearch(text.trim());
        event.currentTarget.querySelector('input')?.blur();
      }}
    >
      <label htmlFor={id} className="sr-only">
        Search products
      </label>
      <Search
        aria-hidden
        className={cn(
          'pointer-events-none absolute top-1/2 left-3 size-5 -translate-y-1/2 text-muted-foreground',
          busy && 'motion-safe:animate-pulse',
        )}
      />
      <Input
        id={id}
        type="search"
        name="q"
        data-testid="catalogue-search"
        placeholder="Search products"
        autoComplete="off"
        enterKeyHint="search"
        maxLength={MAX_SEARCH_LENGTH}
        className="pl-10"
        value={text}
        onChange={(event) => setText(event.target.value)}
      />
    </form>
  );
}

const SELECT =
  'h-11 w-full min-w-0 appearance-none truncate rounded-xl border border-input bg-background pr-9 pl-3 text-base text-foreground ' +
  'focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-ring';

function SelectField({ label, icon, children }: { label: string; icon?: ReactNode; children: (id: string) => ReactNode }) {
  const id = useId();
  return (
    <div className={cn('relative min-w-0', icon && '[&_select]:pl-10')}>
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      {icon && (
        <span className="pointer-events-none absolute top-1/2 left-3 -translate-y-1/2 text-muted-foreground [&_svg]:size-5">{icon}</span>
      )}
      {children(id)}
      <ChevronDown aria-hidden className="pointer-events-none absolute top-1/2 right-3 size-5 -translate-y-1/2 text-muted-foreground" />
    </div>
  );
}

/** One filter: any value, or one of the facet's (the value in the URL is offered even before the facets arrive). */
function FacetSelect({
  label,
  anyLabel,
  value,
  values,
  onChange,
}: {
  label: string;
  anyLabel: string;
  value: string;
  values: FacetValue[] | undefined;
  onChange: (value: string) => void;
}) {
  const options = values ?? [];
  const known = options.some((option) => option.value === value);
  return (
    <SelectField label={label}>
      {(id) => (
        <select
          id={id}
          className={SELECT}
          data-testid={`catalogue-${label.toLowerCase()}`}
          value={value}
          onChange={(event) => onChange(event.target.value)}
        >
          <option value="">{anyLabel}</option>
          {value && !known && <option value={value}>{value}</option>}
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.value} ({option.count})
            </option>
          ))}
        </select>
      )}
    </SelectField>
  );
}
