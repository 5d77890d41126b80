/**
 * JSON answers kept in memory with their ETag and their compressed forms, so a request costs no
 * serialisation, no hashing and no compression: the body is compressed once (per catalogue
 * version), not once per request.
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlibConstants, gzip } from 'node:zlib';
import accepts from 'accepts';
import type { Context } from 'koa';
import { boundedMemo } from './bounded-memo';

export type Coding = 'br' | 'gzip';

export interface Precompressed {
  /** A strong ETag of the identity body. */
  etag: string;
  /** The uncompressed JSON. */
  body: Buffer;
  /** The body in `coding`, or null while it is still being compressed (it is then started). */
  encoded(coding: Coding): Buffer | null;
}

/** A strong ETag: the SHA-1 of the parts, in base64url. */
export function etagOf(...parts: Array<string | Buffer>): string {
  const hash = createHash('sha1');
  for (const part of parts) hash.update(part);
  return `"${hash.digest('base64url')}"`;
}

/** Whether an If-None-Match header names `etag` (a list, `*`, or weak forms of it). */
export function matchesEtag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t === etag || t === `W/${etag}`;
  });
}

/** How many distinct Accept-Encoding values' choices are kept. */
const ACCEPT_VALUES_KEPT = 256;

/**
 * The stored codings a client takes, best first (its own preference between br and gzip, as Koa's
 * `acceptsEncodings` reads it): a few distinct header values in practice, each worked out once.
 */
const choices = boundedMemo<Coding[]>(ACCEPT_VALUES_KEPT);
function storedCodingsFor(acceptEncoding: string): Coding[] {
  return choices(acceptEncoding, () => {
    // An absent header reads as an empty one (negotiator).
    const accept = accepts({ headers: { 'accept-encoding': acceptEncoding } } as unknown as IncomingMessage);
    const preferred = accept.encodings('br', 'gzip', 'identity');
    const order: Coding[] = preferred === 'br' ? ['br', 'gzip'] : preferred === 'gzip' ? ['gzip', 'br'] : [];
    return order.filter((coding) => coding === preferred || accept.encodings(coding) === coding);
  });
}

/** What a stored answer is to a request, whoever sends it (Koa's route, or the lane ahead of it). */
export type StoredReply =
  | { status: 304 }
  | { status: 200; coding: Coding; body: Buffer }
  /** No stored form the client takes is ready: the identity body, compressed on the fly if at all. */
  | { status: 200; coding: null; body: Buffer };

export function storedReply(answer: Precompressed, acceptEncoding: string, ifNoneMatch: string | undefined): StoredReply {
  if (matchesEtag(ifNoneMatch, answer.etag)) return { status: 304 };
  for (const coding of storedCodingsFor(acceptEncoding)) {
    const encoded = answer.encoded(coding);
    if (encoded) return { status: 200, coding, body: encoded };
  }
  return { status: 200, coding: null, body: answer.body };
}

/** The headers of every stored answer: its ETag, and a copy may be kept but must be revalidated. */
export function storedAnswerHeaders(answer: Precompressed): Array<[string, string]> {
  return [
    ['ETag', answer.etag],
    ['Cache-Control', 'no-cache'],
  ];
}

/**
 * Answers `answer` with its ETag (a 304 when the client already has it), in the best coding the
 * client accepts that is ready. Until a stored form is ready the body goes out as it is, and the
 * compression middleware compresses that one response on the fly (streamed, off the main thread).
 */
export function answerPrecompressed(ctx: Context, answer: Precompressed): void {
  for (const [name, value] of storedAnswerHeaders(answer)) ctx.set(name, value);
  ctx.vary('Accept-Encoding');
  const reply = storedReply(answer, ctx.get('Accept-Encoding'), ctx.get('If-None-Match'));
  if (reply.status === 304) {
    ctx.status = 304;
    return;
  }
  ctx.type = 'application/json';
  if (reply.coding) {
    ctx.compress = false; // already compressed
    ctx.set('Content-Encoding', reply.coding);
  }
  ctx.body = reply.body;
}

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);
/** The stored forms' levels: made once per answer and catalogue version, so the smallest is worth it. */
export const BROTLI_OPTIONS = { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 9 } };
export const GZIP_OPTIONS = { level: 9 };

/**
 * A body's `encoded`: each form compressed once, on the first ask, in libuv's thread pool (never on
 * the event loop); null until it is ready. A failure is reported once and the body goes out as it is.
 */
export function compressedOnce(body: Buffer, onError: (err: unknown, coding: Coding) => void): Precompressed['encoded'] {
  const compressed: Partial<Record<Coding, Buffer>> = {};
  const compressing: Partial<Record<Coding, Promise<void>>> = {};
  return (coding) => {
    compressing[coding] ??= (coding === 'br' ? brotliAsync(body, BROTLI_OPTIONS) : gzipAsync(body, GZIP_OPTIONS)).then(
      (buffer) => {
        compressed[coding] = buffer;
      },
      (err: unknown) => onError(err, coding),
    );
    return compressed[coding] ?? null;
  };
}
