/**
 * The inventory the admin edits (the API's inventory item): one item per variant still in Shopify,
 * with its product's fields, read and written through the catalogue, which owns those tables
 * (catalogue/inventory.ts). Each edit is one transaction: the catalogue's write (which bumps the
 * catalogue version, so every instance's product list shows it at once) and the audit entry of
 * what changed.
 */
import type {
  AdminProductsPage,
  AdminProductsQuery,
  InventoryItem,
  InventoryUpdateRequest,
  InventoryWriteResult,
} from '../../../common/admin';
import type { SyncJob } from '../../../common/api';
import { ErrorCode } from '../../../common/errors';
import { normalizeDecimal } from '../../../common/money';
import type { Db } from '../../db';
import { AppError } from '../../lib/errors';
import {
  inventoryPage,
  listInventory,
  lockProductsTitled,
  lockVariantAdminFields,
  writeCustomTitle,
  writeVariantAdminFields,
  type CatalogueService,
  type SyncStart,
} from '../catalogue';
import type { StockService } from '../stock';
import { recordAudit, type AuditChange } from './audit';

const money = (v: string | null | undefined): string | null => (v == null ? null : normalizeDecimal(v));

/** A parsed inventory update (inventoryUpdateSchema's output). */
export type InventoryUpdate = { [K in keyof InventoryUpdateRequest]?: K extends 'pogPrice' ? string | null : InventoryUpdateRequest[K] };

export class InventoryAdmin {
  private readonly now: () => Date;

  constructor(
    private readonly db: Db,
    private readonly catalogue: CatalogueService,
    /** What payments on their way hold: each item's stock as the shop applies it. */
    private readonly stock: StockService,
    opts: { now?: () => Date } = {},
  ) {
    this.now = opts.now ?? (() => new Date());
  }

  /** Every variant still in Shopify, with its stock as the shop applies it (catalogue/inventory.ts). */
  list(): Promise<InventoryItem[]> {
    return listInventory(this.db, this.stock, this.now());
  }

  /** A page of the admin's product groups, with the counts on the first (catalogue/inventory-page.ts). */
  page(query: AdminProductsQuery): Promise<AdminProductsPage> {
    return inventoryPage(this.db, this.stock, this.now(), query);
  }

  /** Changes a variant's admin fields; records each field that changed, old → new. */
  async update(id: string, update: InventoryUpdate, session: string): Promise<InventoryWriteResult> {
    if (!/^\d{1,20}$/.test(id)) throw notFound(id);
    return this.db.transaction(async (trx) => {
      const row = await lockVariantAdminFields(trx, id);
      if (!row) throw notFound(id);
      const before = row.fields;
      const after = { ...before, ...update, ...('pogPrice' in update ? { pogPrice: money(update.pogPrice) } : {}) };
      const changes: AuditChange[] = (Object.keys(before) as Array<keyof typeof before>)
        .filter((k) => k in update && before[k] !== after[k])
        .map((field) => ({ field, from: before[field], to: after[field] }));
      const at = this.now();
      if (changes.length) await writeVariantAdminFields(trx, row.rowId, after, at);
      await recordAudit(trx, { at, action: 'inventory-updated', session, target: id, changes });
      return {
        message: changes.length ? 'Product updated successfully' : 'Nothing to change: the product already has those values',
        items: await listInventory(trx, this.stock, at, { variantId: id }),
      };
    });
  }

  /**
   * Sets (or, with null, clears) the custom title shoppers see instead of Shopify's: of the product
   * `productId` (a group card's), which must have the Shopify title `originalTitle`, or without it
   * of every product with that title.
   */
  async setCustomTitle(
    originalTitle: string,
    customTitle: string | null,
    session: string,
    productId?: string,
  ): Promise<InventoryWriteResult> {
    return this.db.transaction(async (trx) => {
      const products = await lockProductsTitled(trx, originalTitle, productId);
      if (!products.length) {
        throw new AppError(
          ErrorCode.productNotFound,
          productId === undefined
            ? `No product in the inventory has the Shopify title “${originalTitle}”.`
            : `No product ${productId} with the Shopify title “${originalTitle}” is in the inventory.`,
        );
      }
      const changed = products.filter((p) => p.customTitle !== customTitle);
      const at = this.now();
      if (changed.length) {
        await writeCustomTitle(
          trx,
          changed.map((p) => p.rowId),
          customTitle,
          at,
        );
      }
      // One entry per product: several Shopify products may share a title.
      const changes: AuditChange[] = changed.map((p) => ({
        field: products.length === 1 ? 'customTitle' : `customTitle (product ${p.shopifyId})`,
        from: p.customTitle,
        to: customTitle,
      }));
      await recordAudit(trx, {
        at,
        action: customTitle === null ? 'custom-title-cleared' : 'custom-title-set',
        session,
        target: originalTitle,
        changes,
      });
      return {
        message:
          customTitle === null
            ? `Custom title cleared: shoppers see “${originalTitle}”`
            : `Custom title set: shoppers see “${customTitle}”`,
        items: await listInventory(trx, this.stock, at, { productIds: products.map((p) => p.rowId) }),
      };
    });
  }

  /** Syncs the catalogue from Shopify now (one sync at a time, as the schedule's) and records the counts before → after. */
  /**
   * 'Sync with Shopify': starts the catalogue sync in the background (or answers the one running);
   * the audit entry is written when the sync this press started has succeeded.
   */
  async startSync(session: string): Promise<SyncStart> {
    const before = await this.catalogue.lastSync();
    return this.catalogue.startSync('admin', async (result) => {
      await recordAudit(this.db, {
        at: this.now(),
        action: 'inventory-synced',
        session,
        target: null,
        changes: (['products', 'variants', 'deactivated'] as const).map((field) => ({
          field,
          from: before?.[field] ?? null,
          to: result[field],
        })),
      });
    });
  }

  /** The latest sync: its phase and progress while it runs, its outcome once ended. */
  syncStatus(): Promise<SyncJob | null> {
    return this.catalogue.syncStatus();
  }
}

function notFound(id: string): AppError {
  const shown = id.length > 40 ? `${id.slice(0, 40)}…` : id;
  return new AppError(ErrorCode.inventoryItemNotFound, `No variant with id "${shown}" in the inventory (ids are Shopify variant ids).`);
}
