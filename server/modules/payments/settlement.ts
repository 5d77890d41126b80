/**
 * One transfer is judged once and pays at most one checkout (docs/payments.md §2–§4). Every road
 * leads here: a shopper's POST /api/orders/create, anyone's, and the chain watcher. The judgment
 * depends only on the chain and the database, never on who asks:
 *
 * - the exact amount identifies the checkout (its full amount, or a remainder issued after an
 *   underpayment);
 * - failing that, the sender identifies it only when the checkout's session proved that wallet
 *   by a signature (Sign-In with Ethereum) and exactly one payable checkout is theirs;
 * - otherwise the transfer is kept as unmatched, with its sender, for the admin, who may attach
 *   it to the checkout it evidently belongs to (`attach`): judged here like any payment.
 *
 * A checkout is paid when what it received covers its total; less leaves it underpaid with a new
 * exact amount for the remainder. The order, its items, the stock it takes, the transfers that
 * paid it and the Shopify hand-off job are written in one transaction (the order's part by the
 * orders module's `createOrder`, given this transaction), keyed by
 * (chain id, tx hash, log index): however often and however concurrently a transfer is
 * presented, it is recorded once and counted once.
 */
import type { Knex } from 'knex';
import { shortenAddress } from '../../../common/shorten-address';
import type { Db } from '../../db';
import type { Logger } from '../../lib/logger';
import { payments } from '../../lib/metrics';
import { bumpCatalogueVersion } from '../catalogue';
import { createOrder, lockOrder, restoreReorgedOrder } from '../orders';
import { anyLimited } from '../../../common/availability';
import { ErrorCode } from '../../../common/errors';
import { AppError } from '../../lib/errors';
import { lockIntentLines, shortLine } from '../stock';
import { issueAmount, OVERPAID_THRESHOLD_WEI, randomSuffix, roundUpToCent } from './amount';
import { PAYABLE, receivedWei, transferSum, type IntentRow } from './checkout-service';
import type { StoreTransfer } from './verify';

/** What a transfer did; `sessionId` is the session of the checkout it was for. */
export type Settlement =
  | {
      kind: 'order';
      orderId: string;
      intentId: string;
      sessionId: string | null;
      created: boolean;
      /** Only when created: it received more than its total (an excess to refund). */
      overpaid?: boolean;
      /** Only when created: paid after its checkout had expired (or after a partial payment). */
      late?: boolean;
    }
  /** Counted towards the checkout, which still needs `dueWei`. */
  | { kind: 'underpaid'; intentId: string; sessionId: string | null; receivedWei: bigint; dueWei: bigint }
  /** The checkout was already paid by another transfer: kept for a refund. */
  | { kind: 'duplicate'; intentId: string; sessionId: string | null }
  /** Identifies no payable checkout: kept for the admin. */
  | { kind: 'unmatched' };

/** `refunded`: made no order, and money went back (refunds.ts): it never counts towards a checkout again. */
type TransferStatus = 'matched' | 'unmatched' | 'underpaid' | 'review' | 'removed' | 'refunded';

interface TransferRow {
  id: number;
  status: TransferStatus;
  intent_id: string | null;
  order_id: string | null;
}

/** A recorded transfer, as chain_transfers keeps it. */
interface StoredTransferRow extends TransferRow {
  chain_id: number;
  tx_hash: string;
  log_index: number;
  block_number: string | number;
  block_hash: string;
  token_address: string;
  from_address: string;
  to_address: string;
  value_wei: string;
  note: string | null;
  created_at: Date;
  refund_hold_until: Date | null;
}

/** The admin prepared a refund of it that may be on its way: it must not pay for anything meanwhile. */
const onRefundHold = (row: Pick<StoredTransferRow, 'refund_hold_until'>, now: Date) =>
  row.refund_hold_until !== null && new Date(row.refund_hold_until) > now;

/** How a transfer identifies a checkout (or the admin says it belongs to one). */
interface Match {
  intent: IntentRow;
  by: 'amount' | 'proven-sender' | 'admin';
}

