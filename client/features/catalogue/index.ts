/** What the app takes from the catalogue besides its routes: seeding the query cache from the page's inline data. */
export { seedInlineData, seedShopData } from './api/inline-data';
