/**
 * One catalogue version in memory, held once: the listed products (their API form, their JSON and
 * their index terms, kept across versions while they do not change) and nothing that copies them.
 *
 * Each product's JSON is made once, when the product is read: a full build writes every product's
 * into one buffer (each product's JSON a view into it), an update writes the few it read again into
 * a small one. The list's JSON is `[` + the products' JSON joined by `,` + `]`, never kept whole: its
 * compressed forms are made from the parts (once per version), and the identity body is joined only
 * when a request needs it (and kept only while one uses it). So a new version copies no JSON, and
 * what keeps an older buffer alive is only a product still listed from it: at most the last full
 * build's buffer beyond the JSON in use.
 *
 * A snapshot is assembled from its listed products in the featured (row id) order the same way
 * however they came: all read (a full build), or most taken from the previous snapshot and the few
 * that changed read again (an update). So an update gives exactly the list a full build gives: the
 * same bytes, ETag, product answers and index.
 */
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { brotliCompressSync, createBrotliCompress, createGzip, gzipSync } from 'node:zlib';
import type { Product, Variant } from '../../../common/api';
import type { Logger } from '../../lib/logger';
import { BROTLI_OPTIONS, GZIP_OPTIONS, type Coding, type Precompressed } from '../../lib/precompressed';
import { byRank, CatalogueIndex, type IndexedProduct } from './product-query';

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
  /** The list's JSON (`[product, …]`), joined on demand. */
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

/** A listed product as versions share it: its API form, its JSON and (once an index made them) its index terms. */
export interface ListedProduct extends IndexedProduct {
  /** Its row id: its place in the featured order. */
  rank: number;
  /** Its JSON (a view into the buffer it was written into). */
  json: Buffer;
  /** The SHA-1 of its JSON: its answer's ETag, and its share of the list's. */
  digest: Buffer;
}

/**
 * Listed products made of freshly read products (in the featured order) and their JSON, written
 * into one buffer of their own size, a slice at a time.
 */
export async function toListed(
  read: ReadonlyArray<{ rank: number; product: Product; json: string }>,
  pause: () => Promise<void>,
): Promise<ListedProduct[]> {
  let length = 0;
  for (const { json } of read) length += Buffer.byteLength(json);
  // Memory of its own (not a slice of Node's shared pool): freed once none of these is listed.
  const buffer = Buffer.allocUnsafeSlow(length);
  const listed: ListedProduct[] = [];
  let at = 0;
  for (const { rank, product, json } of read) {
    const end = at + buffer.write(json, at);
    const bytes = buffer.subarray(at, end);
    listed.push({ rank, product, json: bytes, digest: createHash('sha1').update(bytes).digest() });
    at = end;
    if (listed.length % ASSEMBLY_SLICE === 0) await pause();
  }
  return listed;
}

/** A product's compressed forms, once made. */
type KeptAnswer = Partial<Record<Coding, Buffer>>;

/** The most products' compressed answers (about 1 KB each) kept per catalogue version. */
const MAX_PRODUCT_ANSWERS = 2000;
/** Products written, mapped or hashed between two yields to the event loop. */
const ASSEMBLY_SLICE = 2000;
/** The list's JSON goes to compression in blocks of about this many bytes. */
const BLOCK = 1 << 20;

/**
 * A small body compressed, in a buffer of its own size: zlib's synchronous calls answer a view into
 * a 16 KB chunk, which would keep the whole chunk alive for a few dozen bytes.
 */
function compressSync(coding: Coding, body: Buffer): Buffer {
  const out = coding === 'br' ? brotliCompressSync(body, BROTLI_OPTIONS) : gzipSync(body, GZIP_OPTIONS);
  return Buffer.from(out);
}

export class CatalogueSnapshot implements ProductListSnapshot {
  readonly products: Product[];
  readonly byId: Map<string, Product>;
  readonly variantsById: Map<string, ListedVariant>;
  /** Each listed product's kept form, by id. */
  private readonly items: Map<string, ListedProduct>;
  private readonly compressed: Partial<Record<Coding, Buffer>> = {};
  private readonly compressing: Partial<Record<Coding, Promise<void>>> = {};
  /** The joined body while a request holds it. */
  private joined: WeakRef<Buffer> | null = null;
  private indexing: Promise<CatalogueIndex> | null = null;
  /** This version's index once built (the next version's index is made from it). */
  private indexed: CatalogueIndex | null = null;
  /**
   * An earlier version's built index and the products (ranks) changed since it, while this version's
   * own index is not made: it is made from that one. At most one older index is kept so.
   */
  private indexBase: { index: CatalogueIndex; changed: ReadonlySet<number> } | null = null;

  private constructor(
    /** The catalogue version read before the rows: the list is at least this new. */
    readonly version: number,
    /** The listed products in the featured order, the next version's parts. */
    readonly listed: readonly ListedProduct[],
    /** The length of the list's JSON. */
    private readonly length: number,
    readonly etag: string,
    private readonly answers: Map<string, KeptAnswer>,
    private readonly pause: () => Promise<void>,
    private readonly logger?: Logger,
    base?: CatalogueSnapshot,
  ) {
    this.products = listed.map((item) => item.product);
    // Made from an earlier version's lookups (copied whole, then the changes applied) or afresh.
    this.byId = new Map(base?.byId);
    this.variantsById = new Map(base?.variantsById);
    this.items = new Map(base?.items);
  }

  private add(item: ListedProduct): void {
    const { product } = item;
    this.byId.set(product.id, product);
    this.items.set(product.id, item);
    for (const variant of product.variants) this.variantsById.set(variant.id, { product, variant });
  }

