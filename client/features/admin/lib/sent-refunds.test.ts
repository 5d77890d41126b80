import { describe, expect, it } from 'vitest';
import { createSentRefundsStore, parseSentRefunds, SENT_REFUNDS_KEY, type SentRefund } from './sent-refunds';

const HASH = '0x' + 'ab'.repeat(32);
const refund = (transferId: string): SentRefund => ({
  transferId,
  txHash: HASH,
  amount: '5.00',
  to: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
  sentAt: '2026-01-01T00:00:00.000Z',
});

function memoryStorage(initial: Record<string, string> = {}) {
  const data = new Map(Object.entries(initial));
  return { data, getItem: (k: string) => data.get(k) ?? null, setItem: (k: string, v: string) => void data.set(k, v) };
}

describe('parseSentRefunds', () => {
  it('keeps well-formed entries under their own transfer id, and drops the rest', () => {
    const text = JSON.stringify({
      t1: refund('t1'),
      t2: { ...refund('t2'), txHash: '0x12' },
      t3: refund('other'),
      t4: { ...refund('t4'), amount: '1e3' },
    });
    expect(parseSentRefunds(text)).toEqual({ t1: refund('t1') });
  });

  it('reads nothing out of nothing or garbage', () => {
    for (const text of [null, '', 'not json', '[]', '42', 'null']) expect(parseSentRefunds(text)).toEqual({});
  });
});

describe('the sent-refunds store', () => {
  it('keeps a sent refund across page loads until it is forgotten, telling subscribers each time', () => {
    const storage = memoryStorage();
    const store = createSentRefundsStore(storage);
    let calls = 0;
    const unsubscribe = store.subscribe(() => (calls += 1));
    store.keep(refund('t1'));
    expect(store.get('t1')).toEqual(refund('t1'));
    expect(createSentRefundsStore(storage).get('t1')).toEqual(refund('t1'));
    store.forget('t1');
    store.forget('t1'); // nothing to forget: no news
    expect(store.get('t1')).toBeNull();
    expect(JSON.parse(storage.data.get(SENT_REFUNDS_KEY)!)).toEqual({});
    expect(calls).toBe(2);
    unsubscribe();
  });

  it('still holds it in memory when storage is blocked', () => {
    const blocked = {
      getItem: () => {
        throw new Error('SecurityError');
      },
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
    };
    const store = createSentRefundsStore(blocked);
    store.keep(refund('t1'));
    expect(store.get('t1')).toEqual(refund('t1'));
    expect(createSentRefundsStore(null).get('t1')).toBeNull();
  });
});
