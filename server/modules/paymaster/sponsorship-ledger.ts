/**
 * The shop's book of sponsorships (`paymaster_sponsorships`) and the rules that bound what a
 * stranger can make the shop pay (docs/payments.md §9):
 *
 * - one sponsorship per checkout amount (one account, one nonce; the same operation asked again is
 *   signed again and keeps its row);
 * - one outstanding sponsorship per account: another waits until the first lands or its window ends;
 * - an account whose sponsored operation reverted, or ran without paying its checkout, is sponsored
 *   no more;
 * - at most `senderDailyLimit` sponsorships per account per UTC day;
 * - a daily budget: what today's sponsorships cost (their real cost once the paymaster's
 *   UserOperationEvent is seen, until then the most they can cost, held while they can still land)
 *   plus the next one's most never goes over `dailyBudgetWei`.
 *
 * A sponsorship is recorded with those checks in one transaction under an advisory lock, so
 * concurrent calls cannot overspend together. Settling a sponsorship from its event is the
 * sponsorship watcher's (sponsorship-watcher.ts).
 */
import type { Knex } from 'knex';
import type { Db } from '../../db';
import { toCount } from '../../db';
import { PaymasterError } from './paymaster-error';

/** What a sponsorship ended as, once its operation ran (or 'pending'). */
export type SponsorshipOutcome = 'pending' | 'paid' | 'reverted' | 'unpaid' | 'unrecorded';
/** Outcomes that cost the shop for nothing: the account is sponsored no more. */
export const WASTED: readonly SponsorshipOutcome[] = ['reverted', 'unpaid'];

/** How long after its window ends a sponsorship's most is still held: its event may not be seen yet. */
export const HOLD_AFTER_WINDOW_MS = 10 * 60_000;
/** Advisory lock key of the budget ("GAS!"), per schema. */
const BUDGET_LOCK = 0x47415321;

export interface SponsorshipRules {
  /** The most the sponsorships of one UTC day may cost, in wei. */
  dailyBudgetWei: bigint;
  /** The most sponsorships one account gets per UTC day. */
  senderDailyLimit: number;
}

/** One sponsorship as the service records it. */
export interface NewSponsorship {
  checkoutId: string;
  amountWei: bigint;
  sender: string;
  nonce: bigint;
  paymaster: string | null;
  validUntil: Date;
  maxCostWei: bigint;
}

/** The row a call recorded (null when an earlier call recorded the same operation, which stands). */
export type RecordedKey = { id: number } | null;

const refuse = (reason: string, message: string) => new PaymasterError(-32001, message, reason);
/** '1 minute', '7 minutes': a wait, rounded up. */
const minutesText = (ms: number) => {
  const minutes = Math.max(1, Math.ceil(ms / 60_000));
  return `${minutes} ${minutes === 1 ? 'minute' : 'minutes'}`;
};
const startOfUtcDay = (now: Date) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));

/** The SQL of what a row costs today: its real cost once known, else its most while it can still land. */
const committedSql = (db: Db | Knex.Transaction, now: Date) =>
  db.raw(
    `coalesce(sum(case when actual_cost_wei is not null then actual_cost_wei
       when outcome = 'pending' and valid_until > ? then max_cost_wei else 0 end), 0)::text as committed`,
    [new Date(now.getTime() - HOLD_AFTER_WINDOW_MS)],
  );

export class SponsorshipLedger {
  constructor(
    private readonly db: Db,
    readonly rules: SponsorshipRules,
  ) {}

  /** What today's sponsorships cost or may still cost, and the budget left. */
  async today(now: Date, q: Db | Knex.Transaction = this.db): Promise<{ committedWei: bigint; leftWei: bigint }> {
    const row: { committed: string } = await q('paymaster_sponsorships')
      .where('created_at', '>=', startOfUtcDay(now))
      .first(committedSql(q, now));
    const committedWei = BigInt(row.committed.split('.')[0]!);
    const left = this.rules.dailyBudgetWei - committedWei;
    return { committedWei, leftWei: left > 0n ? left : 0n };
  }

