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
import { promisify } from 'node:util';
import { brotliCompress, brotliCompressSync, constants as zlibConstants, gzip, gzipSync } from 'node:zlib';
import type { Product, SyncJob, SyncResult, Variant } from '../../../common/api';
import { productIdSchema } from '../../../common/api';
import { availability, isForSale, type Held, type StockFacts } from '../../../common/availability';
import { ErrorCode } from '../../../common/errors';
import { normalizeDecimal, parseUnits } from '../../../common/money';
import type { Db } from '../../db';
import { AppError } from '../../lib/errors';
import { isLostDatabaseConnection } from '../../lib/db-errors';
import type { Logger } from '../../lib/logger';
import { heldFor, type StockService } from '../stock';
import type { Model } from 'objection';
import type { ProductModel, VariantModel } from './models';
import type { ShopifyGraphql } from '../../shopify';
import { getState, setState } from '../../lib/app-state';
import { bumpCatalogueVersion, SyncInProgressError, syncCatalogue, type SyncOptions } from './sync';
import { SyncJobs, type SyncJobOptions, type SyncStart } from './sync-job';
import { CatalogueWebhooks } from './webhooks';
import { CATALOGUE_VERSION, CatalogueFreshness, type FreshnessOptions } from './freshness';
import { CatalogueIndex } from './product-query';
import type { CataloguePageQuery } from '../../../common/catalogue-query';
import { PageAnswers } from './page-answers';
import { etagOf, type Coding, type Precompressed } from '../../lib/precompressed';

export interface ListedVariant {
  product: Product;
  variant: Variant;
}

export interface ProductListSnapshot extends Precompressed {
  /** The catalogue version read before the rows: the list is at least this new. */
  version: number;
  products: Product[];
  byId: Map<string, Product>;
  /** Every listed variant by its id, with its product. */
  variantsById: Map<string, ListedVariant>;
  /** The list's JSON (`[product, …]`), built in slices. */
  body: Buffer;
  /**
   * The body compressed once per catalogue version, not once per request: null until it is ready
   * (the first ask starts it, in libuv's thread pool, never on the event loop).
   */
  encoded(coding: Coding): Buffer | null;
  /** Search, filters, sort and pages over this version (built in slices once the list is ready). */
  index(): Promise<CatalogueIndex>;
  /** One product's answer (JSON, ETag, compressed forms), kept per version; undefined when not listed. */
  product(id: string): Precompressed | undefined;
}

/** Products converted (and serialised) between two yields to the event loop while a list is built. */
const BUILD_SLICE = 100;
/** Products whose rows are read per query pair while a list is built. */
const READ_BATCH = 500;
/** The most products' answers kept per catalogue version (about 2–3 KB each with their compressed forms). */
const MAX_PRODUCT_ANSWERS = 2000;

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);
const BROTLI = { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 9 } };
const GZIP = { level: 9 };

/** Gives the event loop back: requests waiting meanwhile are answered before the build goes on. */
const pause = () => new Promise<void>((resolve) => setImmediate(resolve));

export class CatalogueService {
  private snapshot: ProductListSnapshot | null = null;
  private building: Promise<ProductListSnapshot> | null = null;
  /** Syncs as background jobs, one at a time across every instance (sync-job.ts). */
  private readonly jobs: SyncJobs;
  /** products/* and inventory_levels/update webhooks (webhooks.ts). */
  readonly webhooks: CatalogueWebhooks;
  /** Which catalogue version is the newest (notifications, with a bounded-staleness fallback). */
  readonly freshness: CatalogueFreshness;
  /** The page route's and the facets' answers, stored per snapshot (page-answers.ts). */
  readonly pages: PageAnswers;