  private remove(item: ListedProduct): void {
    this.byId.delete(item.product.id);
    this.items.delete(item.product.id);
    for (const variant of item.product.variants) this.variantsById.delete(variant.id);
  }

  /**
   * The snapshot of `listed` (in the featured order). Its ETag is the SHA-1 of its products' digests
   * in order: it changes exactly when the list's JSON does. Compressed answers of `previous` are kept
   * for the products listed there as the same object (those that did not change).
   */
  static async assemble(
    version: number,
    listed: readonly ListedProduct[],
    opts: {
      pause: () => Promise<void>;
      logger?: Logger;
      /** The version this one is made from, and the products (ranks) read again for it. */
      previous?: CatalogueSnapshot;
      changed?: ReadonlySet<number>;
    },
  ): Promise<CatalogueSnapshot> {
    const { pause, previous, changed } = opts;
    let length = 2 + Math.max(0, listed.length - 1);
    const digests = Buffer.allocUnsafe(listed.length * 20);
    for (let i = 0; i < listed.length; i++) {
      length += listed[i].json.length;
      listed[i].digest.copy(digests, i * 20);
    }
    const etag = `"${createHash('sha1').update('products:').update(digests).digest('base64url')}"`;
    const answers = new Map<string, KeptAnswer>();
    const base = previous && changed ? previous : undefined;
    const snap = new CatalogueSnapshot(version, listed, length, etag, answers, pause, opts.logger, base);
    if (base && changed) {
      for (const rank of changed) {
        const before = byRank(base.listed, rank);
        if (before) snap.remove(before);
      }
      for (const rank of changed) {
        const after = byRank(listed, rank);
        if (after) snap.add(after);
      }
    } else {
      for (let i = 0; i < listed.length; i++) {
        snap.add(listed[i]);
        if (i % ASSEMBLY_SLICE === ASSEMBLY_SLICE - 1) await pause();
      }
    }
    if (previous) {
      for (const [id, answer] of previous.answers) if (snap.itemOf(id) === previous.itemOf(id)) answers.set(id, answer);
    }
    if (previous && changed) {
      if (previous.indexed) snap.indexBase = { index: previous.indexed, changed };
      else if (previous.indexBase)
        snap.indexBase = { index: previous.indexBase.index, changed: new Set([...previous.indexBase.changed, ...changed]) };
    }
    return snap;
  }

  private itemOf(id: string): ListedProduct | undefined {
    return this.items.get(id);
  }

  /** The list's JSON in blocks of about a megabyte (a product never split across two). */
  private *blocks(): Generator<Buffer> {
    let block = Buffer.allocUnsafe(BLOCK);
    let at = 0;
    const comma = Buffer.from(',');
    const parts = [Buffer.from('['), ...this.listed.flatMap((item, i) => (i === 0 ? [item.json] : [comma, item.json])), Buffer.from(']')];
    for (const part of parts) {
      if (at + part.length > block.length) {
        yield block.subarray(0, at);
        block = Buffer.allocUnsafe(Math.max(BLOCK, part.length));
        at = 0;
      }
      at += part.copy(block, at);
    }
    yield block.subarray(0, at);
  }

  /** The list's JSON, joined when a request needs it whole (kept while one uses it). */
  get body(): Buffer {
    const held = this.joined?.deref();
    if (held) return held;
    const body = Buffer.allocUnsafeSlow(this.length);
    let at = 0;
    for (const block of this.blocks()) at += block.copy(body, at);
    this.joined = new WeakRef(body);
    return body;
  }

  /**
   * The body compressed once per catalogue version, not once per request: null until it is ready
   * (the first ask starts it, in libuv's thread pool, never on the event loop).
   */
  encoded(coding: Coding): Buffer | null {
    this.compressing[coding] ??= buffer(
      Readable.from(this.blocks()).pipe(coding === 'br' ? createBrotliCompress(BROTLI_OPTIONS) : createGzip(GZIP_OPTIONS)),
    ).then(
      (compressed) => {
        this.compressed[coding] = compressed;
      },
      (err: unknown) => this.logger?.warn({ err, coding }, 'catalogue: the product list could not be compressed; answering it as it is'),
    );
    return this.compressed[coding] ?? null;
  }

  /**
   * Search, filters, sort and pages over this version, made on first ask: from an earlier version's
   * index when this version was made from it (only the changed products' words and places worked
   * out again), else built in slices from every product's terms.
   */
  index(): Promise<CatalogueIndex> {
    const base = this.indexBase;
    return (this.indexing ??= (
      base ? CatalogueIndex.derive(base.index, this.listed, base.changed, this.pause) : CatalogueIndex.build(this.listed, this.pause)
    ).then((index) => {
      this.indexed = index;
      this.indexBase = null;
      return index;
    }));
  }

  /**
   * One product's answer: its JSON, its ETag (its digest), each compressed form made on first ask (a
   * product is a few kilobytes: well under a millisecond, once per catalogue version, kept by the
   * next versions while the product does not change).
   */
  product(id: string): Precompressed | undefined {
    const item = this.itemOf(id);
    if (!item) return undefined;
    let compressed = this.answers.get(id);
    if (!compressed) {
      if (this.answers.size >= MAX_PRODUCT_ANSWERS) this.answers.delete(this.answers.keys().next().value!);
      this.answers.set(id, (compressed = {}));
    }
    const kept = compressed;
    const body = item.json;
    return {
      body,
      etag: `"${item.digest.toString('base64url')}"`,
      encoded: (coding) => (kept[coding] ??= compressSync(coding, body)),
    };
  }
}
