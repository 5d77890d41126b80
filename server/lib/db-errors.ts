/**
 * Whether an error means the database connection was lost or could not be made (a restart, a
 * failover, a backend killed, the pool unable to connect): not the client's fault, and not a bug
 * either. The request is answered `503 service-unavailable` with `Retry-After`, and a read may be
 * tried once more on a fresh connection.
 */
const LOST_SQLSTATE = /^(08\d{3}|57P0[123])$/; // connection exceptions; admin, crash and startup shutdowns
const LOST_ERRNO = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
const LOST_MESSAGE =
  /Connection terminated|connection is not queryable|Client has encountered a connection error|Timeout acquiring a connection|terminating connection due to/i;

export function isLostDatabaseConnection(err: unknown): boolean {
  let e = err as { code?: unknown; message?: unknown; cause?: unknown; nativeError?: unknown; name?: unknown } | null;
  for (let depth = 0; e && typeof e === 'object' && depth < 6; depth++) {
    const code = typeof e.code === 'string' ? e.code : '';
    if (LOST_SQLSTATE.test(code) || LOST_ERRNO.has(code)) return true;
    if (e.name === 'KnexTimeoutError') return true;
    if (typeof e.message === 'string' && LOST_MESSAGE.test(e.message)) return true;
    // Objection wraps the driver's error as `nativeError`; others as `cause`.
    e = (e.nativeError ?? e.cause) as typeof e;
  }
  return false;
}
