/**
 * The shop's catalogue as shoppers see it: only products Shopify lists as ACTIVE, and of those only
 * variants an admin activated and priced in POG; a product with none is hidden.
 *
 * The product list is served from memory and rebuilt only when the catalogue version (bumped in the
 * same transaction as every change, by any server instance) moves on. A request reads no version:
 * new versions are learned from change notifications (freshness.ts), or, while those are not heard,
 * by reading the version at most every `stalenessMs`.
 */
import { catalogueSyncDuration, catalogueSyncErrors } from '../../lib/metrics';
import { createHash } from 'node:crypto';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import type { Product, SyncJob, SyncResult, Variant } from '../../../common/api';
import { productIdSchema } from '../../../common/api';
import { availability, isForSale, type Held, type StockFacts } from '../../../common/availability';
import { ErrorCode } from '../../../common/errors';
import { normalizeDecimal, parseUnits } from '../../../common/money';
import type { Db } from '../../db';
import { AppError } from '../../lib/errors';
import type { Logger } from '../../lib/logger';
import { heldFor, heldUnits } from '../stock';
import { ProductModel, type VariantModel } from './models';
import type { ShopifyGraphql } from '../../shopify';
import { getState, setState } from '../../lib/app-state';
import { bumpCatalogueVersion, SyncInProgressError, syncCatalogue, type SyncOptions } from './sync';
import { SyncJobs, type SyncJobOptions, type SyncStart } from './sync-job';
import { CatalogueWebhooks } from './webhooks';
import { CATALOGUE_VERSION, CatalogueFreshness, type FreshnessOptions } from './freshness';
import { CatalogueIndex } from './product-query';
import type { CatalogueFacets, CataloguePage, CataloguePageQuery } from '../../../common/catalogue-query';

export interface ListedVariant {
  product: Product;
  variant: Variant;
}

export interface ProductListSnapshot {
  /** The catalogue version read before the rows: the list is at least this new. */
  version: number;
  products: Product[];
  byId: Map<string, Product>;
  /** Every listed variant by its id, with its product. */
  variantsById: Map<string, ListedVariant>;
  body: string;
  etag: string;
  /** The body compressed once per catalogue version, not once per request. */
  encoded(encoding: 'br' | 'gzip'): Buffer;
  /** Search, filters, sort and pages over this version (built on first use). */
  index(): CatalogueIndex;
}

export class CatalogueService {
  private snapshot: ProductListSnapshot | null = null;
  private building: Promise<ProductListSnapshot> | null = null;
  /** Syncs as background jobs, one at a time across every instance (sync-job.ts). */
  private readonly jobs: SyncJobs;
  /** products/* and inventory_levels/update webhooks (webhooks.ts). */
  readonly webhooks: CatalogueWebhooks;
  /** Which catalogue version is the newest (notifications, with a bounded-staleness fallback). */
  readonly freshness: CatalogueFreshness;

  constructor(
    private readonly db: Db,
    private readonly shopify: ShopifyGraphql,
    private readonly logger?: Logger,
    private readonly syncOptions: SyncOptions = {},
    freshness: Omit<FreshnessOptions, 'logger'> = { stalenessMs: 1000 },
    jobOptions: SyncJobOptions = {},
  ) {
    this.freshness = new CatalogueFreshness(db, { ...freshness, logger });
    this.jobs = new SyncJobs(db, (report) => this.runSync(report), logger, jobOptions);
    this.webhooks = new CatalogueWebhooks(db, shopify, logger, syncOptions);
  }

  /**
   * The listed products, JSON body and ETag, from memory while no newer catalogue version is known
   * (no database read); rebuilt once per change, concurrent requests sharing the rebuild.
   */
  async list(): Promise<ProductListSnapshot> {
    const snap = this.snapshot;
    if (snap && this.freshness.isCurrent(snap.version)) return snap;
    this.freshness.start();
    let built!: ProductListSnapshot;
    // A rebuild already under way may have read the rows before the change this request knows of.
    for (let round = 0; round < 3; round++) {
      this.building ??= this.rebuild().finally(() => {
        this.building = null;
      });
      built = await this.building;
      if (this.freshness.isCurrent(built.version)) break;
    }
    return built;
  }

