/**
 * JSON answers kept in memory with their ETag and their compressed forms, so a request costs no
 * serialisation, no hashing and no compression: the body is compressed once (per catalogue
 * version), not once per request.
 */
import { createHash } from 'node:crypto';
import type { Context } from 'koa';

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

/**
 * Answers `answer` with its ETag (a 304 when the client already has it), in the best coding the
 * client accepts that is ready. Until a stored form is ready the body goes out as it is, and the
 * compression middleware compresses that one response on the fly (streamed, off the main thread).
 */
export function answerPrecompressed(ctx: Context, answer: Precompressed): void {
  ctx.set('ETag', answer.etag);
  // Clients may keep a copy but must revalidate; the ETag makes that a 304.
  ctx.set('Cache-Control', 'no-cache');
  ctx.vary('Accept-Encoding');
  if (matchesEtag(ctx.get('If-None-Match'), answer.etag)) {
    ctx.status = 304;
    return;
  }
  ctx.type = 'application/json';
  const preferred = ctx.acceptsEncodings('br', 'gzip', 'identity');
  const codings: Coding[] = preferred === 'br' ? ['br', 'gzip'] : preferred === 'gzip' ? ['gzip', 'br'] : [];
  for (const coding of codings) {
    if (coding !== preferred && !ctx.acceptsEncodings(coding)) continue;
    const encoded = answer.encoded(coding);
    if (encoded) {
      ctx.compress = false; // already compressed
      ctx.set('Content-Encoding', coding);
      ctx.body = encoded;
      return;
    }
  }
  ctx.body = answer.body;
}
