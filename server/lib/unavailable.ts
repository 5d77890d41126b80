/**
 * An outside service the server depends on (the chain's RPC, Shopify) did not answer: a timeout,
 * a refused or dropped connection, an HTTP 5xx. It is an outage, not a bug: nothing in the
 * request was wrong, and asking again later is the remedy. An answer the service did give (a
 * JSON-RPC error, a refusal) is not one.
 *
 * A periodic job (`server/lib/jobs.ts`) logs an outage once when it begins and once when it ends,
 * not on every pass; routes turn it into their own 503 code.
 */
export class UnavailableError extends Error {
  constructor(
    /** Which service, in a few words a log reader recognises, e.g. "chain RPC mainnet.base.org" (never a URL with its secrets). */
    readonly dependency: string,
    /** Why, in a few words: "timeout after 10 s", "connection refused", "HTTP 503". */
    readonly reason: string,
    /** Which of the shop's outside services it is (lib/outages.ts counts its outages). */
    readonly service: 'chain' | 'shopify',
  ) {
    super(`${dependency} is unreachable: ${reason}`);
    this.name = 'UnavailableError';
  }
}

/** The outage behind `err`: itself, or an UnavailableError among its causes (a service may wrap one in its own error). */
export function unavailableCause(err: unknown): UnavailableError | null {
  let e = err;
  for (let depth = 0; e instanceof Error && depth < 8; depth++) {
    if (e instanceof UnavailableError) return e;
    e = e.cause;
  }
  return null;
}
