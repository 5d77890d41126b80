/**
 * The in-memory list brought up to date by reading only the products a change named: after every
 * kind of change it must be exactly the list a full rebuild gives (the same bytes, ETag, product
 * answers and pages), and where the change log cannot say what changed, a full rebuild it is.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Product } from '../../../common/api';
import { cataloguePageQuerySchema } from '../../../common/catalogue-query';
import { setState } from '../../lib/app-state';
import { createLogger } from '../../lib/logger';
import { testDatabaseKinds } from '../../test/databases';
import { adminCaller, adminSession, startHarness, type Harness } from '../../test/harness';
import { subscribeShopifyWebhooks } from '../orders';
import { CHANGES_KEPT } from './change-log';
import { CatalogueService, type ProductListSnapshot } from './service';
import { bumpCatalogueVersion } from './sync';

/** Views of the list whose pages are compared: the featured order, searches, filters, every sort. */
const QUERIES = [
  {},
  { q: 'pog' },
  { q: 'renamed incrementally' },
  { q: 'milk caps', sort: 'price-desc' },
  { sort: 'price-asc', limit: 7 },
  { sort: 'newest', limit: 5 },
  { type: 'Slammers' },
  { tag: 'apparel', sort: 'newest' },
];

/** Everything a shopper can read of a list, as comparable values. */
async function readable(snap: ProductListSnapshot) {
  const index = await snap.index();
  return {
    version: snap.version,
    etag: snap.etag,
    body: snap.body.toString('utf8'),
    answers: snap.products.map((p) => {
      const answer = snap.product(p.id)!;
      return { etag: answer.etag, body: answer.body.toString('utf8') };
    }),
    pages: QUERIES.map((q) => index.page(cataloguePageQuerySchema.parse(q))),
    facets: index.facets(),
    // The lookups by id (their order is no one's concern).
    byId: [...snap.byId.keys()].sort(),
    variants: [...snap.variantsById].map(([id, { product, variant }]) => [id, product.id, variant.price]).sort(),
  };
}

