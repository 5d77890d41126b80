/**
 * Response compression (koa-compress) that never fails a request over its Accept-Encoding.
 *
 * koa-compress 5 throws a TypeError (a 500) when the client accepts none of its codings: for
 * `identity;q=0` alone, `*;q=0`, or only codings it lacks. Such a response goes out without a
 * content coding instead: RFC 9110 §12.5.3 lets a server disregard Accept-Encoding rather than
 * answer 406, and since RFC 7231 that is the interoperable choice (httpwg/http-core#980): clients
 * list the codings they like, and plain bytes are readable by all of them.
 */
import type { Middleware } from 'koa';
import compress from 'koa-compress';

export function compression(opts: { threshold: number }): Middleware {
  const compressor = compress({ threshold: opts.threshold });
  // The codings this koa-compress can produce on this Node (zstd only where zlib has it).
  const codings = (compressor as { preferredEncodings?: string[] }).preferredEncodings ?? ['br', 'gzip', 'deflate', 'identity'];
  return (ctx, next) =>
    compressor(ctx, async () => {
      await next();
      if (!ctx.acceptsEncodings(codings)) ctx.compress = false;
    });
}
