/**
 * The ids of the `<script type="application/json">` tags the server puts in the home's and the
 * product pages' HTML (server/pages/shop-pages.ts), holding the exact bodies of GET /api/config, the
 * first page of the home's view (GET /api/catalogue/products with the URL's search, filters and
 * sort) and GET /api/products/:id, which the client seeds its query cache from
 * (client/features/catalogue/api/inline-data.ts).
 */
export const INLINE_DATA_IDS = { config: 'pogs-config', cataloguePage: 'pogs-catalogue-page', product: 'pogs-product' } as const;
