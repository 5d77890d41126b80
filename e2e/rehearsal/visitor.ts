/**
 * Plain HTTP for the rehearsal's browserless specs: one request on its own connection (so a
 * process that ends mid-request shows as a socket error, not as a pooled connection's retry), and
 * a visitor that keeps its cookies like a browser and speaks JSON to the shop.
 */
import http from 'node:http';
import https from 'node:https';

export interface HttpAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface HttpOptions {
  method?: string;
  headers?: Record<string, string>;
  /** Sent as JSON. */
  json?: unknown;
  /** The local address the connection comes from (any of 127.0.0.0/8 on loopback): a client's own IP. */
  localAddress?: string;
  timeoutMs?: number;
  /** For https: the certificate authority to trust (the Shopify emulator's own). */
  ca?: Buffer;
}

/** One request (http or https) on a fresh connection; rejects with the socket's error (ECONNRESET, ECONNREFUSED …). */
export function httpRequest(url: string, opts: HttpOptions = {}): Promise<HttpAnswer> {
  const body = opts.json === undefined ? undefined : JSON.stringify(opts.json);
  const headers = { ...opts.headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) };
  return new Promise((resolve, reject) => {
    const client = url.startsWith('https:') ? https : http;
    const options = { method: opts.method ?? 'GET', headers, localAddress: opts.localAddress, agent: false, ca: opts.ca };
    const req = client.request(url, options, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
      res.on('error', reject);
    });
    req.setTimeout(opts.timeoutMs ?? 30_000, () => req.destroy(new Error(`no answer from ${url} within ${opts.timeoutMs ?? 30_000} ms`)));
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * A browser without a page: its cookies, its address, and the shop's origin on every write (as a
 * browser's same-origin fetch sends it).
 */
export class Visitor {
  private readonly cookies = new Map<string, string>();

  constructor(
    private readonly origin: string,
    /** Where its connections come from, and headers it sends with every request. */
    private readonly opts: { localAddress?: string; headers?: Record<string, string> } = {},
  ) {}

  async request(method: string, path: string, json?: unknown): Promise<HttpAnswer> {
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const answer = await httpRequest(`${this.origin}${path}`, {
      method,
      json,
      localAddress: this.opts.localAddress,
      headers: { ...this.opts.headers, ...(cookie ? { cookie } : {}), ...(method === 'GET' ? {} : { origin: this.origin }) },
    });
    for (const set of answer.headers['set-cookie'] ?? []) {
      const [pair] = set.split(';');
      const at = pair!.indexOf('=');
      const name = pair!.slice(0, at).trim();
      const value = pair!.slice(at + 1).trim();
      if (value) this.cookies.set(name, value);
      else this.cookies.delete(name);
    }
    return answer;
  }

  get(path: string) {
    return this.request('GET', path);
  }
  post(path: string, json: unknown) {
    return this.request('POST', path, json);
  }
  patch(path: string, json: unknown) {
    return this.request('PATCH', path, json);
  }
}
