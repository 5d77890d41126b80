/**
 * What a shopper asks of the catalogue: a search, filters, a sort, and a page of the answer.
 *
 * One shape for the three places that read it: the home's URL (`/?q=cap&type=Hats&sort=price-asc`,
 * so a filtered view can be shared and survives a reload), the page route
 * (`GET /api/catalogue/products`) and the server's first page inlined in the home's HTML. The URL
 * form is lenient (a stale or hand-edited link still opens the shop: unknown values fall back to
 * the defaults); the API's is strict (a wrong value is a 400 naming it).
 */
import { z } from 'zod';
import { productSchema } from './api';

/** Products per page: the home's first page (server-rendered) and each page after it. */
export const CATALOGUE_PAGE_SIZE = 24;
/** The most products one page request may ask for. */
export const MAX_CATALOGUE_PAGE_SIZE = 60;
/** The longest search text taken; longer text is cut (URL) or refused (API). */
export const MAX_SEARCH_LENGTH = 100;
/** The longest filter value (a product type, vendor or tag, as Shopify allows them). */
const MAX_FILTER_LENGTH = 255;

export const CATALOGUE_SORTS = ['featured', 'newest', 'price-asc', 'price-desc'] as const;
export const catalogueSortSchema = z.enum(CATALOGUE_SORTS);
export type CatalogueSort = z.infer<typeof catalogueSortSchema>;

/** The sorts as the shop names them to shoppers. */
export const CATALOGUE_SORT_LABELS: Record<CatalogueSort, string> = {
  featured: 'Featured',
  newest: 'Newest',
  'price-asc': 'Price: low to high',
  'price-desc': 'Price: high to low',
};

const filterText = (max: number, what: string) =>
  z
    .string()
    .max(max, `${what} is at most ${max} characters`)
    .transform((s) => s.trim())
    .default('');

/** A search, the filters and the sort: what a view of the catalogue is, without its paging. */
export const catalogueFilterSchema = z.object({
  /** Words matched against title, description, vendor, type, tags and SKU (each word a prefix). */
  q: filterText(MAX_SEARCH_LENGTH, 'the search'),
  /** Exactly one product type ('' for any). */
  type: filterText(MAX_FILTER_LENGTH, 'type'),
  /** Exactly one vendor ('' for any). */
  vendor: filterText(MAX_FILTER_LENGTH, 'vendor'),
  /** Exactly one tag ('' for any). */
  tag: filterText(MAX_FILTER_LENGTH, 'tag'),
  sort: catalogueSortSchema.default('featured'),
});
export type CatalogueFilter = z.infer<typeof catalogueFilterSchema>;

export const DEFAULT_CATALOGUE_FILTER: CatalogueFilter = Object.freeze({ q: '', type: '', vendor: '', tag: '', sort: 'featured' });

/** `GET /api/catalogue/products`'s query: a view and where in it (`cursor` from the previous page). */
export const cataloguePageQuerySchema = catalogueFilterSchema.extend({
  cursor: z.string().max(512, 'cursor is at most 512 characters').optional(),
  limit: z.coerce
    .number()
    .int('limit is a whole number')
    .min(1, 'limit is at least 1')
    .max(MAX_CATALOGUE_PAGE_SIZE, `limit is at most ${MAX_CATALOGUE_PAGE_SIZE}`)
    .default(CATALOGUE_PAGE_SIZE),
});
export type CataloguePageQuery = z.infer<typeof cataloguePageQuerySchema>;

export const cataloguePageSchema = z.object({
  products: z.array(productSchema),
  /** How many products match the view in all (every page). */
  total: z.number().int(),
  /** Give it back as `cursor` for the next page; null on the last page. */
  nextCursor: z.string().nullable(),
});
export type CataloguePage = z.infer<typeof cataloguePageSchema>;

export const facetValueSchema = z.object({ value: z.string(), count: z.number().int() });
export type FacetValue = z.infer<typeof facetValueSchema>;

/** `GET /api/catalogue/facets`: the values the filters offer, with how many listed products have each. */
export const catalogueFacetsSchema = z.object({
  productTypes: z.array(facetValueSchema),
  vendors: z.array(facetValueSchema),
  tags: z.array(facetValueSchema),
});
export type CatalogueFacets = z.infer<typeof catalogueFacetsSchema>;

const FILTER_KEYS = ['q', 'type', 'vendor', 'tag'] as const;

/** The view a URL's query names; anything unknown or malformed falls back to the default. */
export function filterFromSearchParams(params: URLSearchParams): CatalogueFilter {
  const text = (key: (typeof FILTER_KEYS)[number], max: number) => (params.get(key) ?? '').trim().slice(0, max);
  const sort = catalogueSortSchema.safeParse(params.get('sort'));
  return {
    q: text('q', MAX_SEARCH_LENGTH),
    type: text('type', MAX_FILTER_LENGTH),
    vendor: text('vendor', MAX_FILTER_LENGTH),
    tag: text('tag', MAX_FILTER_LENGTH),
    sort: sort.success ? sort.data : 'featured',
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
