/**
 * The ordered list of migrations. Listed explicitly (rather than read from the folder by knex) so
 * the same code runs under tsx, vitest and a bundler; add each new migration here.
 */
import type { Knex } from 'knex';
import * as catalogue from './20261122000000_catalogue';
import * as sessionsAndCarts from './20261122010000_sessions_and_carts';
import * as payments from './20261122020000_payments';
import * as siwe from './20261122030000_siwe';
import * as rateLimits from './20261122040000_rate_limits';
import * as paymentIntegrity from './20261122050000_payment_integrity';
import * as admin from './20261123000000_admin';
import * as paymentsDesk from './20261123010000_payments_desk';
import * as refunds from './20261124000000_refunds';
import * as orderHandoffTimes from './20261124010000_order_handoff_times';
import * as adminLoginSources from './20261126110000_admin_login_sources';
import * as checkoutEvidence from './20261126110100_checkout_evidence';
import * as deskVolume from './20261126120000_desk_volume';
import * as catalogueSyncRuns from './20261127000000_catalogue_sync_runs';
import * as extraPaymentStatus from './20261128000000_extra_payment_status';
import * as paymasterSponsorships from './20261129000000_paymaster_sponsorships';
import * as paymasterBudget from './20261129010000_paymaster_budget';
import * as adminSignInLinks from './20261129020000_admin_sign_in_links';
import * as attachWindow from './20261129020100_attach_window';
import * as paymentDeskItems from './20261129020200_payment_desk_items';
import * as cartChanges from './20261129020300_cart_changes';
import * as catalogueChanges from './20261129020400_catalogue_changes';
import * as orderNews from './20261129055704_order_news';
import * as orderPriceReference from './20261129060940_order_price_reference';
import * as booksIndexes from './20261129093923_books_indexes';
import * as outgoingWebhooks from './20261129094203_outgoing_webhooks';
import * as transferPayer from './20261129123414_transfer_payer';

export const migrations: Array<[name: string, migration: Knex.Migration]> = [
  ['20261122000000_catalogue.ts', catalogue],
  ['20261122010000_sessions_and_carts.ts', sessionsAndCarts],
  ['20261122020000_payments.ts', payments],
  ['20261122030000_siwe.ts', siwe],
  ['20261122040000_rate_limits.ts', rateLimits],
  ['20261122050000_payment_integrity.ts', paymentIntegrity],
  ['20261123000000_admin.ts', admin],
  ['20261123010000_payments_desk.ts', paymentsDesk],
  ['20261124000000_refunds.ts', refunds],
  ['20261124010000_order_handoff_times.ts', orderHandoffTimes],
  ['20261126110000_admin_login_sources.ts', adminLoginSources],
  ['20261126110100_checkout_evidence.ts', checkoutEvidence],
  ['20261126120000_desk_volume.ts', deskVolume],
  ['20261127000000_catalogue_sync_runs.ts', catalogueSyncRuns],
  ['20261128000000_extra_payment_status.ts', extraPaymentStatus],
  ['20261129000000_paymaster_sponsorships.ts', paymasterSponsorships],
  ['20261129010000_paymaster_budget.ts', paymasterBudget],
  ['20261129020000_admin_sign_in_links.ts', adminSignInLinks],
  ['20261129020100_attach_window.ts', attachWindow],
  ['20261129020200_payment_desk_items.ts', paymentDeskItems],
  ['20261129020300_cart_changes.ts', cartChanges],
  ['20261129020400_catalogue_changes.ts', catalogueChanges],
  ['20261129055704_order_news.ts', orderNews],
  ['20261129060940_order_price_reference.ts', orderPriceReference],
  ['20261129093923_books_indexes.ts', booksIndexes],
  ['20261129094203_outgoing_webhooks.ts', outgoingWebhooks],
  ['20261129123414_transfer_payer.ts', transferPayer],
];

/**
 * Migrations that were once named otherwise: [earlier name, name now]. knex records an applied
 * migration by its file name, so a database that applied one under its earlier name has that row
 * renamed before migrating (server/db.ts), instead of running it again. The only way to rename a
 * migration that may have been applied anywhere (CONTRIBUTING.md); these five were dated after the
 * day they were written, which put a migration written later, with a true date, before them.
 */
export const renamedMigrations: ReadonlyArray<readonly [earlier: string, now: string]> = [
  ['20261130000000_admin_sign_in_links.ts', '20261129020000_admin_sign_in_links.ts'],
  ['20261130010000_attach_window.ts', '20261129020100_attach_window.ts'],
  ['20261130020000_payment_desk_items.ts', '20261129020200_payment_desk_items.ts'],
  ['20261201000000_cart_changes.ts', '20261129020300_cart_changes.ts'],
  ['20261201010000_catalogue_changes.ts', '20261129020400_catalogue_changes.ts'],
];
