/**
 * What a shopper asks of the catalogue: a search, filters, a sort, and a page of the answer.
 *
 * One shape for the three places that read it: the home's URL (`/?q=cap&type=Hats&sort=price-asc`,
 * so a filtered view can be shared and survives a reload), the page route
 * (`GET /api/catalogue/products`) and the server's first page inlined in the home's HTML. The URL
 * form is lenient (a stale or hand-edited link still opens the shop: unknown values fall back to
 * the defaults); the API's is strict (a wrong value is a 400 naming it: the schemas in
 * catalogue-query.ts).
 *
 * Plain TypeScript, no schema library: the home's first screen reads views from its URL with this
 * module, and a phone should not download and run a validator for it.
 */
import type { Product } from './api';

/** Products per page: the home's first page (server-rendered) and each page after it. */
export const CATALOGUE_PAGE_SIZE = 24;
/** The most products one page request may ask for. */
export const MAX_CATALOGUE_PAGE_SIZE = 60;
/** The longest search text taken; longer text is cut (URL) or refused (API). */
export const MAX_SEARCH_LENGTH = 100;
/** The longest filter value (a product type, vendor or tag, as Shopify allows them). */
export const MAX_FILTER_LENGTH = 255;

export const CATALOGUE_SORTS = ['featured', 'newest', 'price-asc', 'price-desc'] as const;
export type CatalogueSort = (typeof CATALOGUE_SORTS)[number];

/** The sorts as the shop names them to shoppers. */
export const CATALOGUE_SORT_LABELS: Record<CatalogueSort, string> = {
  featured: 'Featured',
  newest: 'Newest',
  'price-asc': 'Price: low to high',
  'price-desc': 'Price: high to low',
};

/** A search, the filters and the sort: what a view of the catalogue is, without its paging. */
export interface CatalogueFilter {
  /** Words matched against title, description, vendor, type, tags and SKU (each word a prefix). */
  q: string;
  /** Exactly one product type ('' for any). */
  type: string;
  /** Exactly one vendor ('' for any). */
  vendor: string;
  /** Exactly one tag ('' for any). */
  tag: string;
  sort: CatalogueSort;
}

export const DEFAULT_CATALOGUE_FILTER: CatalogueFilter = Object.freeze({ q: '', type: '', vendor: '', tag: '', sort: 'featured' });

/** One page of a view (`GET /api/catalogue/products`, and the home's first page in its HTML). */
export interface CataloguePage {
  products: Product[];
  /** How many products match the view in all (every page). */
  total: number;
  /** Give it back as `cursor` for the next page; null on the last page. */
  nextCursor: string | null;
}

export interface FacetValue {
  value: string;
  count: number;
}

/** `GET /api/catalogue/facets`: the values the filters offer, with how many listed products have each. */
export interface CatalogueFacets {
  productTypes: FacetValue[];
  vendors: FacetValue[];
  tags: FacetValue[];
}

const FILTER_KEYS = ['q', 'type', 'vendor', 'tag'] as const;

const isCatalogueSort = (value: string | null): value is CatalogueSort => (CATALOGUE_SORTS as readonly (string | null)[]).includes(value);

/** The view a URL's query names; anything unknown or malformed falls back to the default. */
export function filterFromSearchParams(params: URLSearchParams): CatalogueFilter {
  const text = (key: (typeof FILTER_KEYS)[number], max: number) => (params.get(key) ?? '').trim().slice(0, max);
  const sort = params.get('sort');
  return {
    q: text('q', MAX_SEARCH_LENGTH),
    type: text('type', MAX_FILTER_LENGTH),
    vendor: text('vendor', MAX_FILTER_LENGTH),
    tag: text('tag', MAX_FILTER_LENGTH),
    sort: isCatalogueSort(sort) ? sort : 'featured',
  };
}

/** The URL query of a view: only what differs from the default, in a fixed order (one URL per view). */
export function filterToSearchParams(filter: CatalogueFilter): URLSearchParams {
  const params = new URLSearchParams();
  for (const key of FILTER_KEYS) if (filter[key]) params.set(key, filter[key]);
  if (filter.sort !== 'featured') params.set('sort', filter.sort);
  return params;
}

/** True for the catalogue as it comes: no search, no filter, the featured order. */
export function isDefaultFilter(filter: CatalogueFilter): boolean {
  return FILTER_KEYS.every((key) => filter[key] === '') && filter.sort === 'featured';
}
