/**
 * The order updates' routes (docs/order-updates.md). The key is public; a subscription is made,
 * read and removed only by the signed-in wallet's session (Sign-In with Ethereum), and only ever
 * its own: another wallet's endpoint reads as not subscribed and cannot be removed.
 */
import { Router } from '@koa/router';
import type { Context } from 'koa';
import type { z } from 'zod';
import { pushEndpointBodySchema, pushSubscriptionSchema, type PushKeyAnswer, type PushSubscriptionStatus } from '../../../common/api';
import { ErrorCode } from '../../../common/errors';
import { AppError } from '../../lib/errors';
import type { AuthService } from '../auth';
import type { PushSubscriptions } from './subscriptions';

/** The body or query as `schema` reads it, else 400 with the code and the first problem. */
function parse<S extends z.ZodType>(schema: S, value: unknown, code: ErrorCode, hint: string): z.infer<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = issue?.path.length ? `${issue.path.join('.')}: ` : '';
  throw new AppError(code, `${where}${issue?.message ?? 'not readable'}. ${hint}`);
}

export function notificationRoutes(deps: { subscriptions: PushSubscriptions; auth: AuthService; publicKey: string | null }): Router {
  const { subscriptions, auth, publicKey } = deps;
  const router = new Router();

  /** The wallet this session signed in as, else 401. */
  const signedIn = async (ctx: Context): Promise<string> => {
    const { address } = await auth.session(await ctx.state.session.id());
    if (!address) throw new AppError(ErrorCode.signInRequired, 'Sign in with your wallet to get updates about its orders.');
    return address.toLowerCase();
  };
  const on = () => {
    if (!publicKey) throw new AppError(ErrorCode.notificationsOff, 'This shop does not send order updates.');
  };
  const SUBSCRIPTION_HINT = 'Send the JSON of the browser’s PushSubscription: { endpoint, keys: { p256dh, auth } }.';

  router.get('/api/notifications/key', (ctx) => {
    ctx.set('Cache-Control', 'no-cache');
    const body: PushKeyAnswer = { publicKey };
    ctx.body = body;
  });

  router.get('/api/notifications/subscription', async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    const wallet = await signedIn(ctx);
    const { endpoint } = parse(
      pushEndpointBodySchema,
      { endpoint: ctx.query.endpoint },
      ErrorCode.badRequest,
      'Give ?endpoint=<the browser’s push endpoint>.',
    );
    const body: PushSubscriptionStatus = { subscribed: await subscriptions.isSubscribed(wallet, endpoint) };
    ctx.body = body;
  });

  router.put('/api/notifications/subscription', async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    const wallet = await signedIn(ctx);
    on();
    const sub = parse(pushSubscriptionSchema, ctx.request.body, ErrorCode.invalidPushSubscription, SUBSCRIPTION_HINT);
    await subscriptions.subscribe(wallet, sub);
    const body: PushSubscriptionStatus = { subscribed: true };
    ctx.body = body;
  });

  router.delete('/api/notifications/subscription', async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    const wallet = await signedIn(ctx);
    const { endpoint } = parse(pushEndpointBodySchema, ctx.request.body, ErrorCode.invalidPushSubscription, 'Send { endpoint }.');
    await subscriptions.unsubscribe(wallet, endpoint);
    const body: PushSubscriptionStatus = { subscribed: false };
    ctx.body = body;
  });

  return router;
}
