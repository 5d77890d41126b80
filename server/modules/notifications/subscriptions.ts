/**
 * The browsers each signed-in wallet asked to hear its order news on (`push_subscriptions`): a few
 * per wallet at most (the oldest dropped), each endpoint one wallet's. A subscription is made,
 * read and removed only by its wallet's signed-in session (routes.ts); the sender (sender.ts)
 * reads them by wallet and keeps their delivery bookkeeping.
 */
import { ECDH } from 'node:crypto';
import type { PushSubscriptionJson } from '../../../common/api';
import { ErrorCode } from '../../../common/errors';
import type { Db } from '../../db';
import { AppError } from '../../lib/errors';
import { outboundUrlProblem, type Resolve } from '../../lib/outbound-http';

/** The most subscriptions (browsers, devices) one wallet keeps: a new one past it drops the oldest. */
export const MAX_SUBSCRIPTIONS_PER_WALLET = 10;

/** Whether `p256dh` (base64url) is a point of P-256: messages can be encrypted to it. */
function onCurve(p256dh: string): boolean {
  try {
    ECDH.convertKey(Buffer.from(p256dh, 'base64url'), 'prime256v1');
    return true;
  } catch {
    return false;
  }
}

export interface SubscriptionRow {
  id: number;
  wallet: string;
  endpoint: string;
  p256dh: string;
  auth: string;
  failures: number;
}

export class PushSubscriptions {
  constructor(
    private readonly db: Db,
    private readonly opts: {
      /** Local mode: loopback endpoints (and plain http to them) are allowed. */
      local: boolean;
      resolve?: Resolve;
      now?: () => Date;
    },
  ) {}

  private now() {
    return this.opts.now?.() ?? new Date();
  }

  /** The endpoint may be called: its URL, then every address its host has now (checked again at each send). */
  private async checkEndpoint(endpoint: string): Promise<void> {
    const problem = await outboundUrlProblem(endpoint, { local: this.opts.local, what: 'push endpoint', resolve: this.opts.resolve });
    if (problem)
      throw new AppError(
        ErrorCode.pushEndpointRefused,
        problem.endsWith('could not be found.') ? `${problem} Turn updates on again later.` : problem,
      );
  }

  /**
   * Subscribes `wallet`'s browser (or renews its keys). 409 when the endpoint is another wallet's:
   * the browser subscribes again with a new endpoint.
   */
  async subscribe(wallet: string, sub: { endpoint: string; keys: PushSubscriptionJson['keys'] }): Promise<void> {
    if (!onCurve(sub.keys.p256dh))
      throw new AppError(
        ErrorCode.invalidPushSubscription,
        'keys.p256dh is not a P-256 public key. Send the browser’s PushSubscription as it is.',
      );
    await this.checkEndpoint(sub.endpoint);
    const now = this.now();
    const kept = await this.db.transaction(async (trx) => {
      const rows: Array<{ id: number }> = await trx('push_subscriptions')
        .insert({ wallet, endpoint: sub.endpoint, p256dh: sub.keys.p256dh, auth: sub.keys.auth, created_at: now })
        .onConflict('endpoint')
        .merge({ p256dh: sub.keys.p256dh, auth: sub.keys.auth, failures: 0, last_error: null })
        .where('push_subscriptions.wallet', wallet)
        .returning('id');
      if (rows.length === 0) return false;
      // Bounded: the wallet's newest few, the rest dropped.
      const keep = trx('push_subscriptions')
        .select('id')
        .where({ wallet })
        .orderBy([
          { column: 'created_at', order: 'desc' },
          { column: 'id', order: 'desc' },
        ])
        .limit(MAX_SUBSCRIPTIONS_PER_WALLET);
      await trx('push_subscriptions').where({ wallet }).whereNotIn('id', keep).delete();
      return true;
    });
    if (!kept)
      throw new AppError(
        ErrorCode.pushSubscriptionTaken,
        'This browser’s push subscription gets another wallet’s updates. Turn updates off and on again to subscribe it for this wallet.',
      );
  }

  /** Removes `wallet`'s subscription of `endpoint`; 404 when it has none (another wallet's is never touched). */
  async unsubscribe(wallet: string, endpoint: string): Promise<void> {
    const removed = await this.db('push_subscriptions').where({ wallet, endpoint }).delete();
    if (removed === 0)
      throw new AppError(ErrorCode.pushSubscriptionNotFound, 'This browser does not get order updates for the signed-in wallet.');
  }

  /** Whether `endpoint` gets `wallet`'s order news. */
  async isSubscribed(wallet: string, endpoint: string): Promise<boolean> {
    return Boolean(await this.db('push_subscriptions').where({ wallet, endpoint }).first('id'));
  }

  /** The wallet's subscriptions that job `jobId` has not reached yet. */
  async pendingFor(wallet: string, jobId: number): Promise<SubscriptionRow[]> {
    return this.db('push_subscriptions as s')
      .where('s.wallet', wallet)
      .whereNotExists((q) =>
        q.select(this.db.raw('1')).from('push_deliveries as d').where('d.job_id', jobId).whereRaw('d.subscription_id = s.id'),
      )
      .orderBy('s.id')
      .limit(MAX_SUBSCRIPTIONS_PER_WALLET)
      .select('s.id', 's.wallet', 's.endpoint', 's.p256dh', 's.auth', 's.failures');
  }

  /** The push service took job `jobId`'s message for `id`: its failures start again from zero. */
  async delivered(id: number, jobId: number, now: Date): Promise<void> {
    await this.db.transaction(async (trx) => {
      await trx('push_subscriptions').where({ id }).update({ last_success_at: now, failures: 0, last_error: null });
      await trx('push_deliveries').insert({ job_id: jobId, subscription_id: id }).onConflict(['job_id', 'subscription_id']).ignore();
    });
  }

  /** One more failure of `id`; dropped once it reached `maxFailures`. Answers whether it was dropped. */
  async failed(id: number, error: string, now: Date, maxFailures: number): Promise<boolean> {
    const rows: Array<{ failures: number }> = await this.db('push_subscriptions')
      .where({ id })
      .update({ failures: this.db.raw('failures + 1'), last_failure_at: now, last_error: error.slice(0, 500) })
      .returning('failures');
    if (rows[0] && rows[0].failures >= maxFailures) {
      await this.drop(id);
      return true;
    }
    return false;
  }

  /** The push service says the subscription is gone (404, 410), or it failed too often. */
  async drop(id: number): Promise<void> {
    await this.db('push_subscriptions').where({ id }).delete();
  }

  /** Job `jobId` is done: its delivery marks are no longer needed. */
  async forgetJob(jobId: number): Promise<void> {
    await this.db('push_deliveries').where({ job_id: jobId }).delete();
  }
}
