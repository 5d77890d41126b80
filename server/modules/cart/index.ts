/** Cart module: session carts with prices re-read from the catalogue on every read. */
export { CartService } from './service';
export { cartRoutes } from './routes';
export { cartLineRows, lineForSale, lineTitle } from './lines';
