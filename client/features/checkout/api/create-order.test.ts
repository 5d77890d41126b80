import { describe, expect, it } from 'vitest';
import type { CreateOrderRequest } from '../../../../common/api';
import { createOrder } from './create-order';

const request: CreateOrderRequest = {
  checkoutId: '6f1c3a52-8d0e-4a59-9a3f-1b2c3d4e5f60',
  cartItems: [],
  transactionHash: '0x' + 'ab'.repeat(32),
  customerWallet: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
};
const order = { id: 'o1', shippingUrl: '/orders/o1/shipping' };

/** A fake server answering in turn; a fake clock that sleeping moves on. */
function rig(answers: Array<Response | Error>) {
  let clock = 0;
  const sent: RequestInit[] = [];
  const slept: number[] = [];
  const fetch = (async (_url: string, init: RequestInit) => {
    sent.push(init);
    const next = answers.length > 1 ? answers.shift()! : answers[0];
    if (next instanceof Error) throw next;
    return next.clone();
  }) as typeof globalThis.fetch;
  return {
    options: {
      fetch,
      now: () => clock,
      sleep: async (ms: number) => {
        slept.push(ms);
        clock += ms;
      },
    },
    sent,
    slept,
  };
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
const awaiting = () => json(202, { code: 'awaiting-confirmations', message: 'Waiting for confirmations' });

describe('createOrder', () => {
  it('posts the order request with the checkout id, and returns the order', async () => {
    const { options, sent } = rig([json(201, order)]);
    await expect(createOrder(request, options)).resolves.toEqual(order);
    expect(sent).toHaveLength(1);
    expect(JSON.parse(String(sent[0].body))).toEqual(request);
    expect(sent[0]).toMatchObject({ method: 'POST', credentials: 'include' });
  });

  it('asks again every 2 s while the server answers 202, or cannot be reached', async () => {
    const { options, sent, slept } = rig([awaiting(), new TypeError('Failed to fetch'), awaiting(), json(200, order)]);
    await expect(createOrder(request, options)).resolves.toEqual(order);
    expect(sent).toHaveLength(4);
    expect(slept).toEqual([2000, 2000, 2000]);
  });

  it('waits as long as a rate-limited answer says, then asks again', async () => {
    const limited = new Response(JSON.stringify({ code: 'rate-limited', message: 'Too many requests.' }), {
      status: 429,
      headers: { 'Content-Type': 'application/json', 'Retry-After': '7' },
    });
    const { options, sent, slept } = rig([limited, json(201, order)]);
    await expect(createOrder(request, options)).resolves.toEqual(order);
    expect(sent).toHaveLength(2);
    expect(slept).toEqual([7000]);
  });

  it('gives up after about 2 minutes with the contact-support fallback', async () => {
    const { options, sent } = rig([awaiting()]);
    await expect(createOrder(request, options)).rejects.toMatchObject({
      title: 'Order Creation Failed',
      message: 'Failed to create order. Please contact support.',
    });
    expect(sent.length).toBeGreaterThanOrEqual(60);
    expect(sent.length).toBeLessThanOrEqual(61);
  });

  it('does not ask again after a refusal', async () => {
    const { options, sent } = rig([json(409, { code: 'transaction-already-used', message: 'That transfer already paid another order.' })]);
    await expect(createOrder(request, options)).rejects.toMatchObject({
      title: 'Order Creation Failed',
      message: 'Server error (409): That transfer already paid another order.',
    });
    expect(sent).toHaveLength(1);
  });
});
