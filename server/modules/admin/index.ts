/**
 * The admin area: password login with a lockout per source (IP, IPv6 /64, a known browser) that
 * strangers cannot turn on the admin's own browser, its counts shared by every instance; admin
 * sessions in the database, the inventory and custom titles the admin edits, and the audit trail.
 */
/** Admin login, sessions and the lockout (see service.ts). */
export { AdminService } from './service';
/** The inventory the admin edits: list, update a variant, custom titles, sync now. */
export { InventoryAdmin } from './inventory';
/** The payments desk: transfers that need a person, resolving them, the accountant's CSV export. */
export { PaymentsDesk } from './payments-desk';
/** @internal Every desk item by the rule read from scratch, which the desk's bench checks the queue against. */
export { deskItemsFromScratch } from './desk/desk-reads';
/** @internal The books for a date range, streamed as CSV (docs/books.md): the routes write them; bench/books.ts times them. */
export { koinlyCsv, ledgerCsv } from './books-export';
/** Attaching an unmatched transfer to the checkout it evidently belongs to (candidates, attach). */
export { TransferAttach } from './attach';
/** The orders view: every order with its Shopify hand-off, one order's timeline, retrying a failed hand-off. */
export { OrdersDesk } from './orders-desk';
/** The admin API's routes (/api/admin/*, /api/inventory*, /api/products/:originalTitle/custom-title). */
export { adminRoutes } from './routes';
/** Local mode: the generated admin password kept in the data folder. */
export { loadLocalAdminPassword } from './local-password';
/** The operator's one-time sign-in link that lets a browser past the brake on new browsers. */
export { makeSignInLink, signInUrl, SIGN_IN_LINK_TTL_MS } from './sign-in-link';
/** Writes one entry of the admin's audit trail in the caller's transaction (the webhook endpoints' changes, through server/wiring.ts). */
export { recordAudit } from './audit';
