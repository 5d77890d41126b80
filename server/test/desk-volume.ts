/**
 * A store's year of payments written straight into the database, for the desk's volume tests and
 * bench/desk.ts: `orders` paid orders (each with its checkout, its paying transfer and one item)
 * spread evenly over 2026's first 360 days, and 2,000 transfers that need a person (or a chosen
 * number): transfers that made no order (unmatched, underpaid, extra payments, refunded, removed)
 * and the paying transfers of orders that are overpaid, late, both, on hold or failed by a
 * reorganisation. Every value is made from the row's number, so two runs write the same rows.
 * Written by set-based SQL (generate_series), the same on PGlite and Postgres.
 */
import type { Db } from '../db';
import type { TransferStatus } from '../modules/payments';

/** Every seeded time is in this year (the export's range is at most a year). */
export const SEEDED_FROM = '2026-01-01';
export const SEEDED_TO = '2026-12-31';

/** The wallet that pays every 200th order unless another is given: a shopper with a long history. */
export const REGULAR_SHOPPER = '0x00000000000000000000000000000000000000aa';

const CHAIN = 8453;
const TOKEN = '0x00000000000000000000000000000000000000c0';
const STORE = '0x00000000000000000000000000000000000000d0';
const ONE_POG = 10n ** 18n;

/** How the flagged transfers are shared out, per 2,000 (the rest of a share goes to `unmatched`). */
const SHARES = {
  // transfers that made no order
  unmatched: 500,
  underpaid: 300,
  extraPayment: 200,
  refunded: 200,
  removed: 100,
  // paying transfers of flagged orders
  overpaid: 300,
  late: 200,
  overpaidAndLate: 100,
  onHold: 50,
  reorged: 50,
} as const;
type Share = keyof typeof SHARES;

export interface SeededDesk {
  orders: number;
  /** Transfers of each share written (per SHARES, scaled to the `flagged` asked for). */
  flagged: Record<Share, number>;
}

/** The SQL expressions of order number `i` (1-based): its id, checkout, payer, hash and time. */
const orderId = (i: string) => `'PG' || upper(substr(md5('o' || ${i}), 1, 4)) || lpad(${i}::text, 6, '0')`;
const intentId = (i: string) => `md5('i' || ${i})::uuid::text`;
const payer = (i: string, regular: string) =>
  `case when ${i} % 200 = 0 then '${regular}' else '0x' || md5('w' || (${i} % 997)) || substr(md5('v' || (${i} % 997)), 1, 8) end`;
const txHash = (tag: string, i: string) => `'0x' || md5('${tag}' || ${i}) || md5('${tag}${tag}' || ${i})`;
const at = (i: string, n: number) => `timestamptz '${SEEDED_FROM} 00:00:00+00' + ${i} * (interval '360 days' / ${n})`;

/**
 * Writes `orders` paid orders and `flagged` problem transfers (at most a fifth of the orders are
 * flagged ones). Nothing is resolved: resolveSome marks some resolved.
 */
