/**
 * Shared steps of the payment integration tests: paying on the test chain and asking the shop,
 * as a shopper's browser (or a stranger's) would.
 */
import { expect } from 'vitest';
import { checkoutSchema, type Checkout, type Variant } from '../../common/api';
import { bumpCatalogueVersion } from '../modules/catalogue';
import { sendTokenTransfer, type TestChain } from './chain';
import { adminSession, startHarness, type Harness } from './harness';
import type { Logger } from '../lib/logger';
import type { ServiceOptions } from '../wiring';
import type { Shopper } from './shopper';
import { receiptOf } from '../chain/mined';

export interface PayingKit {
  /** Mines `blocks` empty blocks on the test chain. */
  mine(blocks?: number): Promise<unknown>;
  /** Sends `value` of the shop's token (or another) from an unlocked dev account; resolves once mined. */
  send(from: string, opts: { value: bigint; to?: string; tokenAddress?: string }): Promise<string>;
  /** Adds `quantity` of the variant to the shopper's cart and opens a checkout (expects 201). */
  checkout(s: Shopper, variantId: string, wallet: string | null, quantity?: number): Promise<Checkout>;
  /** The shopper's view of a checkout (expects 200). */
  checkoutOf(s: Shopper, id: string): Promise<Checkout>;
  createOrder(s: Shopper, body: Record<string, unknown>): Promise<{ status: number; body: Record<string, unknown> & { code?: string } }>;
  ordersFor(txHash: string): Promise<Array<Record<string, unknown>>>;
  transferRow(txHash: string): Promise<Record<string, unknown> | undefined>;
}

export function payingKit(h: Harness, chain: TestChain): PayingKit {
  const db = () => h.database.db;
  return {
    mine: (blocks = 1) => chain.provider.send('anvil_mine', [`0x${blocks.toString(16)}`]),
    async send(from, opts) {
      const { tokenAddress, storeWallet } = h.payments!.target;
      const tx = await sendTokenTransfer(chain.provider, from, {
        token: opts.tokenAddress ?? tokenAddress,
        to: opts.to ?? storeWallet,
        value: opts.value,
      });
      await receiptOf(chain.provider, tx.hash);
      return tx.hash;
    },
    async checkout(s, variantId, wallet, quantity = 1) {
      expect((await s.add({ variantId, quantity })).status).toBe(200);
      const res = await s.post('/api/checkout', { customerWallet: wallet });
      expect(res.status, await res.clone().text()).toBe(201);
      return checkoutSchema.parse(await res.json());
    },
    async checkoutOf(s, id) {
      const res = await s.request(`/api/checkout/${id}`);
      expect(res.status).toBe(200);
      return checkoutSchema.parse(await res.json());
    },
    async createOrder(s, body) {
      const res = await s.post('/api/orders/create', { cartItems: [], ...body });
      return { status: res.status, body: await res.json() };
    },
    ordersFor: (txHash) => db()('orders').where({ tx_hash: txHash.toLowerCase() }),
    transferRow: (txHash) => db()('chain_transfers').where({ tx_hash: txHash.toLowerCase() }).first(),
  };
}

/** Where the payment desks' tests start: see startPayingShop. */
export interface PayingShop {
  h: Harness;
  pay: PayingKit;
  /** A listed variant with no stock limit: buying it never runs out. */
  unlimited: Variant;
  /** The admin's session cookie. */
  admin: string;
}

/**
 * A shop on `kind`'s database and the test chain with the demo catalogue synced and priced, one
 * variant's stock made unlimited (so a test's many checkouts never run out), its paying kit and an
 * admin session; `env`: settings beyond the test defaults (the paymaster's, say); `logger`: where
 * the server logs, for a test that reads its lines.
 */
export async function startPayingShop(
  kind: 'pglite' | 'postgres',
  chain: TestChain,
  opts: { env?: Record<string, string>; logger?: Logger; pricePool?: boolean; swapVenue?: boolean; swap?: ServiceOptions['swap'] } = {},
): Promise<PayingShop> {
  const h = await startHarness(kind, {
    chain: chain.chain,
    env: opts.env,
    logger: opts.logger,
    pricePool: opts.pricePool || opts.swapVenue,
    swapVenue: opts.swapVenue,
    swap: opts.swap,
  });
  await h.catalogue.sync();
  await h.catalogue.seedDemoPrices();
  const unlimited = (await h.catalogue.list()).products.flatMap((p) => p.variants).find((v) => !v.isSoldOut)!;
  await h.database.db('variants').where({ shopify_id: unlimited.id }).update({ available_stock: null, inventory_quantity: null });
  await bumpCatalogueVersion(h.database.db);
  return { h, pay: payingKit(h, chain), unlimited, admin: await adminSession(h) };
}
