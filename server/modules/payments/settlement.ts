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
 * presented, it is recorded once and counted once. What follows from what was read (the statuses,
 * the notes, the order) is decided by the pure functions of settlement-decision.ts; this file
 * reads, asks them and writes.
 */
import type { Knex } from 'knex';
import { shortenAddress } from '../../../common/shorten-address';
import type { Db } from '../../db';
import type { Logger } from '../../lib/logger';
import { payments } from '../../lib/metrics';
import { bumpCatalogueVersion } from '../catalogue';
import { createOrder, lockOrder, recordOrderReference, restoreReorgedOrder } from '../orders';
import type { OrderReference } from '../../../common/api';
import { ErrorCode } from '../../../common/errors';
import { AppError } from '../../lib/errors';
import { removeBoughtLines } from '../cart';
import type { StockService } from '../stock';
import { issueAmount, randomSuffix } from './amount';
import { receivedWei } from './checkout-received';
import { PAYABLE, type IntentRow } from './checkout-record';
import { claimStock, lockIntentLines } from './stock-claim';
import {
  ATTACHED,
  attachRefusal,
  decideOrder,
  decidePayment,
  notAttachable,
  onRefundHold,
  type Settlement,
  type TransferMark,
} from './settlement-decision';
import {
  checkoutFacts,
  matchCheckout,
  paidTowardsOrder,
  storedTransfer,
  type Match,
  type StoredTransferRow,
  type TransferRow,
} from './settlement-reads';
import type { TransferStatus } from './transfer-status';
import type { StoreTransfer } from './verify';

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
  /**
   * The dollar reference at a block (the price reference's `atBlock`: it never throws), kept with
   * each order made, after the order's transaction: it never holds a settlement up or fails one.
   */
  referenceAt?: (block: number) => Promise<OrderReference>;
}

const DEFAULT_CLAIM_MS = 15 * 60_000;

export class SettlementService {
  private readonly now: () => Date;
  private readonly claimMs: number;
  private readonly latePaymentMs: number;
  private readonly suffix: () => bigint;
  private readonly logger: Logger | undefined;
  private readonly referenceAt: SettlementOptions['referenceAt'];
  /** The references being read and kept for orders just made. */
  private readonly keeping = new Set<Promise<void>>();

  constructor(
    private readonly db: Db,
    /** What payments on their way hold: a paid checkout's lines are judged with it. */
    private readonly stock: StockService,
    options: SettlementOptions = {},
  ) {
    this.now = options.now ?? (() => new Date());
    this.claimMs = options.claimMs ?? DEFAULT_CLAIM_MS;
    this.latePaymentMs = options.latePaymentMs ?? 24 * 3_600_000;
    this.suffix = options.suffix ?? randomSuffix;
    this.logger = options.logger;
    this.referenceAt = options.referenceAt;
  }

  /** Resolves once the dollar references of the orders made so far are kept (or given up): a shutdown waits for them. */
  async referencesKept(): Promise<void> {
    while (this.keeping.size) await Promise.all([...this.keeping]);
  }