describe.each(testDatabaseKinds)('the catalogue brought up to date by its changes on %s', (kind) => {
  let h: Harness;
  let admin: ReturnType<typeof adminCaller>;
  const db = () => h.database.db;

  beforeAll(async () => {
    h = await startHarness(kind);
    const cookie = await adminSession(h);
    admin = adminCaller(h.api, () => cookie);
    await subscribeShopifyWebhooks(h.shopify, `${h.baseUrl}/api/webhooks/shopify`, createLogger({ level: 'silent' }));
    await h.catalogue.sync();
    await h.catalogue.seedDemoPrices();
  });
  afterAll(async () => {
    await h?.close();
  });

  /** The list as an instance that has none builds it: every product read. */
  const rebuiltInFull = async () => {
    const fresh = new CatalogueService(db(), h.shopify, h.services.stock);
    try {
      const snap = await fresh.list();
      expect(fresh.builds).toEqual({ full: 1, update: 0 });
      return await readable(snap);
    } finally {
      await fresh.close();
    }
  };
  /** The harness's list after a change, and how it was made. */
  const current = async () => {
    const before = { ...h.catalogue.builds };
    const snap = await h.catalogue.list();
    const made = { full: h.catalogue.builds.full - before.full, update: h.catalogue.builds.update - before.update };
    return { snap, made, readable: await readable(snap) };
  };
  const listed = async () => (await h.catalogue.list()).products;

  it('gives exactly what a full rebuild gives after a webhook update, a delete, a price edit and a stock claim', async () => {
    // The list as it was, with its index, a product's answer and its compressed forms made.
    const start = await current();
    const kept = start.snap.products[3]!;
    start.snap.product(kept.id)!.encoded('br');
    const [renamed, removed, priced] = start.snap.products.slice(5, 8) as [Product, Product, Product];
    const claimed = (await listed()).flatMap((p) => p.variants).find((v) => v.availableStock !== null && v.availableStock > 2)!;

    const changes: Array<[string, () => Promise<void>, (snap: ProductListSnapshot) => void]> = [
      [
        'a products/update webhook',
        async () => {
          h.emulator.changeProduct({ legacyId: renamed.id, title: 'Renamed incrementally' });
          await h.emulator.webhooksIdle();
        },
        (snap) => expect(snap.byId.get(renamed.id)?.title).toBe('Renamed incrementally'),
      ],
      [
        'a products/delete webhook',
        async () => {
          h.emulator.removeProduct(removed.id);
          await h.emulator.webhooksIdle();
        },
        (snap) => expect(snap.byId.has(removed.id)).toBe(false),
      ],
      [
        "the admin's price edit",
        async () => {
          const res = await admin(`/api/inventory/${priced.variants[0]!.id}/update`, { method: 'PATCH', body: { pogPrice: '777' } });
          expect(res.status, await res.text()).toBe(200);
        },
        (snap) => expect(snap.byId.get(priced.id)?.variants[0]?.price).toBe('777.00'),
      ],
      [
        'a stock claim',
        async () => {
          // What a payment on its way writes (payments' claimStock): the claim, then the version naming its variants.
          await db().transaction(async (trx) => {
            const id = randomUUID();
            const at = new Date();
            await trx('checkout_intents').insert({
              id,
              chain_id: 8453,
              token_address: '0x0000000000000000000000000000000000000001',
              store_wallet: '0x0000000000000000000000000000000000000002',
              total_wei: '1',
              amount_wei: String(BigInt(Date.now()) * 1000n),
              status: 'open',
              expires_at: new Date(at.getTime() + 60_000),
              match_until: new Date(at.getTime() + 120_000),
              stock_claimed_until: new Date(at.getTime() + 600_000),
            });
            await trx('checkout_intent_items').insert({
              intent_id: id,
              variant_id: claimed.id,
              product_id: (await listed()).find((p) => p.variants.some((v) => v.id === claimed.id))!.id,
              title: 'claimed',
              unit_price: claimed.price,
              quantity: 2,
            });
            await bumpCatalogueVersion(trx, { variantIds: [claimed.id] });
          });
        },
        (snap) => expect(snap.variantsById.get(claimed.id)?.variant.availableStock).toBe(claimed.availableStock! - 2),
      ],
    ];
    for (const [what, change, shows] of changes) {
      await change();
      const now = await current();
      expect(now.made, what).toEqual({ full: 0, update: 1 });
      shows(now.snap);
      expect(now.readable, what).toEqual(await rebuiltInFull());
    }
    // The unchanged product's answer was kept, compressed form and all.
    const end = await h.catalogue.list();
    expect(end.product(kept.id)!.encoded('br')).toBe(start.snap.product(kept.id)!.encoded('br'));
    expect(end.etag).not.toBe(start.snap.etag);
  });

  it('reads every product when a change did not say what it touched, or a version has no record', async () => {
    const product = (await listed())[0]!;
    const reprice = (price: string) => db()('variants').where({ shopify_id: product.variants[0]!.id }).update({ pog_price: price });

    await reprice('501');
    await bumpCatalogueVersion(db()); // anything
    let now = await current();
    expect(now.made).toEqual({ full: 1, update: 0 });
    expect(now.snap.byId.get(product.id)!.variants[0]!.price).toBe('501.00');

    // A version without its row: bumped as another process's older code would, or swept.
    await reprice('502');
    await bumpCatalogueVersion(db(), { productIds: [] });
    await db()('catalogue_changes')
      .where({ version: now.snap.version + 1 })
      .delete();
    now = await current();
    expect(now.made).toEqual({ full: 1, update: 0 });
    expect(now.snap.byId.get(product.id)!.variants[0]!.price).toBe('502.00');
    expect(now.readable).toEqual(await rebuiltInFull());
  });

  it('keeps only the newest versions’ records, and a list older than those is read in full', async () => {
    const version = (await h.catalogue.list()).version;
    // The next bump's version a multiple of 100, when the sweep runs.
    const jump = Math.ceil((version + 3 * CHANGES_KEPT) / 100) * 100 - 1;
    // Versions far ahead, each with its record, as a busy shop would have them.
    await db().transaction(async (trx) => {
      await setState(trx, 'catalogue_version', jump);
      const rows = Array.from({ length: CHANGES_KEPT + 50 }, (_, i) => ({ version: jump - i, product_ids: null }));
      await trx.batchInsert('catalogue_changes', rows, 500);
    });
    await bumpCatalogueVersion(db(), { productIds: [] });
    const kept = await db()('catalogue_changes').min('version as min').max('version as max').count('* as n').first();
    expect(Number(kept!.max)).toBe(jump + 1);
    expect(Number(kept!.min)).toBe(jump + 1 - CHANGES_KEPT + 1);
    expect(Number(kept!.n)).toBe(CHANGES_KEPT);
    const now = await current();
    expect(now.made).toEqual({ full: 1, update: 0 });
    expect(now.snap.version).toBe(jump + 1);
  });

  it('brings two instances on one database to the same list', async () => {
    const other =
      kind === 'postgres'
        ? (await h.startAnotherInstance()).catalogue
        : new CatalogueService(db(), h.shopify, h.services.stock, undefined, {}, { stalenessMs: 1000 });
    try {
      await other.list();
      await h.catalogue.list();
      const product: Product = (await listed())[1]!;
      // An admin's edit on the first instance; the other learns it by its notification.
      const res = await admin(`/api/inventory/${product.variants[0]!.id}/update`, { method: 'PATCH', body: { pogPrice: '888' } });
      expect(res.status).toBe(200);
      const builds = { ...other.builds };
      await expect
        .poll(async () => (await other.list()).byId.get(product.id)?.variants[0]?.price, { timeout: 5000, interval: 20 })
        .toBe('888.00');
      expect(other.builds.update).toBeGreaterThan(builds.update);
      expect(other.builds.full).toBe(builds.full);
      const theirs = await readable(await other.list());
      expect(theirs).toEqual(await readable(await h.catalogue.list()));
      expect(theirs).toEqual(await rebuiltInFull());
    } finally {
      if (kind !== 'postgres') await other.close();
    }
  });
});
