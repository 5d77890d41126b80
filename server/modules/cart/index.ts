/** Cart module: session carts with prices re-read from the catalogue on every read. */
export { CartService } from './service';
/** Payments' settlement empties a paid checkout's lines from the cart, in its own transaction. */
export { removeBoughtLines } from './service';
export { cartRoutes } from './routes';
export { cartLineRows, lineForSale, lineTitle } from './lines';
export { cartReadLane } from './lane';
