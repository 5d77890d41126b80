import { Router } from '@koa/router';
import type { Context, Next } from 'koa';
import { z } from 'zod';
import {
  ADMIN_SESSION_TTL_MS,
  adminLoginSchema,
  adminProductsQuerySchema,
  adminSignInLinkSchema,
  type AdminBrowserKnown,
  customTitleQuerySchema,
  customTitleSchema,
  inventoryUpdateSchema,
  type AuditPage,
} from '../../../common/admin';
import { BOOKS_FILES, type BooksFile } from '../../../common/books';
import { ErrorCode } from '../../../common/errors';
import {
  attachCandidatesQuerySchema,
  attachTransferSchema,
  adminOrdersQuerySchema,
  attentionQuerySchema,
  paymentsExportQuerySchema,
  prepareRefundSchema,
  recordRefundSchema,
  resolveAttentionSchema,
} from '../../../common/payments-desk';
import type { SyncStartAnswer, SyncStatus } from '../../../common/api';
import type { SponsoredGas } from '../../../common/sponsored-gas';
import type { Config } from '../../config';
import { AppError } from '../../lib/errors';
import { sameOriginOnly } from '../../lib/cross-site';
import { describeIssues, parseJsonBody } from '../../lib/validation';
import { koinlyCsv, ledgerCsv } from './books-export';
import { AUDIT_DEFAULT_LIMIT, AUDIT_MAX_LIMIT, listAudit } from './audit';
import type { InventoryAdmin } from './inventory';
import type { OrdersDesk } from './orders-desk';
import type { PaymentsDesk } from './payments-desk';
import type { TransferAttach } from './attach';
import { ADMIN_DEVICE_TTL_MS } from './login-lock';
import { LOGIN_BUSY_RETRY_SECONDS, retryAfterSeconds, type AdminService, type AdminSessionInfo } from './service';
import type { Db } from '../../db';
import type { WebhookEndpoints } from '../outgoing-webhooks';
import { webhookRoutes } from './webhook-routes';

/** The admin session's cookie: its own, sent only to the API and never with a request from another site. */
export const ADMIN_COOKIE = 'pogs_admin';
/**
 * The admin's device cookie: this browser logged in before (signed by the server, kept 180 days,
 * renewed at every login, kept at logout). Only the login reads it: such a browser is locked only
 * by its own wrong passwords, never by other sources' (service.ts).
 */
export const ADMIN_DEVICE_COOKIE = 'pogs_admin_device';

declare module 'koa' {
  interface DefaultState {
    /** Set by requireAdmin: the live admin session making the request. */
    admin?: AdminSessionInfo;
  }
}

const auditLimitSchema = z
  .string()
  .regex(/^\d{1,3}$/)
  .transform(Number)
  .pipe(z.number().int().min(1).max(AUDIT_MAX_LIMIT))
  .optional();

