/** The catalogue feature's public surface (used by app/ composition). */
export { useConfig, useShopNames, configQueryKey } from './api/get-config';
export { productsQueryKey, useProducts } from './api/get-products';
export { productQueryKey, useProduct } from './api/get-product';