/** The first part of the note of a transfer an admin attached to a checkout. */
const ATTACHED = 'attached by the admin';

/** Who presented a transfer: the shopper's browser, the chain watcher, the admin attaching it, a sign-in adopting it. */
export type SettledVia = 'shopper' | 'watcher' | 'admin' | 'sign-in';

export interface SettlementOptions {
  now?: () => Date;
  /** Every transfer judged (each once) and every order made is logged, with its ids. */
  logger?: Logger;
  /** How long a claim holds stock for a payment seen on chain before it is settled. */
  claimMs?: number;
  /** How long a checkout stays payable after a partial payment. */
  latePaymentMs?: number;
  suffix?: () => bigint;
}

const DEFAULT_CLAIM_MS = 15 * 60_000;

export class SettlementService {
  private readonly now: () => Date;
  private readonly claimMs: number;
  private readonly latePaymentMs: number;
  private readonly suffix: () => bigint;
  private readonly logger: Logger | undefined;

  constructor(
    private readonly db: Db,
    options: SettlementOptions = {},
  ) {
    this.now = options.now ?? (() => new Date());
    this.claimMs = options.claimMs ?? DEFAULT_CLAIM_MS;
    this.latePaymentMs = options.latePaymentMs ?? 24 * 3_600_000;
    this.suffix = options.suffix ?? randomSuffix;
    this.logger = options.logger;
  }

  /** Records `transfer` (once) and applies it to the checkout it identifies. */
  async settle(transfer: StoreTransfer, via: SettledVia = 'shopper'): Promise<Settlement> {
    let judgedNow = false;
    const result = await this.db.transaction(async (trx) => {
      judgedNow = false;
      const now = this.now();
      const inserted = await trx('chain_transfers')
        .insert({
          chain_id: transfer.chainId,
          tx_hash: transfer.txHash,
          log_index: transfer.logIndex,
          block_number: transfer.blockNumber,
          block_hash: transfer.blockHash,
          token_address: transfer.token,
          from_address: transfer.from,
          to_address: transfer.to,
          value_wei: transfer.value.toString(),
          status: 'unmatched',
          created_at: now,
          updated_at: now,
        })
        .onConflict(['chain_id', 'tx_hash', 'log_index'])
        .ignore()
        .returning('id');
      const row: TransferRow = await trx('chain_transfers')
        .where({ chain_id: transfer.chainId, tx_hash: transfer.txHash, log_index: transfer.logIndex })
        .forUpdate()
        .first('id', 'status', 'intent_id', 'order_id');
      if (inserted.length === 0) {
        const known = await this.judged(trx, row, transfer, now);
        if (known) return known;
      }
      judgedNow = true;
      return this.judge(trx, row, transfer, now, now);
    });
    if (judgedNow) this.report(result, transfer, via);
    return result;
  }

  /**
   * One log line and the payments counter for a transfer just judged (after its transaction
   * committed), and one more line when it made an order: whatever road led here.
   */
  private report(result: Settlement, transfer: Pick<StoreTransfer, 'txHash' | 'logIndex' | 'from' | 'value'>, via: SettledVia): void {
    const outcomes =
      result.kind === 'order' ? ['paid', ...(result.overpaid ? ['overpaid'] : []), ...(result.late ? ['late'] : [])] : [result.kind];
    for (const outcome of outcomes) payments.inc({ outcome });
    const facts = {
      outcome: outcomes.join('+'),
      via,
      txHash: transfer.txHash,
      logIndex: transfer.logIndex,
      from: shortenAddress(transfer.from),
      valueWei: transfer.value.toString(),
      ...('intentId' in result ? { checkoutId: result.intentId } : {}),
    };
    this.logger?.info(facts, 'payment settled');
    if (result.kind === 'order' && result.created) {
      this.logger?.info({ orderId: result.orderId, checkoutId: result.intentId, txHash: transfer.txHash, via }, 'order created');
    }
  }

