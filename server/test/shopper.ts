/** A shopper's browser in integration tests: keeps the session cookie and speaks JSON. */
import { expect } from 'vitest';
import type { JsonRpcProvider } from 'ethers';
import { authSessionSchema, cartSchema, siweNonceSchema, type AuthSession, type Cart } from '../../common/api';
import { hashToken } from '../lib/session-token';
import { SESSION_COOKIE } from '../modules/session';
import type { Harness } from './harness';

export class Shopper {
  cookie: string | null = null;
  /**
   * `from`: the browser's IP, sent as the X-Forwarded-For entry our proxy would append (it counts
   * only in a harness with TRUSTED_PROXY_HOPS=1; otherwise every shopper is 127.0.0.1).
   */
  constructor(
    private readonly h: Harness,
    public from?: string,
  ) {}

  async request(path: string, init: RequestInit = {}) {
    const headers = new Headers(init.headers);
    if (this.cookie) headers.set('cookie', this.cookie);
    if (this.from && !headers.has('x-forwarded-for')) headers.set('x-forwarded-for', this.from);
    const res = await this.h.api(path, { ...init, headers });
    for (const set of res.headers.getSetCookie()) {
      const [pair] = set.split(';');
      if (pair.startsWith(`${SESSION_COOKIE}=`)) this.cookie = pair.endsWith('=') ? null : pair;
    }
    return res;
  }
  post(path: string, body: unknown, contentType = 'application/json') {
    return this.request(path, {
      method: 'POST',
      headers: { 'content-type': contentType },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  }
  /** The database id of this browser's session (the stored hash of its cookie), or null. */
  get sessionId(): string | null {
    return this.cookie ? hashToken(this.cookie.slice(SESSION_COOKIE.length + 1)) : null;
  }
  async cart(): Promise<Cart> {
    const res = await this.request('/api/cart');
    expect(res.status).toBe(200);
    return cartSchema.parse(await res.json());
  }
  add(body: unknown, contentType = 'application/json') {
    return this.post('/api/cart/add', body, contentType);
  }
  remove(itemId: string) {
    return this.request(`/api/cart/${itemId}`, { method: 'DELETE' });
  }
  /** Signs this browser in as `address` (Sign-In with Ethereum), signing with the node's unlocked account. */
  async signIn(provider: JsonRpcProvider, address: string): Promise<AuthSession> {
    const nonce = await this.request(`/api/auth/nonce?address=${address}`);
    expect(nonce.status).toBe(200);
    const { message } = siweNonceSchema.parse(await nonce.json());
    const signature = await (await provider.getSigner(address)).signMessage(message);
    const res = await this.post('/api/auth/verify', { message, signature });
    expect(res.status).toBe(200);
    return authSessionSchema.parse(await res.json());
  }
}