  constructor(
    private readonly db: Db,
    private readonly shopify: ShopifyGraphql,
    /** What payments on their way hold: the list's stock is what is left after it. */
    private readonly stock: StockService,
    private readonly logger?: Logger,
    private readonly syncOptions: SyncOptions = {},
    freshness: Omit<FreshnessOptions, 'logger'> = { stalenessMs: 1000 },
    jobOptions: SyncJobOptions = {},
  ) {
    this.freshness = new CatalogueFreshness(db, { ...freshness, logger });
    this.jobs = new SyncJobs(db, (report) => this.runSync(report), logger, jobOptions);
    this.webhooks = new CatalogueWebhooks(db, shopify, logger, syncOptions);
    this.pages = new PageAnswers(logger);
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
      try {
        built = await this.building;
      } catch (err) {
        // The database is gone: the list as it was is served rather than none (writes say the database is down).
        if (snap && isLostDatabaseConnection(err)) return snap;
        throw err;
      }
      if (this.freshness.isCurrent(built.version)) break;
    }
    return built;
  }

  /**
   * The list in memory, when no newer catalogue version is known; undefined when a read must wait for
   * a rebuild (`list()` does that). For answers given without waiting (server/lib/fast-lane.ts).
   */
  currentList(): ProductListSnapshot | undefined {
    const snap = this.snapshot;
    return snap && this.freshness.isCurrent(snap.version) ? snap : undefined;
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

  /**
   * One page of a view of the listed products (search, filters, sort), from memory: its stored
   * answer, worked out and compressed once per view and catalogue version (page-answers.ts).
   * `address`: the request's path and query, as the app read and checked them.
   */
  async page(query: CataloguePageQuery, address?: string): Promise<Precompressed> {
    const snap = await this.list();
    const answer = await this.pages.page(snap, query);
    // Answered: the lane may answer this very address from now on (stored-reads.ts).
    if (address !== undefined) this.pages.remember(snap, address, query);
    return answer;
  }

  /** One listed product's stored answer (JSON, ETag, compressed forms) for this catalogue version. */
  async productAnswer(id: string): Promise<Precompressed> {
    const answer = productIdSchema.safeParse(id).success ? (await this.list()).product(id) : undefined;
    if (answer) return answer;
    await this.get(id); // throws the 404 that fits
    throw new AppError(ErrorCode.productNotFound, `No product with id ${id} is for sale`);
  }

  /** The values the shop's filters offer, with their counts: their stored answer. */
  async facets(): Promise<Precompressed> {
    return this.pages.facets(await this.list());
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

  /**
   * Reads the rows and builds the list in slices (each a millisecond or two), giving the event loop back between them, so a
   * catalogue of thousands of products never holds up other requests. The compressed forms and the
   * search index come after, off the request path.
   */
  private async build(): Promise<ProductListSnapshot> {
    // The version first: the rows read after it are at least as new.
    const version = Number((await getState<number>(this.db, CATALOGUE_VERSION)) ?? 0);
    // Every product and variant, then the one rule of what is for sale (common/availability), the
    // rule the cart and checkout apply to their lines too.
    const rows = await readCatalogueRows(this.db);
    // Read after the version: a change to what is held bumps the version, so this is never older.
    const held = await this.stock.held(this.db, new Date());
    const products: Product[] = [];
    const byId = new Map<string, Product>();
    const variantsById = new Map<string, ListedVariant>();
    // The featured order is the rows' order (by row id): a product's row id is its stable place in it.
    const rowIds = new Map<string, number>();
    const hash = createHash('sha1').update('[');
    const parts: Buffer[] = [];
    for (let start = 0; start < rows.length; start += BUILD_SLICE) {
      const slice: Product[] = [];
      for (const p of rows.slice(start, start + BUILD_SLICE)) {
        rowIds.set(p.shopifyId, p.id);
        p.variants = (p.variants ?? []).filter((v) => isForSale(saleFacts(p, v)));
        const product = toApiProduct(p, held);
        if (!product) continue;
        slice.push(product);
        byId.set(product.id, product);
        for (const variant of product.variants) variantsById.set(variant.id, { product, variant });
      }
      if (slice.length > 0) {
        // JSON.stringify of the list, a slice at a time: "[" + each product's JSON joined by "," + "]".
        const json = (products.length === 0 ? '' : ',') + slice.map((product) => JSON.stringify(product)).join(',');
        const part = Buffer.from(json);
        hash.update(part);
        parts.push(part);
        products.push(...slice);
      }
      await pause();
    }
    const body = Buffer.concat([Buffer.from('['), ...parts, Buffer.from(']')]);
    const etag = `"${hash.update(']').digest('base64url')}"`;
    const compressed: Partial<Record<Coding, Buffer>> = {};
    const compressing: Partial<Record<Coding, Promise<void>>> = {};
    const answers = new Map<string, Precompressed>();
    let index: Promise<CatalogueIndex> | null = null;
    const snap: ProductListSnapshot = {
      version,
      products,
      byId,
      variantsById,
      body,
      etag,
      encoded: (coding) => {
        compressing[coding] ??= (coding === 'br' ? brotliAsync(body, BROTLI) : gzipAsync(body, GZIP)).then(
          (buffer) => {
            compressed[coding] = buffer;
          },
          (err: unknown) =>
            this.logger?.warn({ err, coding }, 'catalogue: the product list could not be compressed; answering it as it is'),
        );
        return compressed[coding] ?? null;
      },
      index: () => (index ??= CatalogueIndex.build(products, (p) => rowIds.get(p.id)!, pause)),
      product: (id) => {
        let answer = answers.get(id);
        if (answer) return answer;
        const product = byId.get(id);
        if (!product) return undefined;
        if (answers.size >= MAX_PRODUCT_ANSWERS) answers.delete(answers.keys().next().value!);
        answers.set(id, (answer = productAnswer(product)));
        return answer;
      },
    };
    return snap;
  }
}

/**
 * One product's answer: its JSON and ETag, each compressed form made on first ask (a product is a
 * few kilobytes: well under a millisecond, once per catalogue version).
 */
function productAnswer(product: Product): Precompressed {
  const body = Buffer.from(JSON.stringify(product));
  const compressed: Partial<Record<Coding, Buffer>> = {};
  return {
    body,
    etag: etagOf(body),
    encoded: (coding) => (compressed[coding] ??= coding === 'br' ? brotliCompressSync(body, BROTLI) : gzipSync(body, GZIP)),
  };
}

/** A product's row with its variants (the models' fields, read without the ORM). */
type VariantRow = Omit<VariantModel, keyof Model>;
type ProductRow = Omit<ProductModel, keyof Model | 'variants'> & { variants?: VariantRow[] };

/**
 * Every product with its variants (in their position order), by row id: two plain queries per
 * batch of products (no ORM models), the event loop given back between batches.
 */
async function readCatalogueRows(db: Db): Promise<ProductRow[]> {
  const products: ProductRow[] = [];
  for (let after = 0; ;) {
    const batch = (await db('products').where('id', '>', after).orderBy('id').limit(READ_BATCH)) as Array<Record<string, never>>;
    if (batch.length === 0) break;
    const first = batch[0].id as number;
    const last = batch[batch.length - 1].id as number;
    const variantRows = (await db('variants')
      .whereBetween('product_id', [first, last])
      .orderBy('product_id')
      .orderBy('position')
      .orderBy('id')) as Array<Record<string, never>>;
    const byProduct = new Map<number, VariantRow[]>();
    for (const v of variantRows) {
      const list = byProduct.get(v.product_id);
      const variant = toVariantRow(v);
      if (list) list.push(variant);
      else byProduct.set(v.product_id, [variant]);
    }
    for (const p of batch) products.push({ ...toProductRow(p), variants: byProduct.get(p.id) ?? [] });
    after = last;
    if (batch.length < READ_BATCH) break;
    await pause();
  }
  return products;
}

const toProductRow = (r: Record<string, never>): ProductRow => ({
  id: r.id,
  shopifyGid: r.shopify_gid,
  shopifyId: r.shopify_id,
  handle: r.handle,
  title: r.title,
  customTitle: r.custom_title,
  descriptionHtml: r.description_html,
  vendor: r.vendor,
  productType: r.product_type,
  tags: r.tags,
  images: r.images,
  featuredImageUrl: r.featured_image_url,
  shopifyStatus: r.shopify_status,
  shopifyUpdatedAt: r.shopify_updated_at,
  removedAt: r.removed_at,
  lastSyncedAt: r.last_synced_at,
  updatedAt: r.updated_at,
});

const toVariantRow = (r: Record<string, never>): VariantRow => ({
  id: r.id,
  productId: r.product_id,
  shopifyGid: r.shopify_gid,
  shopifyId: r.shopify_id,
  title: r.title,
  sku: r.sku,
  position: r.position,
  shopifyPrice: r.shopify_price,
  inventoryQuantity: r.inventory_quantity,
  availableForSale: r.available_for_sale,
  imageUrl: r.image_url,
  removedAt: r.removed_at,
  pogPrice: r.pog_price,
  isActive: r.is_active,
  availableStock: r.available_stock,
  isSoldOut: r.is_sold_out,
  updatedAt: r.updated_at,
});

/** The stock facts of a variant's row, as the availability rule takes them. */
const stockFacts = (v: VariantRow): StockFacts => ({
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
function toApiVariant(v: VariantRow, held?: Held): Variant {
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

const saleFacts = (p: ProductRow, v: VariantRow) => ({
  productStatus: p.shopifyStatus,
  productRemoved: p.removedAt != null,
  variantRemoved: v.removedAt != null,
  isActive: v.isActive,
  pogPrice: v.pogPrice,
});

/** The title shoppers see: the admin's own, else Shopify's. */
export const productTitle = (customTitle: string | null, title: string): string => customTitle?.trim() || title;

function toApiProduct(p: ProductRow, held: Map<string, Held> = new Map()): Product | null {
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
