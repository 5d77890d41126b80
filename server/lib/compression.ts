/**
 * Response compression (koa-compress) that never fails a request over its Accept-Encoding.
 *
 * koa-compress 5 throws a TypeError (a 500) when the client accepts none of its codings: for
 * `identity;q=0` alone, `*;q=0`, or only codings it lacks. Such a response goes out without a
 * content coding instead: RFC 9110 §12.5.3 lets a server disregard Accept-Encoding rather than
 * answer 406, and since RFC 7231 that is the interoperable choice (httpwg/http-core#980): clients
 * list the codings they like, and plain bytes are readable by all of them.
 */
import type { Context, Middleware } from 'koa';
import compress from 'koa-compress';
import { boundedMemo } from './bounded-memo';

/** Answers smaller than this many bytes are sent as they are (the app's setting). */
export const COMPRESSION_THRESHOLD = 1024;

/** How many distinct Accept-Encoding values' verdicts are kept. */
const ACCEPT_VALUES_KEPT = 256;

export function compression(opts: { threshold: number }): Middleware {
  const compressor = compress({ threshold: opts.threshold });
  // The codings this koa-compress can produce on this Node (zstd only where zlib has it).
  const codings = (compressor as { preferredEncodings?: string[] }).preferredEncodings ?? ['br', 'gzip', 'deflate', 'identity'];
  // Whether a client's Accept-Encoding takes any of them: a few distinct header values in practice,
  // each worked out once.
  const verdicts = boundedMemo<boolean>(ACCEPT_VALUES_KEPT);
  const acceptsAny = (ctx: Context) => verdicts(ctx.get('Accept-Encoding'), () => ctx.acceptsEncodings(codings) !== false);
  return (ctx, next) =>
    compressor(ctx, async () => {
      await next();
      // An answer already encoded (the stored br and gzip forms), or without a body, is not compressed here.
      if (ctx.body == null || ctx.response.get('Content-Encoding')) return;
      if (!acceptsAny(ctx)) ctx.compress = false;
    });
}
