/**
 * GET /api/cart's answers: the cart's JSON, its ETag (the hash of the session's id and of the JSON:
 * another session's ETag never matches) and, from 1 KB, its compressed forms (made on their first
 * ask, off the event loop, until which the app compresses on the fly), made once per change of the cart
 * or of the catalogue and kept per session, so an unchanged cart is answered without the database,
 * the pricing, the serialisation, the hash or the compression.
 *
 * A kept answer must never be older than the database. Every change to a session's lines, by any
 * writer (an add, a removal, a paid checkout's lines leaving, a swept session), is announced at
 * commit on the channel 'cart_changed' (a trigger: migrations/20261201000000_cart_changes.ts), and the
 * answer is forgotten on hearing it. That is exact only where this process is the database's one
 * client, the embedded PGlite: there the notification of a commit reaches the listener before the
 * committing query's caller goes on, so no answer can be given in between. On Postgres, other
 * instances write too and their notifications arrive a moment after their commit: there nothing is
 * kept, and each read asks the database.
 *
 * A read that began before a change was heard is not kept (its lines may be the older ones), and an
 * answer is for the catalogue version it was priced at: once another version is current, the next
 * read prices the cart again.
 */
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
const MAX_KEPT = 10_000;

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

export class CartAnswers {
  private readonly kept = new Map<string, { version: number; answer: CartAnswer }>();
  /** How many changes were heard: a read that saw another count before it ended is not kept. */
  private changes = 0;
  /** Whether changes are heard (PGlite only); nothing is kept until they are. */
  private hearing = false;
  private listening: Promise<void> | null = null;
  private unlisten: (() => Promise<void>) | null = null;
  private closed = false;

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

  /** The session's kept answer, when it is current; undefined when only `answer` can say. */
  current(sessionId: string): CartAnswer | undefined {
    const kept = this.kept.get(sessionId);
    if (!kept) return undefined;
    return this.catalogue.currentList()?.version === kept.version ? kept.answer : undefined;
  }

  async answer(sessionId: string | null): Promise<CartAnswer> {
    if (!sessionId) return NO_SESSION_ANSWER;
    const current = this.current(sessionId);
    if (current) return current;
    this.listen();
    const changesBefore = this.changes;
    const keep = this.hearing;
    const snapshot = await this.catalogue.list();
    const cart = await this.read(sessionId, snapshot);
    if (!(keep && this.hearing && this.changes === changesBefore)) return answerOf(sessionId, cart);
    const answer = answerOf(sessionId, cart, this.forms);
    if (this.kept.size >= MAX_KEPT) this.kept.delete(this.kept.keys().next().value!);
    this.kept.set(sessionId, { version: snapshot.version, answer });
    return answer;
  }

  /** Starts hearing changes, once, where kept answers are exact (PGlite). */
  private listen(): void {
    if (this.listening || this.closed || dbKind(this.db) !== 'pglite') return;
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
