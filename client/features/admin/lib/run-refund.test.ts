import { describe, expect, it } from 'vitest';
import type { AttentionItem } from '../../../../common/payments-desk';
import { ApiError } from '../../../lib/api-client';
import type { TokenPayment, TransferReceipt } from '../../../web3/token-payment';
import { recordSentRefund, REFUND_REVERTED_MESSAGE, runRefund, type RefundDeps, type RefundPlan } from './run-refund';
import type { SentRefund } from './sent-refunds';

const HASH = '0x' + 'cd'.repeat(32);
const STORE = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const BUYER = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';
const plan: RefundPlan = { transferId: 't1', from: STORE, to: BUYER, amount: '5.00', wei: 5n * 10n ** 18n };
const item = { transferId: 't1', refunds: [] } as unknown as AttentionItem;

function rig(options: {
  balance?: bigint;
  transfer?: () => Promise<string>;
  receipt?: TransferReceipt | null;
  record?: () => Promise<AttentionItem>;
  prepare?: () => Promise<AttentionItem>;
  connect?: () => Promise<TokenPayment>;
}) {
  const log: string[] = [];
  const kept = new Map<string, SentRefund>();
  const payment: TokenPayment = {
    balanceOf: async (owner) => {
      log.push(`balanceOf ${owner}`);
      return options.balance ?? 10n ** 21n;
    },
    transfer: async (from, to, amount) => {
      log.push(`transfer ${from} ${to} ${amount}`);
      return (options.transfer ?? (async () => HASH))();
    },
    waitForReceipt: async () => (options.receipt === undefined ? { status: 1, blockNumber: 7 } : options.receipt),
    dispose: () => log.push('dispose'),
  };
  const deps: RefundDeps = {
    connectToken: options.connect ?? (async () => payment),
    keepSent: (sent) => {
      log.push('keep');
      kept.set(sent.transferId, sent);
    },
    forgetSent: (id) => {
      log.push('forget');
      kept.delete(id);
    },
    prepare: async (id, amount) => {
      log.push(`prepare ${id} ${amount}`);
      return (options.prepare ?? (async () => item))();
    },
    record: async (id, request) => {
      log.push(`record ${id} ${request.transactionHash === HASH} ${request.amount}`);
      return (options.record ?? (async () => item))();
    },
    step: (step) => log.push(`step ${step}`),
    now: () => new Date('2026-01-01T00:00:00Z'),
  };
  return { deps, log, kept };
}

describe('runRefund', () => {
  it('sends transfer(refundTo, wei) from the store wallet, keeps the hash at once, then has the server record it', async () => {
    const { deps, log, kept } = rig({});
    const outcome = await runRefund(plan, deps);
    expect(outcome).toMatchObject({ kind: 'recorded', item, sent: { txHash: HASH, amount: '5.00', to: BUYER } });
    expect(log).toEqual([
      'step preparing',
      `balanceOf ${STORE}`,
      'prepare t1 5.00',
      'step awaiting-wallet',
      `transfer ${STORE} ${BUYER} ${plan.wei}`,
      'keep',
      'step confirming',
      'dispose',
      'step verifying',
      'record t1 true 5.00',
      'forget',
    ]);
    expect(kept.size).toBe(0);
  });

  it('sends nothing when the server refuses to prepare the refund, and says why', async () => {
    const refused = new ApiError(409, '409: …', { serverMessage: 'Only 4.00 POG of this payment can still be refunded.' });
    const { deps, log, kept } = rig({ prepare: async () => Promise.reject(refused) });
    expect(await runRefund(plan, deps)).toEqual({ kind: 'not-sent', message: 'Only 4.00 POG of this payment can still be refunded.' });
    expect(log.some((l) => l.startsWith('transfer'))).toBe(false);
    expect(kept.size).toBe(0);
  });

  it('sends nothing when the store wallet holds too little, and says how much more it needs', async () => {
    const { deps, log } = rig({ balance: 4n * 10n ** 18n });
    expect(await runRefund(plan, deps)).toEqual({ kind: 'not-sent', message: 'Insufficient POG balance. You need 1.00 more POG' });
    expect(log.some((l) => l.startsWith('transfer'))).toBe(false);
  });

  it('a rejection in the wallet or a wrong network sends nothing and says why', async () => {
    const rejected = rig({ transfer: async () => Promise.reject(Object.assign(new Error('User rejected'), { code: 4001 })) });
    expect(await runRefund(plan, rejected.deps)).toEqual({ kind: 'not-sent', message: 'Transaction was rejected by user' });
    expect(rejected.kept.size).toBe(0);
    const offBase = rig({
      connect: async () => Promise.reject(new Error('Please switch to Base Network in your wallet to make payments...')),
    });
    expect(await runRefund(plan, offBase.deps)).toMatchObject({ kind: 'not-sent', message: /switch to Base/ });
  });

  it('a reverted transfer moved nothing: the hash is dropped and it may be tried again', async () => {
    const { deps, kept, log } = rig({ receipt: { status: 0, blockNumber: 7 } });
    expect(await runRefund(plan, deps)).toEqual({ kind: 'not-sent', message: REFUND_REVERTED_MESSAGE });
    expect(kept.size).toBe(0);
    expect(log.some((l) => l.startsWith('record'))).toBe(false);
  });

  it('once sent, a missing receipt or a refused record keeps the hash for "Check again"', async () => {
    const slow = rig({ receipt: null });
    expect(await runRefund(plan, slow.deps)).toMatchObject({
      kind: 'sent-not-recorded',
      sent: { txHash: HASH },
      message: 'Transaction receipt not found',
    });
    expect(slow.kept.get('t1')?.txHash).toBe(HASH);

    const refused = new ApiError(422, '422: …', { serverMessage: 'The refund did not come from the store wallet.' });
    const wrong = rig({ record: async () => Promise.reject(refused) });
    expect(await runRefund(plan, wrong.deps)).toMatchObject({
      kind: 'sent-not-recorded',
      message: 'The refund did not come from the store wallet.',
    });
    expect(wrong.kept.get('t1')?.txHash).toBe(HASH);
  });
});

describe('recordSentRefund ("Check again")', () => {
  it('records a kept refund and forgets it, or keeps it with the reason', async () => {
    const sent: SentRefund = { transferId: 't1', txHash: HASH, amount: '5.00', to: BUYER, sentAt: 'x' };
    const ok = rig({});
    ok.kept.set('t1', sent);
    expect(await recordSentRefund(sent, ok.deps)).toEqual({ kind: 'recorded', item, sent });
    expect(ok.kept.size).toBe(0);

    const waiting = rig({ record: async () => Promise.reject(new Error('Not deep enough yet.')) });
    waiting.kept.set('t1', sent);
    expect(await recordSentRefund(sent, waiting.deps)).toEqual({ kind: 'sent-not-recorded', sent, message: 'Not deep enough yet.' });
    expect(waiting.kept.size).toBe(1);
  });
});