export function adminRoutes(deps: {
  admin: AdminService;
  inventory: InventoryAdmin;
  desk: PaymentsDesk;
  attach: TransferAttach;
  ordersDesk: OrdersDesk;
  /** The paymaster's deposit left and its sponsorships per day (the paymaster module's); absent when the shop pays no gas. */
  sponsoredGas?: () => Promise<SponsoredGas>;
  /** The merchant's webhook endpoints (webhook-routes.ts). */
  webhooks: WebhookEndpoints;
  config: Config;
  db: Db;
  now?: () => Date;
}): Router {
  const { admin, inventory, desk, attach, ordersDesk, config, db } = deps;
  const now = deps.now ?? (() => new Date());
  const secure = config.env === 'production';
  const router = new Router();

  /**
   * The admin's routes, reads included (all but the session's state), answer only the shop's own
   * pages (server/lib/cross-site.ts; the app refuses cross-site writes before any router as
   * well). The SameSite=Strict cookie already stays home; this also covers browsers and paths
   * where it would not.
   */
  const sameSite = sameOriginOnly(config);

  const sessionOf = async (ctx: Context) => {
    const token = ctx.cookies.get(ADMIN_COOKIE);
    const session = await admin.resolve(token);
    if (token && !session) clearCookie(ctx); // expired, ended or unknown: drop it
    return session;
  };

  /** A live admin session, or 401 `admin-session-required`. */
  const requireAdmin = async (ctx: Context, next: Next) => {
    const session = await sessionOf(ctx);
    if (!session) throw new AppError(ErrorCode.adminSessionRequired, 'Log in to the admin area first (or again: the session has ended).');
    ctx.state.admin = session;
    await next();
  };
  const guarded = [sameSite, requireAdmin];
  const label = (ctx: Context) => ctx.state.admin!.label;

  /** Sets (or, with null, drops) one of the admin's cookies: httpOnly, SameSite=Strict, Secure in production. */
  const adminCookie = (ctx: Context, name: string, value: string | null, path: string, maxAge?: number) => {
    // Behind a TLS-terminating proxy Koa may not see https itself; production cookies are Secure regardless.
    if (secure) ctx.cookies.secure = true;
    ctx.cookies.set(name, value, { httpOnly: true, sameSite: 'strict', secure, path, maxAge, overwrite: true });
  };
  const setCookie = (ctx: Context, token: string) => adminCookie(ctx, ADMIN_COOKIE, token, '/api', ADMIN_SESSION_TTL_MS);
  /** The device cookie: sent only to the login routes, kept 180 days, renewed at every login. */
  const setDeviceCookie = (ctx: Context, device: string) =>
    adminCookie(ctx, ADMIN_DEVICE_COOKIE, device, '/api/admin/login', ADMIN_DEVICE_TTL_MS);
  const clearCookie = (ctx: Context) => adminCookie(ctx, ADMIN_COOKIE, null, '/api');

  // Nothing an admin route answers may be kept by a cache.
  const noStore = async (ctx: Context, next: Next) => {
    try {
      await next();
    } finally {
      ctx.set('Cache-Control', 'no-store');
    }
  };

  router.post('/api/admin/login', noStore, sameSite, async (ctx) => {
    const { password } = parseJsonBody(ctx, adminLoginSchema, '{"password": "…"}');
    try {
      // ctx.ip is the client's address as the app is configured to trust it (TRUSTED_PROXY_HOPS).
      const { token, device, session } = await admin.login(password, { ip: ctx.ip, device: ctx.cookies.get(ADMIN_DEVICE_COOKIE) });
      setCookie(ctx, token);
      setDeviceCookie(ctx, device);
      ctx.body = session;
    } catch (err) {
      if (err instanceof AppError && err.details.lockedUntil)
        ctx.set('Retry-After', String(retryAfterSeconds(err.details.lockedUntil, now())));
      if (err instanceof AppError && (err.code === ErrorCode.adminLoginBusy || err.code === ErrorCode.adminLoginInProgress))
        ctx.set('Retry-After', String(LOGIN_BUSY_RETRY_SECONDS));
      throw err;
    }
  });

  // The operator's sign-in link: this browser becomes one that logged in before (sign-in-link.ts).
  router.post('/api/admin/login/link', noStore, sameSite, async (ctx) => {
    const { link } = parseJsonBody(ctx, adminSignInLinkSchema, '{"link": "…"}');
    setDeviceCookie(ctx, await admin.recogniseBrowser(link, { ip: ctx.ip, device: ctx.cookies.get(ADMIN_DEVICE_COOKIE) }));
    ctx.body = { known: true } satisfies AdminBrowserKnown;
  });

  router.post('/api/admin/logout', noStore, sameSite, async (ctx) => {
    const session = await sessionOf(ctx);
    ctx.body = await admin.logout(session);
    clearCookie(ctx);
  });

  router.get('/api/admin/session', noStore, async (ctx) => {
    ctx.body = admin.describe(await sessionOf(ctx));
  });

  router.get('/api/admin/audit', noStore, ...guarded, async (ctx) => {
    const parsed = auditLimitSchema.safeParse(ctx.query.limit);
    if (!parsed.success) throw new AppError(ErrorCode.badRequest, `limit must be a whole number from 1 to ${AUDIT_MAX_LIMIT}`);
    ctx.body = { entries: await listAudit(db, parsed.data ?? AUDIT_DEFAULT_LIMIT) } satisfies AuditPage;
  });

  router.get('/api/inventory', noStore, ...guarded, async (ctx) => {
    ctx.body = await inventory.list();
  });

  // The admin's product groups a page at a time, searched and filtered (product-page.ts).
  router.get('/api/admin/products', noStore, ...guarded, async (ctx) => {
    const parsed = adminProductsQuerySchema.safeParse(ctx.query);
    if (!parsed.success)
      throw new AppError(
        ErrorCode.badRequest,
        `${describeIssues(parsed.error)}. Expected ?q=hoodie&status=active&limit=24&cursor=<nextCursor of the previous page>`,
      );
    ctx.body = await inventory.page(parsed.data);
  });

  // Starts the sync in the background and answers at once (202): the job this press started, or
  // the one already running. GET reads its progress.
  router.post('/api/inventory/sync', noStore, ...guarded, async (ctx) => {
    const { job, started } = await inventory.startSync(label(ctx));
    ctx.status = 202;
    ctx.body = { job, started } satisfies SyncStartAnswer;
  });

  router.get('/api/inventory/sync', noStore, ...guarded, async (ctx) => {
    ctx.body = { job: await inventory.syncStatus() } satisfies SyncStatus;
  });

  router.patch('/api/inventory/:id/update', noStore, ...guarded, async (ctx) => {
    const update = parseJsonBody(
      ctx,
      inventoryUpdateSchema,
      '{"pogPrice": "12.50", "isActive": true, "availableStock": 10, "isSoldOut": false}',
    );
    ctx.body = await inventory.update(ctx.params.id!, update, label(ctx));
  });

  /** `?productId=`: the one product (a group card's) whose title changes; none: every product with the path's title. */
  const titleProduct = (ctx: Context): string | undefined => {
    const parsed = customTitleQuerySchema.safeParse(ctx.query);
    if (!parsed.success)
      throw new AppError(ErrorCode.badRequest, `${describeIssues(parsed.error)}. Expected ?productId=8642798438000 or nothing`);
    return parsed.data.productId;
  };

  // The router hands the path's title over decoded (%2F, spaces, any Unicode).
  router.put('/api/products/:originalTitle/custom-title', noStore, ...guarded, async (ctx) => {
    const { customTitle } = parseJsonBody(ctx, customTitleSchema, '{"customTitle": "Rare Pog Slammer"}');
    ctx.body = await inventory.setCustomTitle(ctx.params.originalTitle!, customTitle, label(ctx), titleProduct(ctx));
  });

  router.delete('/api/products/:originalTitle/custom-title', noStore, ...guarded, async (ctx) => {
    ctx.body = await inventory.setCustomTitle(ctx.params.originalTitle!, null, label(ctx), titleProduct(ctx));
  });

  // The payments desk.
  router.get('/api/admin/payments/attention', noStore, ...guarded, async (ctx) => {
    const parsed = attentionQuerySchema.safeParse(ctx.query);
    if (!parsed.success)
      throw new AppError(ErrorCode.badRequest, `${describeIssues(parsed.error)}. Expected ?kind=underpaid&resolved=false&before=123`);
    const { kind, resolved, before } = parsed.data;
    ctx.body = await desk.attention({ kind, resolved: resolved === 'true', before });
  });

  router.post('/api/admin/payments/:transferId/resolve', noStore, ...guarded, async (ctx) => {
    const { note } = parseJsonBody(ctx, resolveAttentionSchema, '{"note": "refunded off-shop"}');
    ctx.body = await desk.resolve(ctx.params.transferId!, note, label(ctx));
  });

  // Just before the store wallet sends a refund: refused as the refund would be, else the transfer is held.
  router.post('/api/admin/payments/:transferId/prepare-refund', noStore, ...guarded, async (ctx) => {
    const { amount } = parseJsonBody(ctx, prepareRefundSchema, '{"amount": "12.50"}');
    ctx.body = await desk.prepareRefund(ctx.params.transferId!, amount);
  });

  // The store wallet already sent the refund; the server verifies it on chain and records it (202 until it is deep enough).
  router.post('/api/admin/payments/:transferId/refund', noStore, ...guarded, async (ctx) => {
    const refund = parseJsonBody(ctx, recordRefundSchema, '{"transactionHash": "0x…64 hex characters", "amount": "12.50"}');
    ctx.body = await desk.refund(ctx.params.transferId!, refund, label(ctx));
  });

  /** The range of a CSV download (inclusive ISO dates, UTC, at most a year apart), or 400 naming what to send. */
  const exportRange = (ctx: Context) => {
    const parsed = paymentsExportQuerySchema.safeParse(ctx.query);
    if (!parsed.success)
      throw new AppError(ErrorCode.badRequest, `${describeIssues(parsed.error)}. Expected ?from=2026-01-01&to=2026-12-31`);
    return parsed.data;
  };

  router.get('/api/admin/payments/export.csv', noStore, ...guarded, async (ctx) => {
    const { from, to } = exportRange(ctx);
    ctx.type = 'text/csv; charset=utf-8';
    ctx.attachment(`payments-${from}-to-${to}.csv`);
    ctx.body = desk.exportCsv(from, to);
  });

  // The books (docs/books.md): the same range rules as the desk's export, each file streamed.
  for (const [file, path] of Object.entries(BOOKS_FILES) as Array<[BooksFile, string]>) {
    router.get(path, noStore, ...guarded, async (ctx) => {
      const { from, to } = exportRange(ctx);
      ctx.type = 'text/csv; charset=utf-8';
      ctx.attachment(`${file}-${from}-to-${to}.csv`);
      ctx.body = file === 'koinly' ? koinlyCsv(db, from, to) : ledgerCsv(db, from, to);
    });
  }

  // Registered after /attention and /export.csv, which the router tries first.
  router.get('/api/admin/payments/:transferId', noStore, ...guarded, async (ctx) => {
    ctx.body = await desk.get(ctx.params.transferId!);
  });

  // Attaching a transfer to the checkout it evidently belongs to (through settlement, like a payment).
  router.get('/api/admin/payments/:transferId/candidates', noStore, ...guarded, async (ctx) => {
    const parsed = attachCandidatesQuerySchema.safeParse(ctx.query);
    if (!parsed.success)
      throw new AppError(
        ErrorCode.badRequest,
        `${describeIssues(parsed.error)}. Expected ?q=0xabc…|76.5|3b241101&limit=20&cursor=<nextCursor of the previous page>`,
      );
    ctx.body = await attach.candidates(ctx.params.transferId!, parsed.data);
  });

  router.post('/api/admin/payments/:transferId/attach', noStore, ...guarded, async (ctx) => {
    const { checkoutId } = parseJsonBody(ctx, attachTransferSchema, '{"checkoutId": "3b241101-e2bb-4255-8caf-4136c566a962"}');
    ctx.body = await attach.attach(ctx.params.transferId!, checkoutId, label(ctx));
  });

  // Sponsored gas: the deposit is read from the chain (null with the reason when it does not answer).
  router.get('/api/admin/paymaster', noStore, ...guarded, async (ctx) => {
    ctx.body = (deps.sponsoredGas ? await deps.sponsoredGas() : { enabled: false }) satisfies SponsoredGas;
  });

  // The admin's orders view.
  router.get('/api/admin/orders', noStore, ...guarded, async (ctx) => {
    const parsed = adminOrdersQuerySchema.safeParse(ctx.query);
    if (!parsed.success)
      throw new AppError(ErrorCode.badRequest, `${describeIssues(parsed.error)}. Expected ?status=paid&q=0xabc&before=<nextBefore>`);
    ctx.body = await ordersDesk.list(parsed.data);
  });

  router.get('/api/admin/orders/:id', noStore, ...guarded, async (ctx) => {
    ctx.body = await ordersDesk.get(ctx.params.id!);
  });

  router.post('/api/admin/orders/:id/retry-handoff', noStore, ...guarded, async (ctx) => {
    ctx.body = await ordersDesk.retryHandoff(ctx.params.id!, label(ctx));
  });

  // The merchant's webhook endpoints.
  webhookRoutes(router, deps.webhooks, [noStore, ...guarded], label);

  return router;
}
