/**
 * Makes the product list (snapshot.ts) at the newest committed catalogue version: when every
 * version since the previous list names the products it changed (change-log.ts), and they are not
 * too many, only those are read again and the rest kept; otherwise every product is read, in
 * slices that give the event loop back between them.
 */
import type { Db } from '../../db';
import { getState } from '../../lib/app-state';
import type { Logger } from '../../lib/logger';
import { catalogueRebuilds } from '../../lib/metrics';
import type { StockService } from '../stock';
import { readCatalogueRows, toApiProduct, type ProductRow } from './catalogue-rows';
import { changedSince, UPDATE_SHARE } from './change-log';
import { CATALOGUE_VERSION } from './freshness';
import { CatalogueSnapshot, toListed, type ListedProduct } from './snapshot';

/** Products converted (and serialised) between two yields to the event loop while a list is built. */
const BUILD_SLICE = 100;

/** Gives the event loop back: requests waiting meanwhile are answered before the build goes on. */
const pause = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A product read and converted, with its JSON. */
type Read = Parameters<typeof toListed>[0][number];

export class SnapshotBuilder {
  /** How many lists were made by reading every product, and by reading only those changed. */
  readonly builds = { full: 0, update: 0 };

  constructor(
    private readonly db: Db,
    /** What payments on their way hold: the list's stock is what is left after it. */
    private readonly stock: StockService,
    private readonly logger?: Logger,
  ) {}

  /**
   * The list at the newest committed version: `previous` with only the products changed since it
   * read again, when the change log names them all (and they are not too many); else every product.
   */
  async build(previous: CatalogueSnapshot | null): Promise<CatalogueSnapshot> {
    // The version first: the rows read after it are at least as new.
    const version = Number((await getState<number>(this.db, CATALOGUE_VERSION)) ?? 0);
    if (previous && version >= previous.version) {
      const changed = version === previous.version ? new Set<number>() : await changedSince(this.db, previous.version, version);
      if (changed && changed.size <= Math.max(100, previous.listed.length * UPDATE_SHARE)) {
        this.builds.update++;
        catalogueRebuilds.inc({ kind: 'update' });
        return this.update(previous, version, changed);
      }
    }
    this.builds.full++;
    catalogueRebuilds.inc({ kind: 'full' });
    return this.buildAll(version);
  }

  /**
   * Reads every product and builds the list in slices (each a millisecond or two), giving the event
   * loop back between them, so a catalogue of thousands of products never holds up other requests.
   * The compressed forms and the search index come after, off the request path.
   */
  private async buildAll(version: number): Promise<CatalogueSnapshot> {
    // Read after the version: a change to what is held bumps the version, so this is never older.
    const held = await this.stock.held(this.db, new Date());
    const read: Read[] = [];
    // Converted as they are read (no more than a batch of rows held at once), a slice at a time.
    await readCatalogueRows(this.db, pause, async (rows) => {
      for (let start = 0; start < rows.length; start += BUILD_SLICE) {
        for (const row of rows.slice(start, start + BUILD_SLICE)) {
          const product = toApiProduct(row, held);
          if (product) read.push({ rank: row.id, product, json: JSON.stringify(product) });
        }
        await pause();
      }
    });
    return CatalogueSnapshot.assemble(version, await toListed(read, pause), { pause, logger: this.logger });
  }

  /**
   * `previous` brought to `version`: the products `changed` (row ids) read again with what is held
   * for their variants, every other product's form, JSON and index terms kept as they were.
   */
  private async update(previous: CatalogueSnapshot, version: number, changed: ReadonlySet<number>): Promise<CatalogueSnapshot> {
    const rows: ProductRow[] = [];
    await readCatalogueRows(this.db, pause, (batch) => void rows.push(...batch), [...changed]);
    const variantIds = rows.flatMap((row) => row.variants.map((v) => v.shopifyId));
    const held = variantIds.length ? await this.stock.held(this.db, new Date(), { variantIds }) : new Map();
    // Still listed or newly listed, in the featured (row id) order.
    const fresh = await toListed(
      rows.flatMap((row) => {
        const product = toApiProduct(row, held);
        return product ? [{ rank: row.id, product, json: JSON.stringify(product) }] : [];
      }),
      pause,
    );
    const listed: ListedProduct[] = [];
    let next = 0;
    for (const item of previous.listed) {
      while (next < fresh.length && fresh[next].rank < item.rank) listed.push(fresh[next++]);
      if (!changed.has(item.rank)) listed.push(item);
    }
    listed.push(...fresh.slice(next));
    return CatalogueSnapshot.assemble(version, listed, { pause, logger: this.logger, previous, changed });
  }
}
