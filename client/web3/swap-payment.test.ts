import { describe, expect, it } from 'vitest';
import type { WalletCall } from '../../common/swap-pay';
import { PriceMovedError, TRANSACTION_FAILED_MESSAGE } from './payment-errors';
import { coinBalance, sendSwapCalls, withGasMargin } from './swap-payment';
import type { Eip1193Provider } from './types';

const FROM = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';
const USDC = '0x' + 'aa'.repeat(20);
const ROUTER = '0x' + 'bb'.repeat(20);
const APPROVE_HASH = '0x' + '01'.repeat(32);
const SWAP_HASH = '0x' + '02'.repeat(32);
const ETH_SWAP: WalletCall[] = [{ to: ROUTER, data: '0x5ae401dc', value: '4221000000000000' }];
const APPROVE_DATA = `0x095ea7b3${'0'.repeat(24)}${ROUTER.slice(2)}${25_256_000n.toString(16).padStart(64, '0')}`;
const USDC_SWAP: WalletCall[] = [
  { to: USDC, data: APPROVE_DATA, value: '0' },
  { to: ROUTER, data: '0x5ae401dc', value: '0' },
];
const fast = { timeoutMs: 2000, sleep: async () => undefined };

interface FakeWallet extends Eip1193Provider {
  log: string[];
}

/** A wallet answering as scripted by method; every request logged as "method to value gas". */
function wallet(answers: Record<string, (params: unknown[]) => unknown>): FakeWallet {
  const log: string[] = [];
  return {
    log,
    async request({ method, params = [] }) {
      const tx = (params as Array<Record<string, unknown>>)[0];
      if (method === 'eth_estimateGas' || method === 'eth_sendTransaction') {
        log.push(`${method} ${String(tx?.to)} ${String(tx?.value)}${tx?.gas ? ` gas ${String(tx.gas)}` : ''}`);
      } else log.push(method);
      const answer = answers[method];
      if (!answer) throw Object.assign(new Error(`${method} not supported`), { code: 4200 });
      return answer(params as unknown[]);
    },
  };
}

const reverted = () => {
  throw Object.assign(new Error('execution reverted: Too much requested'), { code: 3 });
};

describe('sendSwapCalls, a plain key', () => {
  it('ETH: estimates the swap, then sends it with half again its gas, value as hex', async () => {
    const w = wallet({ eth_estimateGas: () => '0x30d40', eth_sendTransaction: () => SWAP_HASH });
    expect(await sendSwapCalls(w, FROM, ETH_SWAP, fast)).toBe(SWAP_HASH);
    expect(w.log).toEqual([
      'wallet_getCapabilities',
      `eth_estimateGas ${ROUTER} 0xefefa2598d000`,
      `eth_sendTransaction ${ROUTER} 0xefefa2598d000 gas 0x493e0`,
    ]);
    expect(withGasMargin(200_000n)).toBe(300_000n);
  });

  it('USDC: the approve, its receipt awaited, then the swap', async () => {
    let receipts = 0;
    const w = wallet({
      eth_estimateGas: () => '0x10000',
      eth_sendTransaction: (params) => ((params[0] as { to: string }).to === USDC ? APPROVE_HASH : SWAP_HASH),
      eth_call: () => '0x0', // no allowance yet
      // Not mined at the first ask.
      eth_getTransactionReceipt: () => (receipts++ === 0 ? null : { status: '0x1' }),
    });
    expect(await sendSwapCalls(w, FROM, USDC_SWAP, fast)).toBe(SWAP_HASH);
    expect(w.log).toEqual([
      'wallet_getCapabilities',
      'eth_call',
      `eth_estimateGas ${USDC} 0x0`,
      `eth_sendTransaction ${USDC} 0x0 gas 0x18000`,
      'eth_getTransactionReceipt',
      'eth_getTransactionReceipt',
      `eth_estimateGas ${ROUTER} 0x0`,
      `eth_sendTransaction ${ROUTER} 0x0 gas 0x18000`,
    ]);
  });

  it('a swap whose estimate reverts (the price moved past the bound) is not sent: PriceMovedError', async () => {
    const w = wallet({ eth_estimateGas: reverted, eth_sendTransaction: () => SWAP_HASH });
    await expect(sendSwapCalls(w, FROM, ETH_SWAP, fast)).rejects.toBeInstanceOf(PriceMovedError);
    expect(w.log.some((l) => l.startsWith('eth_sendTransaction'))).toBe(false);
  });

  it('not enough ETH is not a moved price: the wallet’s error goes on', async () => {
    const poor = Object.assign(new Error('insufficient funds for gas * price + value'), { code: -32000 });
    const w = wallet({
      eth_estimateGas: () => {
        throw poor;
      },
    });
    await expect(sendSwapCalls(w, FROM, ETH_SWAP, fast)).rejects.toBe(poor);
  });

  it('a reverted approve stops before the swap', async () => {
    const w = wallet({
      eth_estimateGas: () => '0x10000',
      eth_call: () => '0x0',
      eth_sendTransaction: () => APPROVE_HASH,
      eth_getTransactionReceipt: () => ({ status: '0x0' }),
    });
    await expect(sendSwapCalls(w, FROM, USDC_SWAP, fast)).rejects.toThrow(TRANSACTION_FAILED_MESSAGE);
    expect(w.log.filter((l) => l.startsWith('eth_sendTransaction'))).toHaveLength(1);
  });

  it('an approve the token already covers (an earlier try whose price moved) is not asked again', async () => {
    const asked: unknown[] = [];
    const w = wallet({
      eth_call: (params) => {
        asked.push(params);
        return `0x${25_256_000n.toString(16)}`;
      },
      eth_estimateGas: () => '0x10000',
      eth_sendTransaction: () => SWAP_HASH,
    });
    expect(await sendSwapCalls(w, FROM, USDC_SWAP, fast)).toBe(SWAP_HASH);
    expect(w.log.filter((l) => l.startsWith('eth_sendTransaction'))).toEqual([`eth_sendTransaction ${ROUTER} 0x0 gas 0x18000`]);
    // allowance(owner, spender) on the token
    expect(asked).toEqual([
      [{ to: USDC, data: `0xdd62ed3e${'0'.repeat(24)}${FROM.slice(2).toLowerCase()}${'0'.repeat(24)}${ROUTER.slice(2)}` }, 'latest'],
    ]);
  });

  it('a rejection in the wallet goes on as it is (the payment says "rejected by user")', async () => {
    const rejected = Object.assign(new Error('User rejected the request.'), { code: 4001 });
    const w = wallet({
      eth_estimateGas: () => '0x10000',
      eth_sendTransaction: () => {
        throw rejected;
      },
    });
    await expect(sendSwapCalls(w, FROM, ETH_SWAP, fast)).rejects.toBe(rejected);
  });
});