  /**
   * A session just proved `wallet` (Sign-In with Ethereum): transfers from that wallet that were
   * kept as unmatched since this session's oldest payable checkout was opened are judged again,
   * now that the sender is proven ("I sent the wrong amount" finds its checkout).
   */
  async adoptUnmatched(sessionId: string, wallet: string): Promise<Settlement[]> {
    const now = this.now();
    const oldest = await this.db('checkout_intents')
      .where({ session_id: sessionId })
      .whereIn('status', PAYABLE)
      .where('match_until', '>', now)
      .min({ t: 'created_at' })
      .first();
    if (!oldest?.t) return [];
    const candidates: Array<{ id: number }> = await this.db('chain_transfers')
      .where({ status: 'unmatched', from_address: wallet.toLowerCase() })
      .where((q) => q.whereNull('refund_hold_until').orWhere('refund_hold_until', '<=', now))
      .where('created_at', '>=', oldest.t)
      .orderBy('id')
      .select('id');
    const results: Settlement[] = [];
    for (const { id } of candidates) {
      const judged = await this.db.transaction(async (trx) => {
        const row: StoredTransferRow = await trx('chain_transfers').where({ id }).forUpdate().first();
        if (row.status !== 'unmatched' || onRefundHold(row, now)) return null;
        const transfer = storedTransfer(row);
        return { result: await this.judge(trx, row, transfer, now, row.created_at), transfer };
      });
      if (judged) {
        this.report(judged.result, judged.transfer, 'sign-in');
        results.push(judged.result);
      }
    }
    return results;
  }

  /**
   * The admin attaches an unmatched transfer to the checkout it evidently belongs to (the payments
   * desk): it is judged like any payment, with that checkout as its match, so the order, the
   * stock, the cart and the late flag follow a payment's rules (an order when what the checkout
   * received now covers its total, else underpaid with a remainder). The transfer and the
   * checkout are locked, so two admins at once (or the watcher) make at most one order. Attaching
   * it again to the same checkout answers what the first call did (`attached: false`); `onAttached`
   * runs in the transaction only when this call attached it (the admin's audit entry).
   * Null when there is no transfer with that id.
   */
  async attach(
    transferId: number,
    intentId: string,
    onAttached?: (trx: Knex.Transaction, result: Settlement) => Promise<void>,
  ): Promise<{ settlement: Settlement; attached: boolean } | null> {
    return this.db
      .transaction(async (trx) => {
        const now = this.now();
        const row: StoredTransferRow | undefined = await trx('chain_transfers').where({ id: transferId }).forUpdate().first();
        if (!row) return null;
        const intent: IntentRow | undefined = await trx('checkout_intents').where({ id: intentId }).forUpdate().first();
        if (!intent)
          throw new AppError(ErrorCode.checkoutNotFound, `There is no checkout ${intentId}. Pick one of the transfer’s candidates.`);
        const transfer = storedTransfer(row);
        if (row.status !== 'unmatched') {
          const again = row.intent_id === intentId && row.note?.startsWith(ATTACHED) && ['matched', 'underpaid'].includes(row.status);
          const known = again ? await this.judged(trx, row, transfer, now) : null;
          if (known) return { settlement: known, attached: false, transfer };
          throw notAttachable(row);
        }
        if (onRefundHold(row, now)) {
          throw new AppError(
            ErrorCode.transferNotAttachable,
            `Transfer ${row.id} cannot be attached: a refund of it was prepared and may be on its way back to the sender (until ${new Date(row.refund_hold_until!).toISOString()}). Record that refund, or attach it after then.`,
          );
        }
        const refuse = (why: string) => new AppError(ErrorCode.checkoutNotAttachable, `Checkout ${intent.id} ${why}.`);
        if (intent.status === 'paid') throw refuse('is already paid: this transfer would only be an excess (refund it instead)');
        if (intent.chain_id !== row.chain_id || intent.token_address !== row.token_address || intent.store_wallet !== row.to_address)
          throw refuse('was for another chain, token or store wallet than this transfer');
        if (new Date(intent.created_at).getTime() > new Date(row.created_at).getTime())
          throw refuse('was opened after this transfer was seen, so the transfer cannot have been for it');
        const settlement = await this.judge(trx, row, transfer, now, row.created_at, { intent, by: 'admin' });
        await onAttached?.(trx, settlement);
        return { settlement, attached: true, transfer };
      })
      .then((done) => {
        if (done?.attached) this.report(done.settlement, done.transfer, 'admin');
        return done && { settlement: done.settlement, attached: done.attached };
      });
  }

