/** Cart module: session carts with prices re-read from the catalogue on every read. */
export { CartService, EMPTY_CART, SOLD_OUT_MESSAGE, UNAVAILABLE_MESSAGE, onlyAvailableMessage } from './service';
export { cartRoutes } from './routes';
