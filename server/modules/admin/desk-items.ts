/**
 * A transfer to the store wallet as the payments desk shows it (common/payments-desk.ts
 * AttentionItem): the transfer with its checkout, its order, its resolution, its refunds and its
 * kind, which payments reads in one statement (deskTransferRows, by the rule of its desk-kinds.ts).
 * The queue (payments-desk.ts), refunds (desk-refunds.ts) and attaching (attach.ts) read items here.
 */
import { getAddress } from 'ethers';
import type { Knex } from 'knex';
import type { AttentionItem, RefundRecord } from '../../../common/payments-desk';
import { ErrorCode } from '../../../common/errors';
import type { Config } from '../../config';
import type { Db } from '../../db';
import { AppError } from '../../lib/errors';
import { itemKindOf, judgedStatusOf, MATCHED, receivedWeiByCheckout, refundableWei } from '../payments';
import { deskTransferRows, type DeskTransferRow } from './desk/desk-reads';
import { explorerUrlOf, iso, paidWithOfRow, pog, wei, type ExplorerUrl } from './desk-format';
import { refundRecords } from './refund-records';

/** A transfer with its checkout, order and resolution, as payments reads it for the desk. */
type Row = DeskTransferRow;

/** The chain's head for confirmations: a block, none (null: inside a transaction, say), or `ask` the chain. */
type Head = number | null | 'ask';

export class DeskItems {
  /** The explorer's page of a transaction. */
  readonly explorer: ExplorerUrl;

  constructor(
    private readonly db: Db,
    private readonly deps: {
      config: Pick<Config, 'mode' | 'publicLinks'>;
      /** The chain's head block, for confirmations; absent (or failing) means none are shown. */
      chainHead?: () => Promise<number>;
      /**
       * Where a refund of a transfer goes (the payments module's refunds), null when its payer is
       * not proven; absent without a chain: the wallet that paid, as recorded.
       */
      refundTo?: (row: { from_address: string; payer_address: string | null; paid_with: string | null }) => string | null;
    },
  ) {
    this.explorer = explorerUrlOf(deps.config);
  }

  /** The items of transfers `ids`, in this order; a transfer that needs nobody, or is unknown, is left out. */
  list(ids: readonly number[]): Promise<AttentionItem[]> {
    return this.itemsOf(this.db, ids, 'ask');
  }

  /**
   * The desk's item for transfer `id` as it is now, whatever its kind; null when it needs nobody
   * (a plain payment) or there is no such transfer.
   */
  async itemOf(id: number): Promise<AttentionItem | null> {
    return (await this.itemsOf(this.db, [id], 'ask'))[0] ?? null;
  }

  /**
   * The desk item of transfer `transferId` (resolved or not), or 404 attention-item-not-found;
   * with `any`, a plain payment (kind `paid`) too.
   */
  async find(db: Db | Knex.Transaction, transferId: string, head: Head, any = false): Promise<AttentionItem> {
    const id = transferIdOf(transferId);
    const [item] = id === null ? [] : await this.itemsOf(db, [id], head, any);
    if (!item)
      throw new AppError(
        ErrorCode.attentionItemNotFound,
        any ? `There is no transfer ${transferId} to the store wallet.` : `No transfer ${transferId} needs attention on the payments desk.`,
      );
    return item;
  }

  /** The chain's head block, or null without a chain or when it does not answer. */
  async head(): Promise<number | null> {
    if (!this.deps.chainHead) return null;
    try {
      return await this.deps.chainHead();
    } catch {
      return null; // the desk works without the chain; confirmations are left out
    }
  }

  /** Transfers `ids` as items, in this order, with what their checkouts received and their refunds. */
  private async itemsOf(db: Db | Knex.Transaction, ids: readonly number[], head: Head, any = false): Promise<AttentionItem[]> {
    const byId = new Map((await deskTransferRows(db, ids)).map((r) => [r.id, r]));
    const rows = ids.flatMap((id) => byId.get(id) ?? []);
    if (rows.length === 0) return [];
    const [block, received, refunds] = await Promise.all([
      head === 'ask' ? this.head() : head,
      // What the checkouts of the underpaid items (refunded ones included) have received, for their `due`.
      receivedWeiByCheckout(
        db,
        rows.filter((r) => r.kind === 'underpaid' && r.intent_id).map((r) => r.intent_id!),
      ),
      this.refundsOf(db, rows),
    ]);
    return rows.flatMap((r) => this.item(r, block, received, refunds, any) ?? []);
  }

  /** The refunds recorded against each of these transfers, oldest first. */
  private async refundsOf(db: Db | Knex.Transaction, rows: readonly Row[]): Promise<Map<number, RefundRecord[]>> {
    const records = await refundRecords(
      db,
      'transfer_id',
      rows.map((r) => r.id),
      this.explorer,
    );
    const byTransfer = new Map<number, RefundRecord[]>();
    for (const f of records) {
      const id = Number(f.transferId);
      byTransfer.set(id, [...(byTransfer.get(id) ?? []), f]);
    }
    return byTransfer;
  }

  private item(
    r: Row,
    head: number | null,
    received: Map<string, bigint>,
    refunds: Map<number, RefundRecord[]>,
    any: boolean,
  ): AttentionItem | null {
    const kind = any ? itemKindOf(r.kind, r.status) : r.kind;
    if (!kind) return null;
    // The status settlement or the watcher gave the transfer (for a refunded one, what it was before).
    const status = judgedStatusOf(r.status, r.status_before_refund);
    const value = wei(r.value_wei);
    const block = Number(r.block_number);
    let due: string | null = null;
    if (kind === 'underpaid' && r.intent_total_wei) {
      const left = wei(r.intent_total_wei) - (received.get(r.intent_id!) ?? 0n);
      due = pog(left > 0n ? left : 0n);
    }
    let excess: string | null = null;
    if (status === 'extra-payment') excess = pog(value);
    else if (status === MATCHED && r.order_overpaid) excess = pog(wei(r.order_amount_paid_wei!) - wei(r.order_total_wei!));
    const refunded = refunds.get(r.id) ?? [];
    const refundedWei = refunded.reduce((sum, f) => sum + BigInt(f.amountWei), 0n);
    const refundable = refundableWei({ status: r.status, valueWei: value }, refundedWei);
    const refundTo = this.deps.refundTo ? this.deps.refundTo(r) : (r.payer_address ?? r.from_address);
    return {
      transferId: String(r.id),
      kind,
      sender: r.from_address,
      paidWith: paidWithOfRow(r),
      amount: pog(value),
      amountWei: value.toString(),
      txHash: r.tx_hash,
      logIndex: r.log_index,
      blockNumber: block,
      at: iso(r.created_at),
      ...(head !== null && status !== 'removed' ? { confirmations: Math.max(head - block + 1, 0) } : {}),
      explorerUrl: this.explorer(r.tx_hash),
      orderId: r.order_id,
      due,
      excess,
      note: r.note,
      resolved: r.resolved_at ? { at: iso(r.resolved_at), note: r.resolution_note ?? '' } : null,
      refundable: pog(refundable),
      refundableWei: refundable.toString(),
      refunds: refunded,
      refundTo: refundTo === null ? null : getAddress(refundTo),
    };
  }
}

/** The transfer id a route names, or null when it cannot be one (chain_transfers.id is a positive int4). */
export function transferIdOf(text: string): number | null {
  if (!/^[1-9]\d{0,9}$/.test(text)) return null;
  const id = Number(text);
  return id <= 2_147_483_647 ? id : null;
}
