/**
 * Checkout intents (docs/payments.md §1): the session's cart turned into an exact, uniquely
 * identifiable amount at a price held until it expires. Every number is re-read from the
 * database here; nothing the browser says about prices is used. Opening a checkout holds no
 * stock: stock is claimed when money is on its way (settlement.ts), so unpaid checkouts never
 * lock a paying shopper out.
 */
import { createHmac, randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { UUID_RE, type Checkout, type CheckoutStatus } from '../../../common/api';
import { ErrorCode } from '../../../common/errors';
import { formatUnits, parseUnits } from '../../../common/money';
import type { Db } from '../../db';
import { AppError } from '../../lib/errors';
import { clientIpKey } from '../../lib/rate-limit';
import { ServerSecret } from '../../lib/server-secret';
import { lockSession } from '../session';
import { orderIdOfCheckout } from '../orders';
import type { StockService } from '../stock';
import { issueAmount, paymentUri, randomSuffix, releaseAmounts, roundUpToCent } from './amount';
import { amountAskedWei, receivedWei } from './checkout-received';
import { readCartLines, sameLines, type CartLine } from './checkout-lines';
import { PAYABLE, type IntentItemRow, type IntentRow } from './checkout-record';
import { isClientsOwn } from '../../lib/client-address';

export interface PaymentTarget {
  chainId: number;
  tokenAddress: string;
  storeWallet: string;
}

export interface CheckoutOptions {
  /** What payments on their way hold (a new checkout's lines are judged with it). */
  stock: StockService;
  ttlMs: number;
  latePaymentMs: number;
  now?: () => Date;
  /** Unpaid checkouts one browser session may have payable at once (default 5). */
  maxPayablePerSession?: number;
  /** Where amount suffixes come from (tests force collisions with it). */
  suffix?: () => bigint;
}

/** Where a checkout is opened from: the client's address as the app trusts it (ctx.ip, TRUSTED_PROXY_HOPS). */
export interface CheckoutSource {
  ip: string;
}

/** A checkout reused for a repeated request (double tap, dialog reopened) needs this long left. */
const REUSE_MIN_REMAINING_MS = 5 * 60_000;
const DEFAULT_MAX_PAYABLE = 5;

export class CheckoutService {
  private readonly now: () => Date;
  private readonly suffix: () => bigint;
  private readonly maxPayable: number;
  private readonly secret: ServerSecret;

  constructor(
    private readonly db: Db,
    private readonly target: PaymentTarget,
    private readonly options: CheckoutOptions,
  ) {
    this.now = options.now ?? (() => new Date());
    this.suffix = options.suffix ?? randomSuffix;
    this.maxPayable = options.maxPayablePerSession ?? DEFAULT_MAX_PAYABLE;
    this.secret = new ServerSecret(db);
  }

  /**
   * Opens a checkout for the session's cart. `from` is kept as a keyed hash of its IP (an IPv6
   * client's /64), never the address: the payments desk counts the checkouts of one source once
   * among a transfer's candidates.
   */
  async create(sessionId: string | null, customerWallet: string | null, from?: CheckoutSource): Promise<Checkout> {
    if (!sessionId) throw cartEmpty();
    const wallet = customerWallet?.toLowerCase() ?? null;
    // Read before the transaction: on PGlite the one connection is then the transaction's.
    const sourceKey = from ? await this.sourceKey(from.ip) : null;
    const id = await this.db.transaction(async (trx) => {
      // Serialises with this shopper's cart changes and other checkouts. No variant is locked
      // here: opening a checkout decides nothing about stock.
      await lockSession(trx, sessionId);
      const lines = await readCartLines(trx, sessionId);
      if (lines.length === 0) throw cartEmpty();
      const now = this.now();

      const reusable = await this.reusable(trx, sessionId, wallet, lines, now);
      if (reusable) return reusable;

      // A new checkout replaces the session's open ones: their price hold ends, but they stay
      // payable until match_until (someone may be paying one from another device). One whose
      // wallet already reported a transaction stays open: that payment is on its way.
      await trx('checkout_intents')
        .where({ session_id: sessionId, status: 'open' })
        .whereNull('tx_hash_hint')
        .update({ status: 'expired', expires_at: trx.raw('least(expires_at, ?)', [now]), updated_at: now });

      const problems = await this.options.stock.lineProblems(trx, now, lines, (line) => line);
      if (problems.length) {
        throw new AppError(
          ErrorCode.cartItemUnavailable,
          `Some items cannot be bought as they are. ${problems.join('. ')}. Update your cart and try again.`,
        );
      }
      const totalWei = lines.reduce((sum, l) => sum + parseUnits(l.pog_price!) * BigInt(l.quantity), 0n);
      if (totalWei === 0n) throw cartEmpty();
      await this.makeRoom(trx, sessionId, now);

      const intentId = randomUUID();
      await trx('checkout_intents').insert({
        id: intentId,
        session_id: sessionId,
        customer_wallet: wallet,
        chain_id: this.target.chainId,
        token_address: this.target.tokenAddress.toLowerCase(),
        store_wallet: this.target.storeWallet.toLowerCase(),
        total_wei: totalWei.toString(),
        source_key: sourceKey,
        // Replaced by the issued amount below (the amount row needs the checkout to exist).
        amount_wei: totalWei.toString(),
        status: 'open',
        expires_at: new Date(now.getTime() + this.options.ttlMs),
        match_until: new Date(now.getTime() + this.options.ttlMs + this.options.latePaymentMs),
        created_at: now,
        updated_at: now,
      });
      const amountWei = await issueAmount(
        trx,
        { intentId, chainId: this.target.chainId, baseWei: totalWei, purpose: 'full', now },
        this.suffix,
      );
      await trx('checkout_intents').where({ id: intentId }).update({ amount_wei: amountWei.toString() });
      await trx('checkout_intent_items').insert(
        lines.map((l) => ({
          intent_id: intentId,
          variant_id: l.variant_id,
          product_id: l.product_id,
          title: l.title,
          unit_price: l.pog_price,
          quantity: l.quantity,
        })),
      );
      return intentId;
    });
    return (await this.get(sessionId, id))!;
  }

  /**
   * The checkout a repeated request gets back: the newest open one for the same cart and wallet
   * with time to spare, or a partly paid one for the same cart (whatever its wallet or price hold:
   * the money already sent belongs to it).
   */
  private async reusable(
    trx: Knex.Transaction,
    sessionId: string,
    wallet: string | null,
    lines: CartLine[],
    now: Date,
  ): Promise<string | null> {
    const candidates: IntentRow[] = await trx('checkout_intents')
      .where({ session_id: sessionId })
      .where((q) =>
        q
          .where((o) =>
            o.where({ status: 'open', customer_wallet: wallet }).where('expires_at', '>', new Date(now.getTime() + REUSE_MIN_REMAINING_MS)),
          )
          .orWhere((u) => u.where({ status: 'underpaid' }).where('match_until', '>', now)),
      )
      .orderByRaw("case when status = 'underpaid' then 0 else 1 end")
      .orderBy('created_at', 'desc')
      .limit(4);
    for (const candidate of candidates) {
      const items: IntentItemRow[] = await trx('checkout_intent_items').where({ intent_id: candidate.id });
      // A partly paid checkout keeps the prices it was made at.
      if (sameLines(items, lines, candidate.status !== 'underpaid')) return candidate.id;
    }
    return null;
  }

  /**
   * Bounds what one browser session holds of the amount space: at most `maxPayable` unpaid
   * checkouts stay payable. Beyond that the oldest ones nobody reported a payment for are closed
   * and their amounts freed; when every one of them has a payment on its way, the answer is 429.
   */
  private async makeRoom(trx: Knex.Transaction, sessionId: string, now: Date): Promise<void> {
    const payable: Array<Pick<IntentRow, 'id' | 'status' | 'tx_hash_hint'>> = await trx('checkout_intents')
      .where({ session_id: sessionId })
      .whereIn('status', PAYABLE)
      .where('match_until', '>', now)
      .orderBy('created_at', 'asc')
      .select('id', 'status', 'tx_hash_hint');
    let excess = payable.length - (this.maxPayable - 1);
    if (excess <= 0) return;
    const closable = payable.filter((c) => c.status !== 'underpaid' && !c.tx_hash_hint).slice(0, excess);
    if (closable.length) {
      const ids = closable.map((c) => c.id);
      await trx('checkout_intents').whereIn('id', ids).update({ status: 'closed', updated_at: now });
      await releaseAmounts(trx, ids, now);
      excess -= closable.length;
    }
    if (excess > 0) {
      throw new AppError(
        ErrorCode.tooManyCheckouts,
        'You have several payments on their way already. Wait for them to arrive (see your orders), then try again.',
      );
    }
  }

  /** The checkout, for the session that made it only. */
  async get(sessionId: string | null, id: string): Promise<Checkout | null> {
    const row = await this.own(sessionId, id);
    return row ? this.toApi(row) : null;
  }

  /** The session's own checkout row, or undefined (never another session's). */
  async own(sessionId: string | null, id: string): Promise<IntentRow | undefined> {
    if (!sessionId || !UUID_RE.test(id)) return undefined;
    return this.db('checkout_intents').where({ id, session_id: sessionId }).first();
  }

  /** Whether this session has made any checkout at all (nothing to pay, nothing to look up). */
  async sessionHasCheckouts(sessionId: string | null): Promise<boolean> {
    if (!sessionId) return false;
    return Boolean(await this.db('checkout_intents').where({ session_id: sessionId }).first('id'));
  }

  /**
   * Records the hash the shopper's wallet returned: a hint (the chain decides what it paid), and
   * evidence for the payments desk: when this checkout's browser first reported that hash (the
   * payer's browser knows it when its wallet submits; anyone else only once it is on chain).
   */
  async recordTransactionHint(sessionId: string | null, id: string, txHash: string): Promise<IntentRow> {
    const row = await this.own(sessionId, id);
    if (!row) throw checkoutNotFound();
    const hash = txHash.toLowerCase();
    const now = this.now();
    await this.db('checkout_tx_reports')
      .insert({ intent_id: id, tx_hash: hash, reported_at: now })
      .onConflict(['intent_id', 'tx_hash'])
      .ignore();
    if (row.tx_hash_hint !== hash) await this.db('checkout_intents').where({ id }).update({ tx_hash_hint: hash, updated_at: now });
    return { ...row, tx_hash_hint: hash };
  }

  /**
   * A source's key: HMAC of its IP (an IPv6 client's /64) with a key of the server's own. None for
   * an address that is no client's own (this machine, a private network: a proxy not declared in
   * TRUSTED_PROXY_HOPS, or the local demo): it would make every shopper one source.
   */
  private async sourceKey(ip: string): Promise<string | null> {
    if (!isClientsOwn(ip)) return null;
    return createHmac('sha256', await this.secret.key('checkout-source'))
      .update(clientIpKey(ip))
      .digest('base64url');
  }

  /**
   * The sweep (every watcher tick): open checkouts past their time end their price hold; payable
   * ones past match_until close and free their amounts (paid ones free them too: an extra
   * payment is no longer recognised after that); claims whose payment never settled lapse.
   * Returns how many claims lapsed and the variants they held (the product list shows them again).
   */
  async expire(): Promise<{ expired: number; closed: number; claimsLapsed: number; lapsedVariants: string[] }> {
    const now = this.now();
    return this.db.transaction(async (trx) => {
      const expired = await trx('checkout_intents')
        .where({ status: 'open' })
        .where('expires_at', '<=', now)
        .update({ status: 'expired', updated_at: now });
      const ending = trx('checkout_intents')
        .whereIn('status', [...PAYABLE, 'paid'])
        .where('match_until', '<=', now)
        .select('id');
      await releaseAmounts(trx, ending, now);
      const closed = await trx('checkout_intents')
        .whereIn('status', PAYABLE)
        .where('match_until', '<=', now)
        .update({ status: 'closed', updated_at: now });
      const lapsed = (await trx('checkout_intents')
        .whereNot('status', 'paid')
        .where('stock_claimed_until', '<=', now)
        .update({ stock_claimed_until: null, updated_at: now })
        .returning('id')) as Array<{ id: string }>;
      const lapsedVariants = lapsed.length
        ? ((await trx('checkout_intent_items')
            .whereIn(
              'intent_id',
              lapsed.map((r) => r.id),
            )
            .distinct('variant_id')) as Array<{ variant_id: string }>)
        : [];
      return { expired, closed, claimsLapsed: lapsed.length, lapsedVariants: lapsedVariants.map((r) => r.variant_id) };
    });
  }

  async toApi(row: IntentRow): Promise<Checkout> {
    const [items, orderId, amountWei, received] = await Promise.all([
      this.db('checkout_intent_items').where({ intent_id: row.id }).orderBy('id') as Promise<IntentItemRow[]>,
      orderIdOfCheckout(this.db, row.id),
      amountAskedWei(this.db, row),
      receivedWei(this.db, row.id),
    ]);
    const totalWei = BigInt(row.total_wei);
    const status: CheckoutStatus = row.status === 'closed' ? 'expired' : row.status;
    return {
      id: row.id,
      status,
      amount: formatUnits(amountWei, 18, 18),
      amountWei: amountWei.toString(),
      displayTotal: formatUnits(totalWei),
      amountReceived: formatUnits(received, 18, 2),
      amountDue: formatUnits(received >= totalWei || status === 'paid' ? 0n : roundUpToCent(totalWei - received)),
      tokenAddress: row.token_address,
      storeWallet: row.store_wallet,
      chainId: row.chain_id,
      expiresAt: row.expires_at.toISOString(),
      paymentUri: paymentUri(row.token_address, row.chain_id, row.store_wallet, amountWei),
      customerWallet: row.customer_wallet,
      items: items.map((i) => ({
        variantId: i.variant_id,
        title: i.title,
        price: formatUnits(parseUnits(i.unit_price)),
        quantity: i.quantity,
      })),
      orderId,
      transactionHash: row.tx_hash_hint,
    };
  }
}

const cartEmpty = () => new AppError(ErrorCode.cartEmpty, 'Your cart is empty. Add items to your cart before proceeding with payment.');
export const checkoutNotFound = () =>
  new AppError(ErrorCode.checkoutNotFound, 'There is no such checkout in this browser session. Start the payment again from your cart.');
