/**
 * The shop's catalogue as shoppers see it: only products Shopify lists as ACTIVE, and of those only
 * variants an admin activated and priced in POG; a product with none is hidden.
 *
 * The product list is served from memory (snapshot.ts) and made again only when the catalogue
 * version (bumped in the same transaction as every change, by any server instance) moves on. A
 * request reads no version: new versions are learned from change notifications (freshness.ts), or,
 * while those are not heard, by reading the version at most every `stalenessMs`. When every version
 * since the list's names the products it changed (change-log.ts), only those are read again and
 * the rest kept; otherwise every product is read (snapshot-builder.ts).
 */
import { catalogueSyncDuration, catalogueSyncErrors } from '../../lib/metrics';
import type { Product, SyncJob, SyncResult } from '../../../common/api';
import { productIdSchema } from '../../../common/api';
import { ErrorCode } from '../../../common/errors';
import { toCount, type Db } from '../../db';
import { AppError } from '../../lib/errors';
import { isLostDatabaseConnection } from '../../lib/db-errors';
import type { Logger } from '../../lib/logger';
import type { StockService } from '../stock';
import type { ShopifyGraphql } from '../../shopify';
import { getState, setState } from '../../lib/app-state';
import { bumpCatalogueVersion, SyncInProgressError, syncCatalogue, type SyncOptions } from './sync';
import { SyncJobs, type SyncJobOptions, type SyncStart } from './sync-job';
import { CatalogueWebhooks } from './webhooks';
import { CatalogueFreshness, type FreshnessOptions } from './freshness';
import type { CataloguePageQuery } from '../../../common/catalogue-query';
import { PageAnswers } from './page-answers';
import { type Precompressed } from '../../lib/precompressed';
import type { CatalogueSnapshot, ProductListSnapshot } from './snapshot';
import { SnapshotBuilder } from './snapshot-builder';

export type { ListedVariant, ProductListSnapshot } from './snapshot';
export { productTitle } from './catalogue-rows';

export class CatalogueService {
  private snapshot: CatalogueSnapshot | null = null;
  private building: Promise<CatalogueSnapshot> | null = null;
  /** Syncs as background jobs, one at a time across every instance (sync-job.ts). */
  private readonly jobs: SyncJobs;
  /** products/* and inventory_levels/update webhooks (webhooks.ts). */
  readonly webhooks: CatalogueWebhooks;
  /** Which catalogue version is the newest (notifications, with a bounded-staleness fallback). */
  readonly freshness: CatalogueFreshness;
  /** The page route's and the facets' answers, stored per snapshot (page-answers.ts). */
  readonly pages: PageAnswers;
  /** Makes the list at the newest version: from every product, or the previous list and those changed (snapshot-builder.ts). */
  private readonly builder: SnapshotBuilder;

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
    this.builder = new SnapshotBuilder(db, stock, logger);
  }

  /** How many lists this instance made by reading every product, and by reading only those changed (tests, logs). */
  get builds(): { readonly full: number; readonly update: number } {
    return this.builder.builds;
  }

  /**
   * The listed products, JSON body and ETag, from memory while no newer catalogue version is known
   * (no database read); rebuilt once per change, concurrent requests sharing the rebuild.
   */
  async list(): Promise<ProductListSnapshot> {
    const snap = this.snapshot;
    if (snap && this.freshness.isCurrent(snap.version)) return snap;
    // A worker (server/workers.ts); started here too for a request that comes before the workers.
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

  /** How many products the shop has from Shopify (removed ones not counted): a database read, for the health route. */
  async productCount(): Promise<number> {
    const [row] = await this.db('products').whereNull('removed_at').count({ n: '*' });
    return toCount(row?.n);
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
      await bumpCatalogueVersion(trx); // every variant may have changed
      return updated;
    });
  }

  private async rebuild(): Promise<CatalogueSnapshot> {
    const knownAtStart = this.freshness.known;
    const snap = await this.builder.build(this.snapshot);
    this.freshness.builtAt(snap.version, knownAtStart);
    if (!this.snapshot || snap.version >= this.snapshot.version) this.snapshot = snap;
    return snap;
  }
}

function truncate(s: string, n = 40): string {
  return s.length > n ? `${s.slice(0, n)}…` : s;
}
