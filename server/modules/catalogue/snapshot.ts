/**
 * One catalogue version in memory, held once: the listed products (their API form and index terms,
 * kept across versions while they do not change), the list's JSON in one buffer, and each product's
 * answer as a view into that buffer (no copy of its JSON).
 *
 * A snapshot is assembled from its parts, each product's JSON and kept form in the featured (row id)
 * order, the same way however they came: all read and converted (a full build), or most taken from
 * the previous snapshot and the few that changed read again (an update). So an update gives exactly
 * the list a full build gives: the same bytes, ETag, product answers and index.
 *
 * A new snapshot copies its products' JSON into its own buffer: nothing of it points into an older
 * one, so an older version's buffer is freed once no request uses it.
 */
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, brotliCompressSync, constants as zlibConstants, gzip, gzipSync } from 'node:zlib';
import type { Product, Variant } from '../../../common/api';
import type { Logger } from '../../lib/logger';
import { etagOf, type Coding, type Precompressed } from '../../lib/precompressed';
import { CatalogueIndex, type IndexedProduct } from './product-query';

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
  /** The list's JSON (`[product, …]`). */
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

/** A listed product as versions share it: its API form and (once an index made them) its index terms. */
export interface ListedProduct extends IndexedProduct {
  /** Its row id: its place in the featured order. */
  rank: number;
}

/**
 * One product of a snapshot being assembled: its kept form and its JSON (a string when just made,
 * written straight into the list's buffer: no buffer of its own to free).
 */
export interface SnapshotPart {
  item: ListedProduct;
  json: Buffer | string;
}

/** A product's answer as a version keeps it: its ETag and its compressed forms, once made. */
interface KeptAnswer {
  etag: string;
  compressed: Partial<Record<Coding, Buffer>>;
}

/** The most products' answers (ETag and compressed forms, about 1 KB each) kept per catalogue version. */
const MAX_PRODUCT_ANSWERS = 2000;
/** Products copied, mapped or hashed between two yields to the event loop. */
const ASSEMBLY_SLICE = 2000;
/** Bytes hashed between two yields to the event loop. */
const HASH_SLICE = 1 << 20;

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);
const BROTLI = { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 9 } };
const GZIP = { level: 9 };

/**
 * A small body compressed, in a buffer of its own size: zlib's synchronous calls answer a view into
 * a 16 KB chunk, which would keep the whole chunk alive for a few dozen bytes.
 */
function compressSync(coding: Coding, body: Buffer): Buffer {
  const out = coding === 'br' ? brotliCompressSync(body, BROTLI) : gzipSync(body, GZIP);
  return Buffer.from(out);
}

