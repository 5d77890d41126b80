/** The cart's wire shapes live in common/api.ts (shared with the server); re-exported here. */
export type { Cart, CartItem } from '../../../common/api';