  /**
   * Claims the stock of the checkout `transfer` pays, when that transfer is on chain but not yet
   * settled (not deep enough): the first payment seen wins the last units. Nothing is recorded
   * about the transfer itself; settlement judges it when it is deep enough.
   */
  async claim(transfer: StoreTransfer): Promise<boolean> {
    return this.db.transaction(async (trx) => {
      const now = this.now();
      const done = await trx('chain_transfers')
        .where({ chain_id: transfer.chainId, tx_hash: transfer.txHash, log_index: transfer.logIndex })
        .first('id');
      if (done) return false;
      const match = await this.match(trx, transfer, now, now);
      if (!match || match.intent.status === 'paid') return false;
      const { intent } = match;
      if (intent.stock_claimed_until && intent.stock_claimed_until > now) return false;
      if ((await receivedWei(trx, intent.id)) + transfer.value < BigInt(intent.total_wei)) return false;
      const lines = await lockIntentLines(trx, intent.id);
      // Nothing to claim where no limit is known.
      if (!anyLimited(lines)) return false;
      if (await shortLine(trx, intent.id, lines, now)) return false;
      await trx('checkout_intents')
        .where({ id: intent.id })
        .update({ stock_claimed_until: new Date(now.getTime() + this.claimMs), updated_at: now });
      await bumpCatalogueVersion(trx);
      return true;
    });
  }

  /** A transfer judged before: the same answer again (a removed one comes back, see below). */
  private async judged(trx: Knex.Transaction, row: TransferRow, transfer: StoreTransfer, now: Date): Promise<Settlement | null> {
    const intent: Pick<IntentRow, 'id' | 'session_id' | 'total_wei'> | undefined = row.intent_id
      ? await trx('checkout_intents').where({ id: row.intent_id }).first('id', 'session_id', 'total_wei')
      : undefined;
    switch (row.status) {
      case 'matched':
        return { kind: 'order', orderId: row.order_id!, intentId: intent!.id, sessionId: intent!.session_id, created: false };
      case 'underpaid': {
        const received = await receivedWei(trx, intent!.id);
        return {
          kind: 'underpaid',
          intentId: intent!.id,
          sessionId: intent!.session_id,
          receivedWei: received,
          dueWei: BigInt(intent!.total_wei) - received,
        };
      }
      case 'review':
        return intent ? { kind: 'duplicate', intentId: intent.id, sessionId: intent.session_id } : { kind: 'unmatched' };
      case 'unmatched':
        // Judged once: a checkout opened after a transfer was mined cannot be what it paid for.
        return { kind: 'unmatched' };
      case 'refunded':
        // The store sent money back for it: it pays nothing, whoever presents it again.
        return { kind: 'unmatched' };
      case 'removed':
        if (!row.order_id) return null; // back on chain after a reorganisation: judged afresh
        return this.restore(trx, row, transfer, now);
    }
  }

  /** A transfer of an order, undone by a reorganisation, is on chain again: the order is back. */
  private async restore(trx: Knex.Transaction, row: TransferRow, transfer: StoreTransfer, now: Date): Promise<Settlement> {
    await trx('chain_transfers')
      .where({ id: row.id })
      .update({ status: 'matched', note: null, block_number: transfer.blockNumber, block_hash: transfer.blockHash, updated_at: now });
    const order = await lockOrder(trx, row.order_id!);
    if ((await paidTowardsOrder(trx, order.id)) >= BigInt(order.total_wei)) await restoreReorgedOrder(trx, order, now);
    return { kind: 'order', orderId: order.id, intentId: order.intent_id, sessionId: order.session_id, created: false };
  }

