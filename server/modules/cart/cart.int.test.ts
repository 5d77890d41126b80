import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cartSchema, type Cart, type Product, type Variant } from '../../../common/api';
import { parseUnits, formatUnits } from '../../../common/money';
import { testDatabaseKinds } from '../../test/databases';
import { startHarness, type Harness } from '../../test/harness';
import { bumpCatalogueVersion } from '../catalogue';
import { SESSION_COOKIE } from '../session';
import { Shopper } from '../../test/shopper';

/** A browser-like shopper: keeps the session cookie the server sets. */
describe.each(testDatabaseKinds)('cart on %s', (kind) => {
  let h: Harness;
  let products: Product[];
  const pick = (f: (v: Variant, p: Product) => boolean) => {
    for (const p of products) for (const v of p.variants) if (f(v, p)) return { product: p, variant: v };
    throw new Error('no such variant in the demo catalogue');
  };

  beforeAll(async () => {
    h = await startHarness(kind);
    await h.catalogue.sync();
    await h.catalogue.seedDemoPrices();
    products = (await (await h.api('/api/products')).json()) as Product[];
  });
  afterAll(async () => {
    await h?.close();
  });

  it('gives a new shopper an empty cart, kept by no shared cache, without creating a session', async () => {
    const s = new Shopper(h);
    const res = await s.request('/api/cart');
    expect(res.headers.get('cache-control')).toBe('private, no-cache');
    expect(await res.json()).toEqual({ items: [], total: '0.00' });
    expect(s.cookie).toBeNull();
  });

  it('adds with a session cookie (httpOnly, SameSite=Lax), merges lines and totals exactly', async () => {
    const { product, variant } = pick((v) => !v.isSoldOut && (v.availableStock === 0 || v.availableStock >= 6));
    const s = new Shopper(h);
    const res = await s.add({ variantId: variant.id, quantity: 2 });
    expect(res.status).toBe(200);
    const setCookie = res.headers.getSetCookie().join('\n');
    expect(setCookie).toMatch(new RegExp(`${SESSION_COOKIE}=[A-Za-z0-9_-]{43}`));
    expect(setCookie).toMatch(/httponly/i);
    expect(setCookie).toMatch(/samesite=lax/i);
    expect(setCookie).not.toMatch(/secure/i); // only in production

    await s.add({ variantId: variant.id, quantity: 3 });
    const cart = await s.cart();
    expect(cart.items).toHaveLength(1);
    const [line] = cart.items;
    expect(line).toMatchObject({ variantId: variant.id, productId: product.id, quantity: 5, price: variant.price, problem: null });
    expect(line.title).toBe(variant.title === 'Default Title' ? product.title : `${product.title} - ${variant.title}`);
    expect(line.lineTotal).toBe(formatUnits(parseUnits(variant.price) * 5n));
    expect(cart.total).toBe(line.lineTotal);
    // Only the token's hash is stored.
    const token = s.cookie!.split('=')[1];
    expect(await h.database.db('sessions').where({ id: token }).first()).toBeUndefined();
  });

  it('sums several lines without floating-point error', async () => {
    const s = new Shopper(h);
    const lines = products.flatMap((p) => p.variants.filter((v) => !v.isSoldOut).slice(0, 1)).slice(0, 4);
    for (const v of lines) expect((await s.add({ variantId: v.id, quantity: 1 })).status).toBe(200);
    const cart = await s.cart();
    expect(cart.items.map((i) => i.variantId)).toEqual(lines.map((v) => v.id));
    const expected = lines.reduce((sum, v) => sum + parseUnits(v.price), 0n);
    expect(cart.total).toBe(formatUnits(expected));
  });

  it("refuses a sold-out variant with the shop's message", async () => {
    const { variant } = pick((v) => v.isSoldOut);
    const s = new Shopper(h);
    const res = await s.add({ variantId: variant.id, quantity: 1 });
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({ code: 'variant-sold-out', message: 'This item is sold out' });
    expect(s.cookie).toBeNull(); // nothing was created
  });

  it('refuses more than the known stock, counting what is already in the cart', async () => {
    const { variant } = pick((v) => !v.isSoldOut && v.availableStock >= 2 && v.availableStock <= 9);
    const n = variant.availableStock;
    const s = new Shopper(h);
    const over = await s.add({ variantId: variant.id, quantity: n + 1 });
    expect(over.status).toBe(409);
    expect(await over.json()).toEqual({ code: 'insufficient-stock', message: `Only ${n} items available` });

    expect((await s.add({ variantId: variant.id, quantity: n - 1 })).status).toBe(200);
    const merged = await s.add({ variantId: variant.id, quantity: 2 });
    expect(merged.status).toBe(409);
    expect(await merged.json()).toMatchObject({ message: `Only ${n} items available` });
    expect((await s.cart()).items[0].quantity).toBe(n - 1);
    expect((await s.add({ variantId: variant.id, quantity: 1 })).status).toBe(200);
    expect((await s.cart()).items[0].quantity).toBe(n);
  });

  it('caps a merged line at 10', async () => {
    const { variant } = pick((v) => !v.isSoldOut && (v.availableStock === 0 || v.availableStock > 12));
    const s = new Shopper(h);
    expect((await s.add({ variantId: variant.id, quantity: 10 })).status).toBe(200);
    const res = await s.add({ variantId: variant.id, quantity: 1 });
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({ code: 'quantity-limit', message: expect.stringContaining('at most 10') });
    expect((await s.cart()).items[0].quantity).toBe(10);
  });

  it('answers every kind of bad input with a 4xx and a code, and changes nothing', async () => {
    const { variant } = pick((v) => !v.isSoldOut && (v.availableStock === 0 || v.availableStock > 3));
    const s = new Shopper(h);
    expect((await s.add({ variantId: variant.id, quantity: 1 })).status).toBe(200);
    const before = await s.cart();

    const cases: Array<[unknown, number, string, string?]> = [
      [{ variantId: variant.id, quantity: 0 }, 400, 'bad-request'],
      [{ variantId: variant.id, quantity: 11 }, 400, 'bad-request'],
      [{ variantId: variant.id, quantity: -1 }, 400, 'bad-request'],
      [{ variantId: variant.id, quantity: 1.5 }, 400, 'bad-request'],
      [{ variantId: variant.id, quantity: 'abc' }, 400, 'bad-request'],
      [{ variantId: variant.id, quantity: '2' }, 400, 'bad-request'],
      [{ variantId: variant.id }, 400, 'bad-request'],
      [{ quantity: 1 }, 400, 'bad-request'],
      [{ variantId: variant.id, quantity: 1, price: '0.01' }, 400, 'bad-request'],
      [{ variantId: Number(variant.id), quantity: 1 }, 400, 'bad-request'],
      [{ variantId: 'abc', quantity: 1 }, 400, 'bad-request'],
      [{ variantId: "1' or '1'='1", quantity: 1 }, 400, 'bad-request'],
      [{ variantId: '123456789', quantity: 1 }, 404, 'variant-not-found'],
      [[], 400, 'bad-request'],
      [null, 400, 'invalid-json'], // only objects and arrays are JSON bodies here
      ['{not json', 400, 'invalid-json'],
      ['variantId=1&quantity=1', 415, 'unsupported-media-type', 'application/x-www-form-urlencoded'],
      [JSON.stringify({ variantId: variant.id, quantity: 1, pad: 'x'.repeat(40_000) }), 413, 'payload-too-large'],
    ];
    for (const [body, status, code, contentType] of cases) {
      const res = await s.add(body, contentType);
      expect(res.status, JSON.stringify(body).slice(0, 60)).toBe(status);
      const json = await res.json();
      expect(json.code, JSON.stringify(body).slice(0, 60)).toBe(code);
      expect(json.message.length).toBeGreaterThan(5);
    }
    expect(await s.cart()).toEqual(before);

    for (const id of ['nope', '123', '00000000-0000-0000-0000-000000000000', '%27%3B--']) {
      const res = await s.remove(id);
      expect(res.status, id).toBe(404);
      expect(await res.json()).toMatchObject({ code: 'cart-item-not-found' });
    }
    expect(await s.cart()).toEqual(before);
  });

  it("keeps two shoppers' carts apart: neither can read or remove the other's lines", async () => {
    const [a, b] = [new Shopper(h), new Shopper(h)];
    const { variant } = pick((v) => !v.isSoldOut && (v.availableStock === 0 || v.availableStock > 3));
    await a.add({ variantId: variant.id, quantity: 1 });
    const aCart = await a.cart();
    expect(await b.cart()).toEqual({ items: [], total: '0.00' });

    await b.add({ variantId: variant.id, quantity: 2 });
    const res = await b.remove(aCart.items[0].id);
    expect(res.status).toBe(404);
    expect(await a.cart()).toEqual(aCart);
    expect((await b.cart()).items[0].quantity).toBe(2);

    // A forged or stale cookie is just "no session".
    const forged = new Shopper(h);
    forged.cookie = `${SESSION_COOKIE}=${'A'.repeat(43)}`;
    expect(await forged.cart()).toEqual({ items: [], total: '0.00' });
    expect((await forged.remove(aCart.items[0].id)).status).toBe(404);
    expect(await a.cart()).toEqual(aCart);
  });

  it('removes a line and answers the remaining cart', async () => {
    const s = new Shopper(h);
    const [v1, v2] = products.flatMap((p) => p.variants.filter((v) => !v.isSoldOut)).slice(0, 2);
    await s.add({ variantId: v1.id, quantity: 1 });
    await s.add({ variantId: v2.id, quantity: 1 });
    const cart = await s.cart();
    const res = await s.remove(cart.items[0].id);
    expect(res.status).toBe(200);
    const after = cartSchema.parse(await res.json());
    expect(after.items.map((i) => i.variantId)).toEqual([v2.id]);
    expect(after.total).toBe(v2.price);
    expect((await s.remove(cart.items[0].id)).status).toBe(404);
  });

  it('reflects a price change, a sold-out flag and a deactivation at the next read', async () => {
    const s = new Shopper(h);
    const [v1, v2, v3] = products
      .flatMap((p) => p.variants.filter((v) => !v.isSoldOut && (v.availableStock === 0 || v.availableStock >= 2)))
      .slice(5, 8);
    for (const v of [v1, v2, v3]) await s.add({ variantId: v.id, quantity: 2 });
    const db = h.database.db;
    await db('variants').where({ shopify_id: v1.id }).update({ pog_price: '0.10' });
    await db('variants').where({ shopify_id: v2.id }).update({ is_sold_out: true });
    await db('variants').where({ shopify_id: v3.id }).update({ is_active: false });
    await bumpCatalogueVersion(db);

    const cart = await s.cart();
    const line = (id: string) => cart.items.find((i) => i.variantId === id)!;
    expect(line(v1.id)).toMatchObject({ price: '0.10', lineTotal: '0.20', problem: null });
    expect(line(v2.id)).toMatchObject({ problem: 'This item is sold out' });
    expect(line(v3.id)).toMatchObject({ problem: 'This item is no longer available', lineTotal: '0.00' });
    expect(cart.total).toBe('0.20');

    // Stock lowered below the quantity in the cart.
    await db('variants').where({ shopify_id: v1.id }).update({ available_stock: 1 });
    await bumpCatalogueVersion(db);
    expect((await s.cart()).items.find((i) => i.variantId === v1.id)!.problem).toBe('Only 1 items available');

    // Restore for the other tests.
    await db('variants')
      .whereIn('shopify_id', [v1.id, v2.id, v3.id])
      .update({ is_sold_out: false, is_active: true, available_stock: null });
    await db('variants').where({ shopify_id: v1.id }).update({ pog_price: v1.price });
    await bumpCatalogueVersion(db);
  });

  it('serialises concurrent adds of one shopper: the cap holds', async () => {
    const { variant } = pick((v) => !v.isSoldOut && (v.availableStock === 0 || v.availableStock > 12));
    const s = new Shopper(h);
    await s.add({ variantId: variant.id, quantity: 1 }); // creates the session first
    const results = await Promise.all(Array.from({ length: 6 }, () => s.add({ variantId: variant.id, quantity: 3 })));
    const ok = results.filter((r) => r.status === 200).length;
    expect(ok).toBe(3); // 1 + 3 × 3 = 10
    expect(results.filter((r) => r.status === 409)).toHaveLength(3);
    expect((await s.cart()).items[0].quantity).toBe(10);
  });

  it('answers an unchanged cart 304 to its ETag, and a 200 after an add, a quantity change, a removal or a price change', async () => {
    const [v1, v2] = products
      .flatMap((p) => p.variants.filter((v) => !v.isSoldOut && (v.availableStock === 0 || v.availableStock >= 4)))
      .slice(8, 10);
    const s = new Shopper(h);
    await s.add({ variantId: v1.id, quantity: 1 });
    const read = async (etag: string) => {
      const res = await s.request('/api/cart', { headers: { 'if-none-match': etag } });
      return { status: res.status, etag: res.headers.get('etag')!, cart: res.status === 200 ? cartSchema.parse(await res.json()) : null };
    };
    let { etag } = await read('"none"');
    expect(etag).toMatch(/^".+"$/);
    expect((await read(etag)).status).toBe(304);
    const changes: Array<[string, () => Promise<unknown>, (cart: Cart) => void]> = [
      ['an add', () => s.add({ variantId: v2.id, quantity: 1 }), (c) => expect(c.items).toHaveLength(2)],
      ['a quantity change', () => s.add({ variantId: v2.id, quantity: 1 }), (c) => expect(c.items[1].quantity).toBe(2)],
      ['a removal', async () => s.remove((await s.cart()).items[1].id), (c) => expect(c.items.map((i) => i.variantId)).toEqual([v1.id])],
      [
        'a catalogue price change',
        async () => {
          await h.database.db('variants').where({ shopify_id: v1.id }).update({ pog_price: '3.33' });
          await bumpCatalogueVersion(h.database.db);
        },
        (c) => expect(c).toMatchObject({ items: [{ price: '3.33', lineTotal: '3.33' }], total: '3.33' }),
      ],
    ];
    for (const [name, change, check] of changes) {
      await change();
      const after = await read(etag);
      expect(after.status, name).toBe(200);
      expect(after.etag, name).not.toBe(etag);
      check(after.cart!);
      etag = after.etag;
      expect((await read(etag)).status, name).toBe(304);
    }
    await h.database.db('variants').where({ shopify_id: v1.id }).update({ pog_price: v1.price });
    await bumpCatalogueVersion(h.database.db);
  });

  it("gives a stranger nothing for another session's cart ETag", async () => {
    const { variant } = pick((v) => !v.isSoldOut && (v.availableStock === 0 || v.availableStock > 3));
    const [a, b] = [new Shopper(h), new Shopper(h)];
    await a.add({ variantId: variant.id, quantity: 1 });
    await b.add({ variantId: variant.id, quantity: 1 });
    const aRes = await a.request('/api/cart');
    const aEtag = aRes.headers.get('etag')!;
    const aCart = await aRes.json();
    // The same lines in another session: another ETag, and A's is no 304 for B.
    const bRes = await b.request('/api/cart', { headers: { 'if-none-match': aEtag } });
    expect(bRes.status).toBe(200);
    expect(bRes.headers.get('etag')).not.toBe(aEtag);
    expect((await bRes.json()).items[0].id).not.toBe(aCart.items[0].id);
    // Without a session, or with a forged cookie: an empty cart, never a 304.
    for (const cookie of [null, `${SESSION_COOKIE}=${'B'.repeat(43)}`]) {
      const stranger = new Shopper(h);
      stranger.cookie = cookie;
      const res = await stranger.request('/api/cart', { headers: { 'if-none-match': aEtag } });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ items: [], total: '0.00' });
    }
    expect(aRes.headers.get('vary')).toMatch(/cookie/i);
  });

  it.runIf(kind === 'postgres')('never answers a cart changed through another instance as it was', async () => {
    const other = await h.startAnotherInstance();
    const { variant } = pick((v) => !v.isSoldOut && (v.availableStock === 0 || v.availableStock > 5));
    const s = new Shopper(h);
    await s.add({ variantId: variant.id, quantity: 1 });
    const here = await s.request('/api/cart');
    const etag = here.headers.get('etag')!;
    await here.arrayBuffer();
    const there = (path: string, init: RequestInit = {}) => {
      const headers = new Headers(init.headers);
      headers.set('cookie', s.cookie!);
      return other.api(path, { ...init, headers });
    };
    // The other instance knows this ETag for the same cart.
    expect((await there('/api/cart', { headers: { 'if-none-match': etag } })).status).toBe(304);
    // Changed through the other instance, read here, and the other way round.
    const added = await there('/api/cart/add', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ variantId: variant.id, quantity: 2 }),
    });
    expect(added.status).toBe(200);
    const afterThere = await s.request('/api/cart', { headers: { 'if-none-match': etag } });
    expect(afterThere.status).toBe(200);
    expect(cartSchema.parse(await afterThere.json()).items[0].quantity).toBe(3);
    const etag3 = afterThere.headers.get('etag')!;
    expect((await there('/api/cart', { headers: { 'if-none-match': etag3 } })).status).toBe(304);
    await s.remove((await s.cart()).items[0].id);
    const removedHere = await there('/api/cart', { headers: { 'if-none-match': etag3 } });
    expect(removedHere.status).toBe(200);
    expect(await removedHere.json()).toEqual({ items: [], total: '0.00' });
  });

  it('expires sessions: an expired cookie has an empty cart, and the sweep deletes it', async () => {
    const s = new Shopper(h);
    const { variant } = pick((v) => !v.isSoldOut);
    await s.add({ variantId: variant.id, quantity: 1 });
    h.clock.now += h.config.sessionTtlMs + 1000;
    try {
      expect(await s.cart()).toEqual({ items: [], total: '0.00' });
      const swept = await h.sessions.sweep();
      expect(swept).toBeGreaterThan(0);
      expect(await h.database.db('sessions').where('expires_at', '<=', new Date(h.clock.now)).first()).toBeUndefined();
      expect(s.cookie).toBeNull(); // the stale cookie was cleared
    } finally {
      h.clock.now -= h.config.sessionTtlMs + 1000;
    }
  });
});