  /** Ends the change notifications' connection and the fallback poll (shutdown, a test's end). */
  close(): Promise<void> {
    return this.freshness.close();
  }

  async get(id: string): Promise<Product> {
    if (!productIdSchema.safeParse(id).success) {
      throw new AppError(ErrorCode.productNotFound, `No product with id "${truncate(id)}": product ids are whole numbers`);
    }
    const product = (await this.list()).byId.get(id);
    if (!product) throw new AppError(ErrorCode.productNotFound, `No product with id ${id} is for sale`);
    return product;
  }

  /** One page of a view of the listed products (search, filters, sort), from memory. */
  async page(query: CataloguePageQuery): Promise<CataloguePage> {
    return (await this.list()).index().page(query);
  }

  /** The values the shop's filters offer, with their counts. */
  async facets(): Promise<CatalogueFacets> {
    return (await this.list()).index().facets();
  }

  /**
   * Starts a sync in the background unless one runs on any instance (then answers that one).
   * `after` runs once this sync succeeded, before its job is marked ended.
   */
  startSync(trigger: string, after?: (result: SyncResult) => Promise<void>): Promise<SyncStart> {
    return this.jobs.start(trigger, after);
  }

  /** The latest sync job, running or ended; null before the first. */
  syncStatus(): Promise<SyncJob | null> {
    return this.jobs.latest();
  }

  /**
   * Starts a sync and waits for its end (the start-up and periodic syncs, tests). Refused with
   * SyncInProgressError when one already runs, here or on another instance.
   */
  async sync(trigger = 'api'): Promise<SyncResult> {
    const start = await this.jobs.start(trigger);
    if (!start.started || !start.done) throw new SyncInProgressError();
    return start.done;
  }

  get isSyncing(): boolean {
    return this.jobs.runningHere;
  }

  private runSync(report: Parameters<typeof syncCatalogue>[4]): Promise<SyncResult> {
    const timer = catalogueSyncDuration.startTimer();
    return syncCatalogue(this.db, this.shopify, this.logger, this.syncOptions, report).then(
      (result) => {
        timer();
        return result;
      },
      (err: unknown) => {
        catalogueSyncErrors.inc();
        throw err;
      },
    );
  }

  async lastSync(): Promise<SyncResult | undefined> {
    return getState<SyncResult>(this.db, 'last_sync');
  }

  /**
   * Local (demo) mode only: give every synced variant that has no POG price one (ten times its
   * Shopify price) and activate it, once, so a newcomer's shop is not empty. Later admin changes win.
   */
  async seedDemoPrices(): Promise<number> {
    if (await getState(this.db, 'demo_prices_seeded')) return 0;
    return this.db.transaction(async (trx) => {
      const updated = await trx('variants')
        .whereNull('pog_price')
        .whereNull('removed_at')
        .whereNotNull('shopify_price')
        .update({ pog_price: trx.raw('shopify_price * 10'), is_active: true, updated_at: trx.fn.now() });
      await setState(trx, 'demo_prices_seeded', { at: new Date().toISOString(), variants: updated });
      await bumpCatalogueVersion(trx);
      return updated;
    });
  }

  private async rebuild(): Promise<ProductListSnapshot> {
    const knownAtStart = this.freshness.known;
    const snap = await this.build();
    this.freshness.builtAt(snap.version, knownAtStart);
    if (!this.snapshot || snap.version >= this.snapshot.version) this.snapshot = snap;
    return snap;
  }