export async function seedDeskVolume(db: Db, opts: { orders: number; flagged?: number; regularShopper?: string }): Promise<SeededDesk> {
  const n = opts.orders;
  const regular = (opts.regularShopper ?? REGULAR_SHOPPER).toLowerCase();
  if (!/^0x[0-9a-f]{40}$/.test(regular)) throw new Error(`seedDeskVolume: not an address: ${regular}`);
  const scale = (opts.flagged ?? 2000) / 2000;
  const flagged = Object.fromEntries(Object.entries(SHARES).map(([k, v]) => [k, Math.floor(v * scale)])) as Record<Share, number>;
  const orderFlags = flagged.overpaid + flagged.late + flagged.overpaidAndLate + flagged.onHold + flagged.reorged;
  if (orderFlags * 5 > n) throw new Error(`seedDeskVolume: ${orderFlags} flagged orders need at least ${orderFlags * 5} orders`);
  const total = (i: string) => `((10 + ${i} % 90)::numeric * ${ONE_POG} + ${i})`;

  await db.transaction(async (trx) => {
    const series = `generate_series(1, ${n}) as g(i)`;
    await trx.raw(`
      insert into checkout_intents (id, customer_wallet, chain_id, token_address, store_wallet, total_wei, amount_wei, status,
        expires_at, match_until, created_at, updated_at)
      select ${intentId('i')}, ${payer('i', regular)}, ${CHAIN}, '${TOKEN}', '${STORE}', ${total('i')}, ${total('i')}, 'paid',
        ${at('i', n)} + interval '30 minutes', ${at('i', n)} + interval '1 day', ${at('i', n)} - interval '1 minute', ${at('i', n)}
      from ${series}`);
    await trx.raw(`
      insert into orders (id, intent_id, customer_wallet, status, total_wei, amount_paid_wei, chain_id, tx_hash, log_index,
        block_number, needs_shipping, shopify_order_name, paid_at, created_at, updated_at)
      select ${orderId('i')}, ${intentId('i')}, ${payer('i', regular)},
        (array['shipped', 'shipped', 'shipped', 'shipped', 'shipped', 'shipped', 'confirmed', 'confirmed', 'paid', 'paid'])[i % 10 + 1],
        ${total('i')}, ${total('i')}, ${CHAIN}, ${txHash('t', 'i')}, 0, i, i % 10 >= 8, '#' || (1000 + i),
        ${at('i', n)}, ${at('i', n)}, ${at('i', n)}
      from ${series}`);
    await trx.raw(`
      insert into chain_transfers (chain_id, tx_hash, log_index, block_number, block_hash, token_address, from_address, to_address,
        value_wei, status, intent_id, order_id, created_at, updated_at)
      select ${CHAIN}, ${txHash('t', 'i')}, 0, i, ${txHash('b', 'i')}, '${TOKEN}', ${payer('i', regular)}, '${STORE}',
        ${total('i')}, 'matched', ${intentId('i')}, ${orderId('i')}, ${at('i', n)}, ${at('i', n)}
      from ${series}`);
    await trx.raw(`
      insert into order_items (order_id, variant_id, product_id, title, unit_price, quantity)
      select ${orderId('i')}, 'gid://shopify/ProductVariant/' || (i % 27), 'gid://shopify/Product/' || (i % 27), 'Pog Slammer',
        (10 + i % 90)::numeric, 1
      from ${series}`);

    // Flagged orders, evenly spread: the k-th is order k * step.
    const step = Math.floor(n / orderFlags);
    let k = 0;
    const flagOrders = async (count: number, set: string) => {
      if (count === 0) return;
      await trx.raw(
        `update orders set ${set} where id in (select ${orderId(`(k * ${step})`)} from generate_series(${k + 1}, ${k + count}) as g(k))`,
      );
      k += count;
    };
    await flagOrders(flagged.overpaid, `overpaid = true, amount_paid_wei = amount_paid_wei + ${ONE_POG}::numeric`);
    await flagOrders(flagged.late, 'late = true');
    await flagOrders(flagged.overpaidAndLate, `overpaid = true, late = true, amount_paid_wei = amount_paid_wei + ${ONE_POG}::numeric`);
    await flagOrders(flagged.onHold, `hold_reason = 'out-of-stock', status = 'paid', needs_shipping = false`);
    await flagOrders(flagged.reorged, `status = 'failed', status_reason = 'payment-reorged'`);
    // The paying transfer of an overpaid order carried the excess too.
    await trx.raw(`update chain_transfers ct set value_wei = o.amount_paid_wei from orders o where o.id = ct.order_id and o.overpaid`);

    // Transfers that made no order, evenly spread over the same days (numbers from n + 1 on, so hashes never repeat).
    const loose: Array<[status: Exclude<TransferStatus, 'matched'>, count: number]> = [
      ['unmatched', flagged.unmatched],
      ['underpaid', flagged.underpaid],
      ['extra-payment', flagged.extraPayment],
      ['refunded', flagged.refunded],
      ['removed', flagged.removed],
    ];
    const looseTotal = loose.reduce((s, [, c]) => s + c, 0);
    let j = 0;
    for (const [status, count] of loose) {
      if (count === 0) continue;
      const range = `generate_series(${j + 1}, ${j + count}) as g(j)`;
      const num = `(${n} + j)`;
      const time = `${at('j', looseTotal)} + interval '7 seconds'`;
      if (status === 'underpaid') {
        // Its own checkout, waiting for the rest (it received half).
        await trx.raw(`
          insert into checkout_intents (id, customer_wallet, chain_id, token_address, store_wallet, total_wei, amount_wei, status,
            expires_at, match_until, created_at, updated_at)
          select ${intentId(num)}, null, ${CHAIN}, '${TOKEN}', '${STORE}', ${total(num)} * 2, ${total(num)} * 2, 'underpaid',
            ${time} + interval '30 minutes', ${time} + interval '1 day', ${time} - interval '1 minute', ${time}
          from ${range}`);
      }
      // An extra payment goes to an already paid checkout (the k-th order's).
      const intent = status === 'underpaid' ? intentId(num) : status === 'extra-payment' ? intentId(`(j * 7 % ${n} + 1)`) : 'null';
      await trx.raw(`
        insert into chain_transfers (chain_id, tx_hash, log_index, block_number, block_hash, token_address, from_address, to_address,
          value_wei, status, status_before_refund, intent_id, created_at, updated_at)
        select ${CHAIN}, ${txHash('x', num)}, 0, ${num}, ${txHash('y', num)}, '${TOKEN}', ${payer(num, regular)}, '${STORE}',
          ${total(num)}, '${status}', ${status === 'refunded' ? "'unmatched'" : 'null'}, ${intent}, ${time}, ${time}
        from ${range}`);
      if (status === 'refunded')
        await trx.raw(`
          insert into refunds (transfer_id, order_id, chain_id, tx_hash, log_index, block_number, to_address, amount_wei, created_at)
          select ct.id, null, ${CHAIN}, '0x' || md5('r' || ct.id) || md5('rr' || ct.id), 0, ct.block_number + 1, ct.from_address,
            ct.value_wei, ct.created_at + interval '1 hour'
          from chain_transfers ct where ct.status = 'refunded'`);
      j += count;
    }
  });
  // As autovacuum leaves a table a while after its inserts: statistics, and the visibility map
  // that lets an index answer alone.
  await db.raw('vacuum analyze');
  return { orders: n, flagged };
}

/** Marks every `every`-th open desk item resolved (by transfer id), as an admin would have; answers how many. */
export async function resolveSome(db: Db, transferIds: readonly number[], every: number): Promise<number> {
  const chosen = transferIds.filter((_, i) => i % every === 0);
  if (chosen.length === 0) return 0;
  await db('payment_desk_resolutions').insert(
    chosen.map((id) => ({ transfer_id: id, resolved_at: new Date('2026-12-30T00:00:00Z'), note: 'dealt with', session_label: 'bench' })),
  );
  await db.raw('analyze payment_desk_resolutions');
  return chosen.length;
}
