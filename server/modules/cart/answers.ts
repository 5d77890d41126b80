/**
 * GET /api/cart's answers: the cart's JSON, its ETag (the hash of the session's id and of the JSON:
 * another session's ETag never matches) and, from 1 KB, its compressed forms (made on their first
 * ask, off the event loop, until which the app compresses on the fly), made once per change of the cart
 * or of the catalogue and kept per session, so an unchanged cart is answered without reading its
 * lines, the pricing, the serialisation, the hash or the compression.
 *
 * A kept answer must never be older than the database. Every change to a session's lines, by any
 * writer (an add, a removal, a paid checkout's lines leaving, a swept session), moves the session's
 * cart version in the writer's transaction and is announced at commit on the channel 'cart_changed'
 * (triggers: migrations/20261129020300_cart_changes.ts). Two ways of knowing a kept answer is current,
 * each exact where it is used:
 *  - heard (the embedded PGlite, this process the database's one client): the notification of a
 *    commit reaches the listener before the committing query's caller goes on, so the answer is
 *    forgotten before anyone can be given it; a kept answer is given without any query;
 *  - versioned (Postgres, where other instances write too and their notifications arrive a moment
 *    after their commit): each read asks the database for the session's cart version (one query by
 *    key, shared by the reads that arrive together) and gives the kept answer only when that is the
 *    version it was kept at. The version is read before the lines, so a kept answer's lines are at
 *    least as new as its version.
 *
 * A read that began before a change was heard is not kept (its lines may be the older ones), and an
 * answer is for the catalogue version it was priced at: once another version is current, the next
 * read prices the cart again.
 */
import DataLoader from 'dataloader';
import type { Cart } from '../../../common/api';
import type { Db } from '../../db';
import { dbKind } from '../../db';
import { COMPRESSION_THRESHOLD } from '../../lib/compression';
import type { Logger } from '../../lib/logger';
import { compressedOnce, etagOf, matchesEtag, storedReply, type Precompressed, type StoredReply } from '../../lib/precompressed';
import type { CatalogueService, ProductListSnapshot } from '../catalogue';

export const EMPTY_CART: Cart = Object.freeze({ items: [], total: '0.00' }) as Cart;

/** The channel a change to a session's cart lines is announced on, with the session's id. */
export const CART_CHANNEL = 'cart_changed';

/** The most sessions whose answer this process keeps (the oldest kept is forgotten first). */
export const MAX_KEPT = 10_000;

/** The cart's JSON, its ETag (of the session's id and of the body) and its compressed forms. */
export type CartAnswer = Precompressed;

/**
 * The answer to a cart: its compressed forms are made only for an answer that is kept (each on its
 * first ask, off the event loop: lib/precompressed.ts), not for one read and dropped.
 */
function answerOf(sessionId: string, cart: Cart, forms?: (body: Buffer) => CartAnswer['encoded']): CartAnswer {
  const body = Buffer.from(JSON.stringify(cart));
  return { body, etag: etagOf(sessionId, '\n', body), encoded: forms?.(body) ?? (() => null) };
}

/**
 * What a cart answer is to a request, whoever sends it (the route, or the lane ahead of it): a 304
 * to its ETag; under the compression threshold the JSON as it is; else its stored form in a coding
 * the client takes, or the JSON for the app to compress on the fly (a coding not stored) or not.
 */
export function cartReply(answer: CartAnswer, acceptEncoding: string, ifNoneMatch: string | undefined): StoredReply {
  if (answer.body.length >= COMPRESSION_THRESHOLD) return storedReply(answer, acceptEncoding, ifNoneMatch);
  return matchesEtag(ifNoneMatch, answer.etag) ? { status: 304 } : { status: 200, coding: null, body: answer.body };
}

/** The route's own headers of every cart answer: kept by the shopper's browser only, revalidated on every read. */
export function cartAnswerHeaders(answer: CartAnswer): Array<[string, string]> {
  return [
    ['Cache-Control', 'private, no-cache'],
    ['ETag', answer.etag],
  ];
}

/** The answer without a session: an empty cart. */
export const NO_SESSION_ANSWER = answerOf('', EMPTY_CART);

interface PgLiteListen {
  listen(channel: string, callback: (payload: string) => void): Promise<() => Promise<void>>;
}

/** A kept answer, the catalogue version it was priced at, and the cart version it was read at (null: heard). */
interface Kept {
  catalogue: number;
  cart: string | null;
  answer: CartAnswer;
}

/** Sessions' cart versions: how many times their lines changed ('0': never, or before versions were kept). */
async function cartVersions(db: Db, sessionIds: readonly string[]): Promise<string[]> {
  // Raw: the busiest query of a shop on Postgres, without the query builder's work.
  const { rows } = (await db.raw('select session_id, version from cart_versions where session_id = any(?)', [[...sessionIds]])) as {
    rows: Array<{ session_id: string; version: string }>;
  };
  const found = new Map(rows.map((row) => [row.session_id, String(row.version)]));
  return sessionIds.map((id) => found.get(id) ?? '0');
}

/** The most sessions whose versions one query reads. */
export const MAX_VERSIONS_READ = 500;