  private async build(): Promise<ProductListSnapshot> {
    // The version first: the rows read after it are at least as new.
    const version = Number((await getState<number>(this.db, CATALOGUE_VERSION)) ?? 0);
    // Every product and variant, then the one rule of what is for sale (common/availability), the
    // rule the cart and checkout apply to their lines too.
    const rows = await ProductModel.query(this.db)
      .withGraphFetched('variants(ordered)')
      .modifiers({ ordered: (q) => q.orderBy('position').orderBy('id') })
      .orderBy('id');
    for (const p of rows) p.variants = (p.variants ?? []).filter((v) => isForSale(saleFacts(p, v)));
    // Read after the version: a change to what is held bumps the version, so this is never older.
    const held = await heldUnits(this.db, new Date());
    const products = rows.map((p) => toApiProduct(p, held)).filter((p): p is Product => p !== null);
    // The featured order is the rows' order (by row id): a product's row id is its stable place in it.
    const rowIds = new Map(rows.map((p) => [p.shopifyId, p.id]));
    let index: CatalogueIndex | null = null;
    const body = JSON.stringify(products);
    const etag = `"${createHash('sha1').update(body).digest('base64url')}"`;
    const cache: Partial<Record<'br' | 'gzip', Buffer>> = {};
    return {
      version,
      products,
      byId: new Map(products.map((p) => [p.id, p])),
      variantsById: new Map(products.flatMap((product) => product.variants.map((variant) => [variant.id, { product, variant }]))),
      body,
      etag,
      encoded: (encoding) =>
        (cache[encoding] ??=
          encoding === 'br'
            ? brotliCompressSync(body, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 9 } })
            : gzipSync(body, { level: 9 })),
      index: () => (index ??= new CatalogueIndex(products, (p) => rowIds.get(p.id)!)),
    };
  }
}

/** The stock facts of a variant's row, as the availability rule takes them. */
const stockFacts = (v: VariantModel): StockFacts => ({
  inventory_quantity: v.inventoryQuantity,
  available_for_sale: v.availableForSale,
  available_stock: v.availableStock,
  is_sold_out: v.isSoldOut,
});

/**
 * A variant as shoppers see it: sold out and the stock left by the one availability rule
 * (common/availability), after what is held for payments on their way and orders Shopify does
 * not have yet.
 */
export function toApiVariant(v: VariantModel, held?: Held): Variant {
  const { isSoldOut, availableStock } = availability(stockFacts(v), held);
  return {
    id: v.shopifyId,
    title: v.title,
    price: normalizeDecimal(String(v.pogPrice)),
    isSoldOut,
    availableStock,
    sku: v.sku,
  };
}

const saleFacts = (p: ProductModel, v: VariantModel) => ({
  productStatus: p.shopifyStatus,
  productRemoved: p.removedAt != null,
  variantRemoved: v.removedAt != null,
  isActive: v.isActive,
  pogPrice: v.pogPrice,
});

/** The title shoppers see: the admin's own, else Shopify's. */
export const productTitle = (customTitle: string | null, title: string): string => customTitle?.trim() || title;

export function toApiProduct(p: ProductModel, held: Map<string, Held> = new Map()): Product | null {
  const variants = (p.variants ?? []).map((v) => toApiVariant(v, heldFor(held, v.shopifyId)));
  if (variants.length === 0) return null;
  const min = variants.reduce((lo, v) => (parseUnits(v.price) < parseUnits(lo) ? v.price : lo), variants[0].price);
  const images = (p.images ?? []).map((i) => ({ url: i.url, alt: i.alt ?? null }));
  const featured = p.featuredImageUrl ?? images[0]?.url ?? null;
  return {
    id: p.shopifyId,
    title: productTitle(p.customTitle, p.title),
    description: p.descriptionHtml ?? '',
    images,
    featuredImage: featured ? { url: featured } : null,
    variants,
    vendor: p.vendor ?? '',
    productType: p.productType ?? '',
    tags: p.tags ?? [],
    updatedAt: (p.shopifyUpdatedAt ?? p.updatedAt).toISOString(),
    price: min,
    priceRange: { minVariantPrice: { amount: min, currencyCode: 'POG' } },
  };
}

function truncate(s: string, n = 40): string {
  return s.length > n ? `${s.slice(0, n)}…` : s;
}