  /** Reads the reference at the paying transfer's block and keeps it with the order, in the background; a failure is logged. */
  private keepReference(orderId: string, block: number): void {
    const referenceAt = this.referenceAt;
    if (!referenceAt) return;
    const kept: Promise<void> = (async () => {
      const reference = await referenceAt(block);
      if (reference) await recordOrderReference(this.db, orderId, reference);
    })()
      .catch((err) => this.logger?.warn({ err, orderId, block }, 'the order’s dollar reference could not be kept'))
      .finally(() => this.keeping.delete(kept));
    this.keeping.add(kept);
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
          ...payerColumns(transfer),
          status: 'unmatched' satisfies TransferStatus,
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
        // Recorded before who paid it was looked up (the shopper's road, when the chain did not say): now it is.
        if (transfer.paidWith) await trx('chain_transfers').where({ id: row.id }).whereNull('paid_with').update(payerColumns(transfer));
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
  private report(
    result: Settlement,
    transfer: Pick<StoreTransfer, 'txHash' | 'logIndex' | 'from' | 'value' | 'blockNumber'>,
    via: SettledVia,
  ): void {
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
      this.keepReference(result.orderId, transfer.blockNumber);
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
      .where({ status: 'unmatched' satisfies TransferStatus })
      // Paid by that wallet: its own transfer, or a swap whose payer the chain proved to be it.
      .whereRaw('coalesce(payer_address, from_address) = ?', [wallet.toLowerCase()])
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
          const again =
            row.intent_id === intentId && row.note?.startsWith(ATTACHED) && (row.status === 'matched' || row.status === 'underpaid');
          const known = again ? await this.judged(trx, row, transfer, now) : null;
          if (known) return { settlement: known, attached: false, transfer };
          throw notAttachable(row);
        }
        const refused = attachRefusal(row, intent, now);
        if (refused) throw refused;
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
   * settled (not deep enough): the first payment seen wins the last units (stock-claim.ts).
   */
  async claim(transfer: StoreTransfer): Promise<boolean> {
    return this.db.transaction((trx) => claimStock(trx, this.stock, transfer, this.now(), this.claimMs));
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
      case 'extra-payment':
        return intent ? { kind: 'extra-payment', intentId: intent.id, sessionId: intent.session_id } : { kind: 'unmatched' };
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
      .update({
        status: 'matched' satisfies TransferStatus,
        note: null,
        block_number: transfer.blockNumber,
        block_hash: transfer.blockHash,
        updated_at: now,
      });
    const order = await lockOrder(trx, row.order_id!);
    if ((await paidTowardsOrder(trx, order.id)) >= BigInt(order.total_wei)) await restoreReorgedOrder(trx, order, now);
    return { kind: 'order', orderId: order.id, intentId: order.intent_id, sessionId: order.session_id, created: false };
  }

  /**
   * `seenAt`: when the transfer was first recorded (a checkout opened after it cannot be what it
   * paid). `given`: the checkout it is for, locked (the admin's attach); otherwise it is looked up.
   * Reads what the decision needs (the stock only for a payment in full: its variants are locked),
   * asks settlement-decision.ts what follows, and writes that.
   */
  private async judge(
    trx: Knex.Transaction,
    row: TransferRow,
    transfer: StoreTransfer,
    now: Date,
    seenAt: Date,
    given?: Match,
  ): Promise<Settlement> {
    const mark = ({ status, intentId, note }: TransferMark, orderId: string | null = null) =>
      trx('chain_transfers').where({ id: row.id }).update({
        status,
        intent_id: intentId,
        order_id: orderId,
        note,
        block_number: transfer.blockNumber,
        block_hash: transfer.blockHash,
        updated_at: now,
      });

    const match = given ?? (await matchCheckout(trx, transfer, now, seenAt));
    const decision = decidePayment({
      now,
      latePaymentMs: this.latePaymentMs,
      valueWei: transfer.value,
      match: match && { checkout: checkoutFacts(match.intent), by: match.by },
      // An already paid checkout takes no more: what it received is not read.
      receivedBeforeWei: match && match.intent.status !== 'paid' ? await receivedWei(trx, match.intent.id) : 0n,
    });
    if (decision.kind === 'unmatched' || decision.kind === 'extra-payment') {
      await mark(decision.transfer);
      return decision.settlement;
    }
    const { intent } = match!; // every other decision is about the matched checkout
    if (decision.kind === 'underpaid') {
      await mark(decision.transfer);
      await trx('checkout_intents')
        .where({ id: intent.id })
        .update({ status: 'underpaid', match_until: decision.checkout.matchUntil, updated_at: now });
      await issueAmount(
        trx,
        { intentId: intent.id, chainId: intent.chain_id, baseWei: decision.remainderBaseWei, purpose: 'remainder', now },
        this.suffix,
      );
      return decision.settlement;
    }

    // Paid in full: the checkout's lines, locked, and (unless it claimed its stock) whether one is short now.
    const lines = await lockIntentLines(trx, intent.id);
    const short = decision.claimed ? null : await this.stock.shortLine(trx, intent.id, lines, now);
    const paid = decideOrder(decision, { lines, short });
    // The order's wallet is the one that paid: a swap's POGS comes from a pool, its payer is whom the chain proved.
    const payment = { ...transfer, from: transfer.paidWith?.payer ?? transfer.from };
    const orderId = await createOrder(
      trx,
      { intentId: intent.id, sessionId: intent.session_id, totalWei: intent.total_wei, payment, lines, ...paid.order },
      now,
    );
    if (paid.bumpCatalogue) await bumpCatalogueVersion(trx, { variantIds: lines.map((l) => l.variant_id) });
    await trx('checkout_intents').where({ id: intent.id }).update({ status: 'paid', updated_at: now });
    if (paid.emptyCart) await removeBoughtLines(trx, paid.emptyCart.sessionId, paid.emptyCart.variantIds);
    // Every transfer that paid towards it now belongs to the order.
    await trx('chain_transfers')
      .where({ intent_id: intent.id, status: 'underpaid' satisfies TransferStatus })
      .update({ status: 'matched' satisfies TransferStatus, order_id: orderId, updated_at: now });
    await mark(paid.transfer, orderId);
    return { ...paid.settlement, orderId };
  }
}

/** The columns of who paid a transfer (all null while not looked up). */
function payerColumns({ paidWith }: StoreTransfer) {
  return {
    payer_address: paidWith?.payer ?? null,
    paid_with: paidWith?.coin ?? null,
    amount_in: paidWith?.amountIn ?? null,
  };
}
