import { Interface } from 'ethers';
import { describe, expect, it, vi } from 'vitest';
import { TRANSACTION_FAILED_MESSAGE } from './payment-errors';
import { CAPABILITIES_TIMEOUT_MS, callsPollDelay, offersPaymaster, sendSponsoredTransfer } from './sponsored-calls';
import type { RequestArguments } from './types';

const FROM = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';
const TOKEN = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
const STORE = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const HASH = `0x${'cd'.repeat(32)}`;
const paymaster = { url: 'https://shop.example/api/paymaster', context: { ticket: 't' } };

/** A wallet that answers each method from `answers` (a function of the call count for polling), recording the calls. */
function wallet(answers: Record<string, (n: number, params: unknown) => unknown>) {
  const calls: RequestArguments[] = [];
  const counts = new Map<string, number>();
  return {
    calls,
    request: async (args: RequestArguments) => {
      calls.push(args);
      const n = (counts.get(args.method) ?? 0) + 1;
      counts.set(args.method, n);
      const answer = answers[args.method];
      if (!answer) throw Object.assign(new Error('Method not supported'), { code: 4200 });
      return answer(n, args.params);
    },
  };
}
const noSleep = async () => {};

describe('offersPaymaster', () => {
  it('is true only when the wallet says paymasterService is supported on Base', async () => {
    expect(
      await offersPaymaster(wallet({ wallet_getCapabilities: () => ({ '0x2105': { paymasterService: { supported: true } } }) }), FROM),
    ).toBe(true);
    for (const answer of [
      { '0x2105': { paymasterService: { supported: false } } },
      { '0x1': { paymasterService: { supported: true } } },
      {},
      null,
    ]) {
      expect(await offersPaymaster(wallet({ wallet_getCapabilities: () => answer }), FROM)).toBe(false);
    }
    // MetaMask and other plain-key wallets without the method.
    expect(await offersPaymaster(wallet({}), FROM)).toBe(false);
  });

  it('is false when the wallet does not answer in time (a plain transfer instead of a payment that waits forever)', async () => {
    vi.useFakeTimers();
    try {
      const silent = offersPaymaster({ request: () => new Promise<unknown>(() => undefined) }, FROM);
      await vi.advanceTimersByTimeAsync(CAPABILITIES_TIMEOUT_MS);
      expect(await silent).toBe(false);
      // An answer within the time still counts.
      const answer = { '0x2105': { paymasterService: { supported: true } } };
      const slow = offersPaymaster(
        { request: () => new Promise<unknown>((resolve) => setTimeout(() => resolve(answer), CAPABILITIES_TIMEOUT_MS - 1)) },
        FROM,
      );
      await vi.advanceTimersByTimeAsync(CAPABILITIES_TIMEOUT_MS - 1);
      expect(await slow).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('callsPollDelay', () => {
  it('asks soon at first, then less often, never less than once a second', () => {
    const delays = Array.from({ length: 8 }, (_, i) => callsPollDelay(i));
    expect(delays.slice(0, 4)).toEqual([200, 300, 450, 675]);
    expect(delays.slice(4)).toEqual([1000, 1000, 1000, 1000]);
  });
});

describe('sendSponsoredTransfer', () => {
  const call = { from: FROM, token: TOKEN, to: STORE, amountWei: 25n * 10n ** 18n + 7n, paymaster };

  it('sends one transfer call with the paymaster capability, and answers the carrying transaction once the wallet has one', async () => {
    const w = wallet({
      wallet_sendCalls: () => ({ id: 'batch-1' }),
      wallet_getCallsStatus: (n) => (n < 3 ? { status: 100 } : { status: 200, receipts: [{ transactionHash: HASH, status: '0x1' }] }),
    });
    const waits: number[] = [];
    const sleep = async (ms: number) => void waits.push(ms);
    expect(await sendSponsoredTransfer(w, call, { timeoutMs: 60_000, sleep })).toBe(HASH);
    // Asked soon after sending, then less often.
    expect(waits).toEqual([200, 300]);
    const sent = (w.calls[0]!.params as unknown[])[0] as {
      chainId: string;
      from: string;
      calls: Array<{ to: string; data: string; value: string }>;
      capabilities: unknown;
    };
    expect(sent).toMatchObject({ chainId: '0x2105', from: FROM, capabilities: { paymasterService: paymaster } });
    expect(sent.calls).toHaveLength(1);
    expect(sent.calls[0]).toMatchObject({ to: TOKEN, value: '0x0' });
    const decoded = new Interface(['function transfer(address to, uint256 amount)']).decodeFunctionData('transfer', sent.calls[0]!.data);
    expect([decoded[0], decoded[1]]).toEqual([STORE, call.amountWei]);
    expect(w.calls.filter((c) => c.method === 'wallet_getCallsStatus')).toHaveLength(3);
  });

  it('takes the id as an older wallet gives it (a string)', async () => {
    const w = wallet({
      wallet_sendCalls: () => 'batch-2',
      wallet_getCallsStatus: (_n, params) => ({ receipts: [{ transactionHash: (params as string[])[0] === 'batch-2' ? HASH : null }] }),
    });
    expect(await sendSponsoredTransfer(w, call, { timeoutMs: 60_000, sleep: noSleep })).toBe(HASH);
  });

  it('fails when the calls failed, when the wallet gives no id, and when no transaction comes in time', async () => {
    const failed = wallet({ wallet_sendCalls: () => ({ id: 'b' }), wallet_getCallsStatus: () => ({ status: 500 }) });
    await expect(sendSponsoredTransfer(failed, call, { timeoutMs: 60_000, sleep: noSleep })).rejects.toThrow(TRANSACTION_FAILED_MESSAGE);
    const noId = wallet({ wallet_sendCalls: () => ({}) });
    await expect(sendSponsoredTransfer(noId, call, { timeoutMs: 60_000, sleep: noSleep })).rejects.toThrow(/did not say which payment/);
    const slow = wallet({ wallet_sendCalls: () => ({ id: 'b' }), wallet_getCallsStatus: () => ({ status: 100 }) });
    await expect(sendSponsoredTransfer(slow, call, { timeoutMs: -1, sleep: noSleep })).rejects.toThrow(/has not sent the payment yet/);
    // Included, but the transfer reverted (the bundle's transaction itself succeeded): no order to wait for.
    const reverted = wallet({
      wallet_sendCalls: () => ({ id: 'b' }),
      wallet_getCallsStatus: () => ({ status: 500, receipts: [{ transactionHash: HASH, status: '0x0' }] }),
    });
    await expect(sendSponsoredTransfer(reverted, call, { timeoutMs: 60_000, sleep: noSleep })).rejects.toThrow(TRANSACTION_FAILED_MESSAGE);
  });

  it('asks again when the wallet fails to answer or never does, and then tells the shopper to look before paying again', async () => {
    vi.useFakeTimers();
    try {
      // An id the wallet does not know yet, then a hash: the error is not the shopper's.
      const forgetful = wallet({
        wallet_sendCalls: () => ({ id: 'b' }),
        wallet_getCallsStatus: (n) => {
          if (n === 1) throw new Error('unknown bundle id');
          return { receipts: [{ transactionHash: HASH, status: '0x1' }] };
        },
      });
      const found = sendSponsoredTransfer(forgetful, call, { timeoutMs: 60_000 });
      await vi.advanceTimersByTimeAsync(callsPollDelay(0));
      expect(await found).toBe(HASH);

      // A wallet that never answers its status: not a wait forever.
      const mute = {
        request: async (args: RequestArguments) => (args.method === 'wallet_sendCalls' ? { id: 'b' } : new Promise(() => undefined)),
      };
      const lost = sendSponsoredTransfer(mute, call, { timeoutMs: 10_000 }).catch((error: unknown) => error);
      await vi.advanceTimersByTimeAsync(10_000 + 1000);
      expect(await lost).toMatchObject({ message: expect.stringMatching(/Check your wallet’s activity before paying again/) });
    } finally {
      vi.useRealTimers();
    }
  });
});