export class CatalogueSnapshot implements ProductListSnapshot {
  readonly products: Product[] = [];
  readonly byId = new Map<string, Product>();
  readonly variantsById = new Map<string, ListedVariant>();
  /** Each listed product's position in `listed`, by id. */
  private readonly positions = new Map<string, number>();
  private readonly compressed: Partial<Record<Coding, Buffer>> = {};
  private readonly compressing: Partial<Record<Coding, Promise<void>>> = {};
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
    readonly body: Buffer,
    /** Where each listed product's JSON ends in `body` (it starts one byte after the previous one's end). */
    private readonly ends: Uint32Array,
    readonly etag: string,
    private readonly answers: Map<string, KeptAnswer>,
    private readonly pause: () => Promise<void>,
    private readonly logger?: Logger,
  ) {}

  /**
   * The snapshot of `parts` (in the featured order): the list's JSON is `[` + their JSON joined by
   * `,` + `]`, its ETag the SHA-1 of that. `keptAnswers` are answers of an older version, kept for
   * the products whose JSON is the same object's (the products that did not change).
   */
  static async assemble(
    version: number,
    parts: readonly SnapshotPart[],
    opts: {
      pause: () => Promise<void>;
      logger?: Logger;
      /** The version this one is made from, and the products (ranks) read again for it. */
      previous?: CatalogueSnapshot;
      changed?: ReadonlySet<number>;
    },
  ): Promise<CatalogueSnapshot> {
    const { pause } = opts;
    let length = 2 + Math.max(0, parts.length - 1);
    for (const { json } of parts) length += typeof json === 'string' ? Buffer.byteLength(json) : json.length;
    // Memory of its own (not a slice of Node's shared pool): freed with this version.
    const body = Buffer.allocUnsafeSlow(length);
    const ends = new Uint32Array(parts.length);
    let at = 0;
    body[at++] = 0x5b; // [
    for (let i = 0; i < parts.length; i++) {
      if (i > 0) body[at++] = 0x2c; // ,
      const { json } = parts[i];
      at += typeof json === 'string' ? body.write(json, at) : json.copy(body, at);
      ends[i] = at;
      if (i % ASSEMBLY_SLICE === ASSEMBLY_SLICE - 1) await pause();
    }
    body[at++] = 0x5d; // ]
    const hash = createHash('sha1');
    for (let start = 0; start < body.length; start += HASH_SLICE) {
      hash.update(body.subarray(start, start + HASH_SLICE));
      await pause();
    }
    const answers = new Map<string, KeptAnswer>();
    const snap = new CatalogueSnapshot(
      version,
      parts.map((p) => p.item),
      body,
      ends,
      `"${hash.digest('base64url')}"`,
      answers,
      pause,
      opts.logger,
    );
    for (let i = 0; i < parts.length; i++) {
      const { product } = parts[i].item;
      snap.products.push(product);
      snap.byId.set(product.id, product);
      snap.positions.set(product.id, i);
      for (const variant of product.variants) snap.variantsById.set(variant.id, { product, variant });
      if (i % ASSEMBLY_SLICE === ASSEMBLY_SLICE - 1) await pause();
    }
    // An unchanged product (the same object) has the same JSON: its ETag and compressed forms hold.
    const { previous, changed } = opts;
    if (previous) {
      for (const [id, answer] of previous.answers) if (snap.byId.get(id) === previous.byId.get(id)) answers.set(id, answer);
    }
    if (previous && changed) {
      if (previous.indexed) snap.indexBase = { index: previous.indexed, changed };
      else if (previous.indexBase)
        snap.indexBase = { index: previous.indexBase.index, changed: new Set([...previous.indexBase.changed, ...changed]) };
    }
    return snap;
  }

  /** This version's JSON of the product at `position` in `listed`: a view into the list's body. */
  jsonAt(position: number): Buffer {
    return this.body.subarray(position === 0 ? 1 : this.ends[position - 1] + 1, this.ends[position]);
  }

  /**
   * The body compressed once per catalogue version, not once per request: null until it is ready
   * (the first ask starts it, in libuv's thread pool, never on the event loop).
   */
  encoded(coding: Coding): Buffer | null {
    this.compressing[coding] ??= (coding === 'br' ? brotliAsync(this.body, BROTLI) : gzipAsync(this.body, GZIP)).then(
      (buffer) => {
        this.compressed[coding] = buffer;
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
   * One product's answer: its JSON (a view into the list's body), its ETag, each compressed form made
   * on first ask (a product is a few kilobytes: well under a millisecond, once per catalogue version,
   * kept by the next versions while the product does not change).
   */
  product(id: string): Precompressed | undefined {
    const position = this.positions.get(id);
    if (position === undefined) return undefined;
    const body = this.jsonAt(position);
    let kept = this.answers.get(id);
    if (!kept) {
      if (this.answers.size >= MAX_PRODUCT_ANSWERS) this.answers.delete(this.answers.keys().next().value!);
      this.answers.set(id, (kept = { etag: etagOf(body), compressed: {} }));
    }
    const { etag, compressed } = kept;
    return { body, etag, encoded: (coding) => (compressed[coding] ??= compressSync(coding, body)) };
  }
}
