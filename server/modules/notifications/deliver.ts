/**
 * One push message to one push service (RFC 8030 §5), sent by the shop's own request rather than
 * web-push's: the connection goes only to addresses the rules allow (address-rules.ts), checked on
 * the very addresses it connects to; a redirect is not followed; the whole exchange has a time
 * limit; and at most a little of the answer is read.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { endpointProblem, resolvedProblem } from './address-rules';

/** The most of a push service's answer read (its error text, for the log); the rest is dropped. */
const MAX_ANSWER_BYTES = 1024;

export interface PushRequest {
  endpoint: string;
  headers: Record<string, string | number>;
  body: Buffer | null;
}

/** A push service's answer: its status and the start of its body. */
export interface PushAnswer {
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
function checkedLookup(resolve: Resolve, local: boolean): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname).then(
      (addresses) => {
        const problem = resolvedProblem(addresses, { local });
        if (problem) return callback(new EndpointRefused(problem), '', 0);
        const all = addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
        if (options.all) (callback as unknown as (err: null, all: LookupAddress[]) => void)(null, all);
        else callback(null, all[0]!.address, all[0]!.family);
      },
      (err: NodeJS.ErrnoException) => callback(err, '', 0),
    );
  };
}

/** Sends `req`; answers the push service's status, or throws (refused address, no answer in time, connection lost). */
export function deliverPush(req: PushRequest, opts: { timeoutMs: number; local: boolean; resolve?: Resolve }): Promise<PushAnswer> {
  const problem = endpointProblem(req.endpoint, { local: opts.local });
  if (problem) return Promise.reject(new EndpointRefused(problem));
  const url = new URL(req.endpoint);
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    let settled = false;
    const done = (err: Error | null, answer?: PushAnswer) => {
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
        lookup: checkedLookup(opts.resolve ?? systemResolve, opts.local),
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
      const err = new Error(`the push service did not answer within ${opts.timeoutMs} ms`);
      request.destroy(err);
      done(err);
    }, opts.timeoutMs);
    request.on('error', (err) => done(err));
    request.end(req.body ?? undefined);
  });
}
