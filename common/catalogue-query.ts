/**
 * The catalogue API's strict forms of the views in catalogue-view.ts: `GET /api/catalogue/products`'s
 * query: a wrong value is a 400 naming it. The view's part is checked against the plain type
 * (`satisfies`), so the two cannot drift.
 */
import { z } from 'zod';
import {
  CATALOGUE_PAGE_SIZE,
  CATALOGUE_SORTS,
  MAX_CATALOGUE_PAGE_SIZE,
  MAX_FILTER_LENGTH,
  MAX_SEARCH_LENGTH,
  type CatalogueFilter,
} from './catalogue-view';

const filterText = (max: number, what: string) =>
  z
    .string()
    .max(max, `${what} is at most ${max} characters`)
    .transform((s) => s.trim())
    .default('');

/** A search, the filters and the sort, as the API takes them. */
const catalogueFilterSchema = z.object({
  q: filterText(MAX_SEARCH_LENGTH, 'the search'),
  type: filterText(MAX_FILTER_LENGTH, 'type'),
  vendor: filterText(MAX_FILTER_LENGTH, 'vendor'),
  tag: filterText(MAX_FILTER_LENGTH, 'tag'),
  sort: z.enum(CATALOGUE_SORTS).default('featured'),
}) satisfies z.ZodType<CatalogueFilter, unknown>;

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