describe('sendSwapCalls, a wallet that batches atomically (EIP-5792)', () => {
  const capabilities = (status: string) => () => ({ '0x2105': { atomic: { status } } });

  it('USDC: approve and swap as one wallet_sendCalls, no paymaster; the carrying transaction’s hash', async () => {
    let sent: Record<string, unknown> | null = null;
    const w = wallet({
      wallet_getCapabilities: capabilities('supported'),
      wallet_sendCalls: (params) => {
        sent = params[0] as Record<string, unknown>;
        return { id: 'batch-1' };
      },
      wallet_getCallsStatus: () => ({ status: 200, receipts: [{ status: '0x1', transactionHash: SWAP_HASH }] }),
    });
    expect(await sendSwapCalls(w, FROM, USDC_SWAP, fast)).toBe(SWAP_HASH);
    expect(sent).toEqual({
      version: '2.0.0',
      chainId: '0x2105',
      from: FROM,
      atomicRequired: true,
      calls: [
        { to: USDC, data: APPROVE_DATA, value: '0x0' },
        { to: ROUTER, data: '0x5ae401dc', value: '0x0' },
      ],
    });
    expect(w.log).not.toContain('eth_sendTransaction');
  });

  it('ETH: the lone swap is estimated first, and not sent when it would revert', async () => {
    const w = wallet({ wallet_getCapabilities: capabilities('ready'), eth_estimateGas: reverted, wallet_sendCalls: () => ({ id: 'x' }) });
    await expect(sendSwapCalls(w, FROM, ETH_SWAP, fast)).rejects.toBeInstanceOf(PriceMovedError);
    expect(w.log).not.toContain('wallet_sendCalls');
  });

  it('a batch that reverts on chain is a failed transaction', async () => {
    const w = wallet({
      wallet_getCapabilities: capabilities('supported'),
      wallet_sendCalls: () => ({ id: 'batch-2' }),
      wallet_getCallsStatus: () => ({ status: 500, receipts: [{ status: '0x0', transactionHash: SWAP_HASH }] }),
    });
    await expect(sendSwapCalls(w, FROM, USDC_SWAP, fast)).rejects.toThrow(TRANSACTION_FAILED_MESSAGE);
  });
});

describe('coinBalance', () => {
  it('reads ETH from the balance, USDC from the token the approve is for', async () => {
    const asked: unknown[] = [];
    const w: Eip1193Provider = {
      async request({ method, params }) {
        asked.push({ method, params });
        return method === 'eth_getBalance' ? '0xde0b6b3a7640000' : '0x17d7840';
      },
    };
    expect(await coinBalance(w, FROM, { payWith: 'ETH', calls: ETH_SWAP })).toBe(10n ** 18n);
    expect(await coinBalance(w, FROM, { payWith: 'USDC', calls: USDC_SWAP })).toBe(25_000_000n);
    expect(asked).toEqual([
      { method: 'eth_getBalance', params: [FROM, 'latest'] },
      { method: 'eth_call', params: [{ to: USDC, data: `0x70a08231${'0'.repeat(24)}${FROM.slice(2).toLowerCase()}` }, 'latest'] },
    ]);
  });

  it('an answer that is not a quantity is an invalid balance', async () => {
    const w: Eip1193Provider = { request: async () => '0x' };
    await expect(coinBalance(w, FROM, { payWith: 'USDC', calls: USDC_SWAP })).rejects.toThrow('Invalid balance response');
  });
});