  /**
   * Why `sender` gets no sponsorship of `maxCostWei` now (the first rule it breaks), or null.
   * `accountNonce`: the account's next EntryPoint nonce (key 0): a sponsorship of a lower nonce has
   * run (or been replaced) and is outstanding no more. `same`: the checkout amount being asked
   * again, whose own row does not count against it.
   */
  async refusal(
    sender: string,
    maxCostWei: bigint,
    now: Date,
    accountNonce: bigint,
    same?: { checkoutId: string; amountWei: bigint },
    q: Db | Knex.Transaction = this.db,
  ): Promise<PaymasterError | null> {
    const ofSender = () => {
      const rows = q('paymaster_sponsorships').where({ sender: sender.toLowerCase() });
      if (same) rows.whereNot((w) => w.where({ checkout_id: same.checkoutId, amount_wei: same.amountWei.toString() }));
      return rows;
    };
    if (await ofSender().whereIn('outcome', WASTED).first('id')) {
      return refuse(
        'sender-refused',
        'A payment the shop sponsored for this account did not pay its order, so the shop no longer pays its network fee: pay the fee from the wallet.',
      );
    }
    const open: { valid_until: Date } | undefined = await ofSender()
      .where({ outcome: 'pending' satisfies SponsorshipOutcome })
      .where('valid_until', '>', now)
      // Nonces are decimal text: compared as numbers.
      .whereRaw('nonce::numeric >= ?', [accountNonce.toString()])
      .first('valid_until');
    if (open) {
      return refuse(
        'sponsorship-pending',
        `This account’s last sponsored payment can still go through for up to ${minutesText(new Date(open.valid_until).getTime() - now.getTime())}: wait for it, or pay the fee from the wallet.`,
      );
    }
    const [{ n }] = (await ofSender().where('created_at', '>=', startOfUtcDay(now)).count({ n: '*' })) as Array<{ n: unknown }>;
    if (toCount(n) >= this.rules.senderDailyLimit) {
      return refuse(
        'sender-limit',
        `The shop pays the network fee of ${this.rules.senderDailyLimit} payments per account a day, and this account has had them: pay the fee from the wallet.`,
      );
    }
    if ((await this.today(now, q)).leftWei < maxCostWei) {
      return refuse(
        'budget-spent',
        'The shop’s budget for network fees is spent for today: pay the fee from the wallet, or try again tomorrow.',
      );
    }
    return null;
  }

  /**
   * Records the sponsorship, once its checks pass, in one transaction under the budget's lock. The
   * same operation asked again keeps its row (its window and most are widened); another account or
   * nonce for the same checkout amount is refused.
   */
  async record(s: NewSponsorship, now: Date): Promise<RecordedKey> {
    // The operation is at the account's next nonce (the service checked it): nothing below it is outstanding.
    return this.db.transaction(async (trx) => {
      await trx.raw('select pg_advisory_xact_lock(hashtext(current_schema()), ?)', [BUDGET_LOCK]);
      const key = { checkout_id: s.checkoutId, amount_wei: s.amountWei.toString() };
      const kept: { id: number; sender: string; nonce: string; max_cost_wei: string; valid_until: Date | null } | undefined = await trx(
        'paymaster_sponsorships',
      )
        .where(key)
        .first('id', 'sender', 'nonce', 'max_cost_wei', 'valid_until');
      if (kept && (kept.sender !== s.sender.toLowerCase() || kept.nonce !== s.nonce.toString())) {
        throw refuse('already-sponsored', 'The shop already sponsored another operation paying this amount of this checkout.');
      }
      const refusal = await this.refusal(
        s.sender,
        kept ? s.maxCostWei - BigInt(kept.max_cost_wei) : s.maxCostWei,
        now,
        s.nonce,
        kept ? { checkoutId: s.checkoutId, amountWei: s.amountWei } : undefined,
        trx,
      );
      if (refusal) throw refusal;
      if (kept) {
        await trx('paymaster_sponsorships')
          .where({ id: kept.id })
          .update({
            max_cost_wei: (s.maxCostWei > BigInt(kept.max_cost_wei) ? s.maxCostWei : BigInt(kept.max_cost_wei)).toString(),
            valid_until: kept.valid_until && kept.valid_until > s.validUntil ? kept.valid_until : s.validUntil,
          });
        return null;
      }
      const [row] = await trx('paymaster_sponsorships')
        .insert({
          ...key,
          sender: s.sender.toLowerCase(),
          nonce: s.nonce.toString(),
          paymaster: s.paymaster?.toLowerCase() ?? null,
          valid_until: s.validUntil,
          max_cost_wei: s.maxCostWei.toString(),
          outcome: 'pending' satisfies SponsorshipOutcome,
          created_at: now,
        })
        .returning('id');
      return { id: (row as { id: number }).id };
    });
  }

  /** Takes back what record() just wrote (the sponsor did not sponsor it). */
  async unrecord(key: NonNullable<RecordedKey>): Promise<void> {
    await this.db('paymaster_sponsorships').where({ id: key.id, outcome: 'pending' }).delete();
  }

  /** Names the paymaster a hosted sponsor answered with, so the watcher can find its event. */
  async setPaymaster(key: NonNullable<RecordedKey>, paymaster: string): Promise<void> {
    await this.db('paymaster_sponsorships').where({ id: key.id }).update({ paymaster: paymaster.toLowerCase() });
  }
}
