/**
 * The shop's one client for POSTs to URLs someone else chose: a push message to a browser's push
 * service (RFC 8030 §5) and an event to a merchant's webhook endpoint. The connection goes only to
 * addresses the rules allow (outbound-rules.ts), checked on the very addresses it connects to; a
 * redirect is not followed (its status is the answer: the caller counts it as a failure); the whole
 * exchange has a time limit; and at most a little of the answer is read.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { endpointProblem, resolvedProblem, type OutboundRules } from './outbound-rules';

/** The most of an answer read (its error text, for the log); the rest is dropped. */
const MAX_ANSWER_BYTES = 1024;

export interface OutboundRequest {
  endpoint: string;
  headers: Record<string, string | number>;
  body: Buffer | null;
}

/** The answer: its status and the start of its body. */
export interface OutboundAnswer {
  status: number;
  text: string;
}

/** Resolves a host name to every address it has (dns.lookup by default; a test passes its own). */
export type Resolve = (host: string) => Promise<string[]>;

export const systemResolve: Resolve = (host) =>
  new Promise((resolve, reject) =>
    dnsLookup(host, { all: true, verbatim: true }, (err, addresses: LookupAddress[]) =>
      err ? reject(err) : resolve(addresses.map((a) => a.address)),
    ),
  );

/** A refusal by the address rules: the endpoint is not called. */
export class EndpointRefused extends Error {
  override readonly name = 'EndpointRefused';
}

/**
 * The connection's lookup: every address of the host must be allowed, and the connection uses
 * exactly those (never a second answer of the DNS).
 */
function checkedLookup(resolve: Resolve, rules: OutboundRules): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname).then(
      (addresses) => {
        const problem = resolvedProblem(addresses, rules);
        if (problem) return callback(new EndpointRefused(problem), '', 0);
        const all = addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
        if (options.all) (callback as unknown as (err: null, all: LookupAddress[]) => void)(null, all);
        else callback(null, all[0]!.address, all[0]!.family);
      },
      (err: NodeJS.ErrnoException) => callback(err, '', 0),
    );
  };
}

/** POSTs `req`; answers the status, or throws (refused address, no answer in time, connection lost). */
export function postOutbound(
  req: OutboundRequest,
  opts: OutboundRules & { timeoutMs: number; resolve?: Resolve },
): Promise<OutboundAnswer> {
  const rules: OutboundRules = { local: opts.local, what: opts.what };
  const problem = endpointProblem(req.endpoint, rules);
  if (problem) return Promise.reject(new EndpointRefused(problem));
  const url = new URL(req.endpoint);
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    let settled = false;
    const done = (err: Error | null, answer?: OutboundAnswer) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (err) reject(err);
      else resolve(answer!);
    };
    const request = client.request(
      url,
      {
        method: 'POST',
        headers: req.headers,
        // One connection per message: never a pooled socket resolved for another host.
        agent: false,
        lookup: checkedLookup(opts.resolve ?? systemResolve, rules),
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          if (size < MAX_ANSWER_BYTES) chunks.push(chunk.subarray(0, MAX_ANSWER_BYTES - size));
          size += chunk.length;
          if (size >= MAX_ANSWER_BYTES) {
            // Enough to log: the rest is not read.
            res.destroy();
            done(null, { status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') });
          }
        });
        res.on('end', () => done(null, { status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', (err) => done(err));
      },
    );
    const timer = setTimeout(() => {
      const err = new Error(`the ${opts.what ?? 'endpoint'} did not answer within ${opts.timeoutMs} ms`);
      request.destroy(err);
      done(err);
    }, opts.timeoutMs);
    request.on('error', (err) => done(err));
    request.end(req.body ?? undefined);
  });
}

/** How long resolving a URL's host may take when the URL is given (a subscription, a webhook endpoint). */
const RESOLVE_TIMEOUT_MS = 5_000;

/**
 * Why `endpoint` may not be called, or null: its URL, then every address its host has now (checked
 * again at each send, on the addresses connected to). A host that cannot be resolved is a problem too.
 */
export async function outboundUrlProblem(endpoint: string, opts: OutboundRules & { resolve?: Resolve }): Promise<string | null> {
  const rules: OutboundRules = { local: opts.local, what: opts.what };
  const problem = endpointProblem(endpoint, rules);
  if (problem) return problem;
  const host = new URL(endpoint).hostname.replace(/^\[|\]$/g, '');
  if (/^[\d.]+$|:/.test(host)) return null; // an address, checked above
  const resolve = opts.resolve ?? systemResolve;
  let timer: NodeJS.Timeout | undefined;
  const addresses = await Promise.race([
    resolve(host),
    new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('timeout')), RESOLVE_TIMEOUT_MS))),
  ])
    .catch(() => null)
    .finally(() => clearTimeout(timer));
  if (addresses === null) return `The ${rules.what ?? 'endpoint'}’s host (${host}) could not be found.`;
  return resolvedProblem(addresses, rules);
}
