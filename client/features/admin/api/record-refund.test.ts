import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/api-client';
import { recordRefund, REFUND_RETRY_DELAY_MS, REFUND_RETRY_WINDOW_MS, STILL_CONFIRMING_MESSAGE } from './record-refund';

const HASH = '0x' + 'ef'.repeat(32);
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const awaiting = () => json(202, { code: 'awaiting-confirmations', message: 'Ask again in a few seconds.' });
const item = {
  transferId: 't1',
  kind: 'overpaid',
  sender: '0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc',
  paidWith: { coin: 'POGS', amountIn: null, payer: '0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc' },
  amount: '30.00',
  amountWei: '30000000000000000000',
  txHash: HASH,
  logIndex: 0,
  blockNumber: 9,
  at: '2026-01-01T00:00:00.000Z',
  explorerUrl: null,
  orderId: 'o1',
  due: null,
  excess: '5.00',
  note: null,
  resolved: { at: '2026-01-01T00:01:00.000Z', note: 'Refunded 5.00 POG' },
  refundable: '25.00',
  refundableWei: '25000000000000000000',
  refunds: [],
  refundTo: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
};

/** A server answering from a script, and a clock the sleeps move on. */
function rig(answers: (Response | Error)[]) {
  const sent: { url: string; body: unknown }[] = [];
  let clock = 0;
  const slept: number[] = [];
  const fetchFake = (async (url: string, init: RequestInit) => {
    sent.push({ url, body: JSON.parse(String(init.body)) });
    const next = answers.shift() ?? answers.at(-1) ?? awaiting();
    if (next instanceof Error) throw next;
    return next;
  }) as unknown as typeof fetch;
  if (answers.length === 0) answers.push(awaiting());
  return {
    sent,
    slept,
    options: {
      fetch: fetchFake,
      now: () => clock,
      sleep: async (ms: number) => {
        slept.push(ms);
        clock += ms;
      },
    },
  };
}

describe('recordRefund', () => {
  it('posts the hash and amount, asks again while the server waits for confirmations, and returns the item', async () => {
    const { sent, slept, options } = rig([awaiting(), new TypeError('Failed to fetch'), awaiting(), json(200, item)]);
    let waits = 0;
    const answer = await recordRefund('t1', { transactionHash: HASH, amount: '5.00' }, { ...options, onWaiting: () => (waits += 1) });
    expect(answer.resolved?.note).toBe('Refunded 5.00 POG');
    expect(sent).toHaveLength(4);
    expect(sent[0]).toEqual({ url: '/api/admin/payments/t1/refund', body: { transactionHash: HASH, amount: '5.00' } });
    expect(slept).toEqual([REFUND_RETRY_DELAY_MS, REFUND_RETRY_DELAY_MS, REFUND_RETRY_DELAY_MS]);
    expect(waits).toBe(2);
  });

  it("throws the server's refusal as it is (its message says why)", async () => {
    const { options } = rig([
      json(422, { code: 'refund-wrong-recipient', message: 'The refund went to another address than the sender.' }),
    ]);
    const error = await recordRefund('t1', { transactionHash: HASH, amount: '5.00' }, options).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 422,
      code: 'refund-wrong-recipient',
      serverMessage: 'The refund went to another address than the sender.',
    });
  });

  it('gives up after the window with "check again", having asked a bounded number of times', async () => {
    const { sent, options } = rig([]);
    await expect(recordRefund('t1', { transactionHash: HASH, amount: '5.00' }, options)).rejects.toThrow(STILL_CONFIRMING_MESSAGE);
    expect(sent.length).toBe(Math.floor(REFUND_RETRY_WINDOW_MS / REFUND_RETRY_DELAY_MS) + 1);
  });
});