export class CartAnswers {
  private readonly kept = new Map<string, Kept>();
  /** How many changes were heard: a read that saw another count before it ended is not kept. */
  private changes = 0;
  /** Whether changes are heard (PGlite only); nothing is kept until they are. */
  private hearing = false;
  private listening: Promise<void> | null = null;
  private unlisten: (() => Promise<void>) | null = null;
  private closed = false;

  /** The version query in flight, if any (settled either way). */
  private versionsRead: Promise<unknown> = Promise.resolve();
  /**
   * The cart versions of the reads that arrive together, read by one query: the reads of one turn
   * of the event loop, or all those that arrived while the last query was in flight (under load,
   * many reads share one round trip; idle, a read waits for none). Nothing is remembered between
   * queries: each is sent after every read it answers arrived, so it sees every change committed
   * before them.
   */
  private readonly versions = new DataLoader<string, string>(
    (ids) => {
      const read = cartVersions(this.db, ids);
      this.versionsRead = read.catch(() => undefined);
      return read;
    },
    {
      cache: false,
      batchScheduleFn: (send) => void this.versionsRead.then(() => setImmediate(send)),
      maxBatchSize: MAX_VERSIONS_READ,
    },
  );

  constructor(
    private readonly db: Db,
    private readonly catalogue: CatalogueService,
    private readonly read: (sessionId: string, snapshot: ProductListSnapshot) => Promise<Cart>,
    private readonly logger?: Logger,
  ) {}

  private readonly forms = (body: Buffer) =>
    compressedOnce(body, (err, coding) =>
      this.logger?.warn({ err, coding }, 'cart: an answer could not be compressed; answering it as it is'),
    );

  /** Whether kept answers are known current by hearing changes (PGlite) rather than by their version. */
  private get heard(): boolean {
    return dbKind(this.db) === 'pglite';
  }

  /** The session's kept answer priced at the current catalogue, whatever its cart version. */
  private keptNow(sessionId: string): Kept | undefined {
    const kept = this.kept.get(sessionId);
    return kept && this.catalogue.currentList()?.version === kept.catalogue ? kept : undefined;
  }

  /**
   * The session's kept answer when it is current: at once where changes are heard, after reading
   * the cart's version where they are not (a promise); undefined when only `answer` can say.
   */
  ready(sessionId: string): CartAnswer | undefined | Promise<CartAnswer | undefined> {
    const kept = this.keptNow(sessionId);
    if (!kept || kept.cart === null) return kept?.answer;
    // A read that fails leaves the request to the app, which reads again and answers as it does.
    return this.versions.load(sessionId).then(
      (version) => (version === kept.cart && this.keptNow(sessionId) === kept ? kept.answer : undefined),
      () => undefined,
    );
  }

  async answer(sessionId: string | null): Promise<CartAnswer> {
    if (!sessionId) return NO_SESSION_ANSWER;
    if (!this.heard) return this.versioned(sessionId);
    const current = this.keptNow(sessionId);
    if (current) return current.answer;
    this.listen();
    const changesBefore = this.changes;
    const keep = this.hearing;
    const snapshot = await this.catalogue.list();
    const cart = await this.read(sessionId, snapshot);
    if (!(keep && this.hearing && this.changes === changesBefore)) return answerOf(sessionId, cart);
    return this.keep(sessionId, { catalogue: snapshot.version, cart: null, answer: answerOf(sessionId, cart, this.forms) });
  }

  /** The answer where kept answers carry their cart version: the version first, the lines only when it moved. */
  private async versioned(sessionId: string): Promise<CartAnswer> {
    const version = await this.versions.load(sessionId);
    const snapshot = await this.catalogue.list();
    const kept = this.kept.get(sessionId);
    if (kept && kept.cart === version && kept.catalogue === snapshot.version) return kept.answer;
    const cart = await this.read(sessionId, snapshot);
    if (this.closed) return answerOf(sessionId, cart);
    return this.keep(sessionId, { catalogue: snapshot.version, cart: version, answer: answerOf(sessionId, cart, this.forms) });
  }

  private keep(sessionId: string, kept: Kept): CartAnswer {
    this.kept.delete(sessionId);
    if (this.kept.size >= MAX_KEPT) this.kept.delete(this.kept.keys().next().value!);
    this.kept.set(sessionId, kept);
    return kept.answer;
  }

  /** Starts hearing changes, once, where that is exact (PGlite). */
  private listen(): void {
    if (this.listening || this.closed || !this.heard) return;
    const pglite = (this.db.client as unknown as { pglite?: PgLiteListen }).pglite;
    if (!pglite) return;
    this.listening = pglite
      .listen(CART_CHANNEL, (sessionId) => {
        this.changes++;
        this.kept.delete(sessionId);
      })
      .then(
        async (unlisten) => {
          if (this.closed) return void (await unlisten());
          this.unlisten = unlisten;
          this.hearing = true;
        },
        // Not heard: nothing is kept, every read asks the database.
        () => undefined,
      );
  }

  /** Stops hearing changes and forgets every answer. */
  async close(): Promise<void> {
    this.closed = true;
    this.hearing = false;
    this.kept.clear();
    await this.listening;
    await this.unlisten?.().catch(() => undefined);
  }
}