  /**
   * `seenAt`: when the transfer was first recorded (a checkout opened after it cannot be what it
   * paid). `given`: the checkout it is for, locked (the admin's attach); otherwise it is looked up.
   */
  private async judge(
    trx: Knex.Transaction,
    row: TransferRow,
    transfer: StoreTransfer,
    now: Date,
    seenAt: Date,
    given?: Match,
  ): Promise<Settlement> {
    const mark = (status: TransferStatus, intentId: string | null, note: string | null, orderId: string | null = null) =>
      trx('chain_transfers').where({ id: row.id }).update({
        status,
        intent_id: intentId,
        order_id: orderId,
        note,
        block_number: transfer.blockNumber,
        block_hash: transfer.blockHash,
        updated_at: now,
      });

    const match = given ?? (await this.match(trx, transfer, now, seenAt));
    if (!match) {
      await mark('unmatched', null, 'no payable checkout has this exact amount, and the sender is no proven wallet of one');
      return { kind: 'unmatched' };
    }
    const { intent, by } = match;
    const how = { amount: null, 'proven-sender': 'matched by the proven sender (not the exact amount)', admin: ATTACHED }[by];
    if (intent.status === 'paid') {
      await mark('review', intent.id, 'a further payment for an already paid checkout (refund it)');
      return { kind: 'duplicate', intentId: intent.id, sessionId: intent.session_id };
    }

    const totalWei = BigInt(intent.total_wei);
    const received = (await receivedWei(trx, intent.id)) + transfer.value;
    if (received < totalWei) {
      const dueWei = totalWei - received;
      await mark('underpaid', intent.id, [how, `received ${received} of ${totalWei} wei`].filter(Boolean).join('; '));
      const matchUntil = new Date(Math.max(intent.match_until.getTime(), now.getTime() + this.latePaymentMs));
      await trx('checkout_intents').where({ id: intent.id }).update({ status: 'underpaid', match_until: matchUntil, updated_at: now });
      // The remainder gets its own exact amount (the due rounded up to the cent, plus a suffix), so
      // the watcher alone can finish the order.
      await issueAmount(
        trx,
        { intentId: intent.id, chainId: intent.chain_id, baseWei: roundUpToCent(dueWei), purpose: 'remainder', now },
        this.suffix,
      );
      return { kind: 'underpaid', intentId: intent.id, sessionId: intent.session_id, receivedWei: received, dueWei };
    }

    // Paid in full. The stock is the checkout's if it claimed it when its payment was on the way;
    // otherwise it takes what is left now, and when that is not enough the order is kept for the
    // admin (refund or restock) rather than sold twice.
    const lines = await lockIntentLines(trx, intent.id);
    const claimed = intent.stock_claimed_until != null && intent.stock_claimed_until > now;
    const short = claimed ? null : await shortLine(trx, intent.id, lines, now);
    const late = intent.status !== 'open' || intent.expires_at <= now;
    const excess = received - totalWei;
    const orderId = await createOrder(
      trx,
      {
        intentId: intent.id,
        sessionId: intent.session_id,
        totalWei: intent.total_wei,
        payment: transfer,
        amountPaidWei: received,
        // The suffix that identified the payment is not an overpayment.
        overpaid: excess >= OVERPAID_THRESHOLD_WEI,
        late,
        lines,
        outOfStock: short,
      },
      now,
    );
    // Held stock moved (a claim became an order, or stock was sold): the product list follows.
    // Lines without a known limit show no count, so an order of only those changes nothing there
    // (and all such orders need not queue on the version row).
    if (claimed || anyLimited(lines)) await bumpCatalogueVersion(trx);
    await trx('checkout_intents').where({ id: intent.id }).update({ status: 'paid', updated_at: now });
    if (intent.session_id) {
      // The cart was bought: empty it (lines added after the checkout began are kept).
      await trx('cart_items')
        .where({ session_id: intent.session_id })
        .whereIn(
          'variant_id',
          lines.map((l) => l.variant_id),
        )
        .delete();
    }
    // Every transfer that paid towards it now belongs to the order.
    await trx('chain_transfers')
      .where({ intent_id: intent.id, status: 'underpaid' })
      .update({ status: 'matched', order_id: orderId, updated_at: now });
    const notes = [
      how,
      excess >= OVERPAID_THRESHOLD_WEI ? `overpaid by ${excess} wei` : null,
      short ? 'paid after the stock was gone' : null,
    ];
    await mark('matched', intent.id, notes.filter(Boolean).join('; ') || null, orderId);
    return {
      kind: 'order',
      orderId,
      intentId: intent.id,
      sessionId: intent.session_id,
      created: true,
      overpaid: excess >= OVERPAID_THRESHOLD_WEI,
      late,
    };
  }

