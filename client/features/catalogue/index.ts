/** The catalogue feature's public surface (used by app/ composition). */
export { productsQueryKey, useProducts } from './api/get-products';
export { productQueryKey, useProduct } from './api/get-product';