  /**
   * The checkout `transfer` is for, locked: the one an unreleased exact amount names, else the one
   * payable checkout of a session that proved (signed in as) the sender. Never a guess.
   */
  private async match(trx: Knex.Transaction, transfer: StoreTransfer, now: Date, seenAt: Date): Promise<Match | null> {
    const ours = (q: Knex.QueryBuilder) =>
      q
        .where({ 'c.chain_id': transfer.chainId, 'c.token_address': transfer.token, 'c.store_wallet': transfer.to })
        .where('c.match_until', '>', now);
    const byAmount: { id: string } | undefined = await ours(
      trx('checkout_amounts as a')
        .join('checkout_intents as c', 'c.id', 'a.intent_id')
        .where({ 'a.chain_id': transfer.chainId, 'a.amount_wei': transfer.value.toString() })
        .whereNull('a.released_at')
        .whereIn('c.status', [...PAYABLE, 'paid']),
    ).first('c.id');
    if (byAmount) {
      const intent: IntentRow = await trx('checkout_intents').where({ id: byAmount.id }).forUpdate().first();
      return { intent, by: 'amount' };
    }
    const proven: Array<{ id: string }> = await ours(
      trx('checkout_intents as c')
        .join('sessions as s', 's.id', 'c.session_id')
        .where('s.wallet_address', transfer.from)
        .where('s.wallet_expires_at', '>', now)
        .where('c.created_at', '<=', seenAt)
        .whereIn('c.status', PAYABLE),
    )
      .limit(2)
      .select('c.id');
    if (proven.length !== 1) return null;
    const intent: IntentRow = await trx('checkout_intents').where({ id: proven[0]!.id }).forUpdate().first();
    return PAYABLE.includes(intent.status) ? { intent, by: 'proven-sender' } : null;
  }
}

/** A recorded transfer as settlement judges it (it is on chain: a removed one is not judged). */
function storedTransfer(row: StoredTransferRow): StoreTransfer {
  return {
    chainId: row.chain_id,
    txHash: row.tx_hash,
    logIndex: row.log_index,
    blockNumber: Number(row.block_number),
    blockHash: row.block_hash,
    token: row.token_address,
    from: row.from_address,
    to: row.to_address,
    value: BigInt(row.value_wei),
    removed: false,
  };
}

/** Why a transfer that is not unmatched cannot be attached to a checkout (409 transfer-not-attachable). */
export function notAttachable(row: Pick<TransferRow, 'id' | 'intent_id' | 'order_id'> & { status: string }): AppError {
  const why: Record<string, string> = {
    matched: `it already made order ${row.order_id}`,
    underpaid: `it already counts towards checkout ${row.intent_id}, which waits for the rest`,
    review: `it already counts towards checkout ${row.intent_id}, which was already paid (refund it instead)`,
    refunded: 'its money went back to the sender (refunded)',
    removed: 'a chain reorganisation removed it: it is not on chain now',
  };
  return new AppError(
    ErrorCode.transferNotAttachable,
    `Transfer ${row.id} cannot be attached: ${why[row.status] ?? `it is ${row.status}`}. Only an unmatched transfer can be attached to a checkout.`,
  );
}

/** What the (not removed) transfers of an order add up to. */
export const paidTowardsOrder = (db: Knex.Transaction | Db, orderId: string) => transferSum(db, { order_id: orderId }, ['matched']);
