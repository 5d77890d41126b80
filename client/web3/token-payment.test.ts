import { describe, expect, it } from 'vitest';
import { createTokenPayment } from './token-payment';
import type { Eip1193Provider, RequestArguments } from './types';

const BUYER = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';
const STORE = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const TOKEN = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
const HASH = '0x' + 'cd'.repeat(32);
const word = (n: bigint) => '0x' + n.toString(16).padStart(64, '0');

/** A wallet on Base answering what ethers asks; `answers` overrides per method. */
function fakeWallet(answers: Record<string, (params: unknown[]) => unknown> = {}) {
  const calls: RequestArguments[] = [];
  const wallet: Eip1193Provider = {
    async request(args) {
      calls.push(args);
      const params = (args.params ?? []) as unknown[];
      const answer = answers[args.method];
      if (answer) return answer(params);
      switch (args.method) {
        case 'eth_chainId':
          return '0x2105';
        case 'eth_accounts':
          return [BUYER.toLowerCase()];
        case 'eth_blockNumber':
          return '0x10';
        default:
          throw Object.assign(new Error(`unexpected ${args.method}`), { code: -32601 });
      }
    },
  };
  return { wallet, calls };
}

describe('createTokenPayment', () => {
  it('reads balanceOf(owner) from the token contract', async () => {
    const { wallet, calls } = fakeWallet({ eth_call: () => word(123n * 10n ** 18n) });
    const payment = createTokenPayment(wallet, TOKEN);
    await expect(payment.balanceOf(BUYER)).resolves.toBe(123n * 10n ** 18n);
    const call = calls.find((c) => c.method === 'eth_call')!;
    const [tx] = call.params as [{ to: string; data: string }];
    expect(tx.to.toLowerCase()).toBe(TOKEN.toLowerCase());
    expect(tx.data).toBe('0x70a08231' + BUYER.slice(2).toLowerCase().padStart(64, '0'));
    payment.dispose();
  });

  it("a non-answer is 'Invalid balance response' (no contract at the address, garbage)", async () => {
    for (const answer of ['0x', '0x1234']) {
      const { wallet } = fakeWallet({ eth_call: () => answer });
      const payment = createTokenPayment(wallet, TOKEN);
      await expect(payment.balanceOf(BUYER)).rejects.toMatchObject({ name: 'WalletError', message: 'Invalid balance response' });
      payment.dispose();
    }
  });

  it('sends transfer(store, amountWei) from the buyer with gas limit 150000 and returns the hash at once', async () => {
    const { wallet, calls } = fakeWallet({ eth_sendTransaction: () => HASH });
    const payment = createTokenPayment(wallet, TOKEN);
    const amount = 25n * 10n ** 18n + 12345n;
    await expect(payment.transfer(BUYER, STORE, amount)).resolves.toBe(HASH);
    const send = calls.find((c) => c.method === 'eth_sendTransaction')!;
    const [tx] = send.params as [{ from: string; to: string; data: string; gas?: string; gasLimit?: string }];
    expect(tx.from.toLowerCase()).toBe(BUYER.toLowerCase());
    expect(tx.to.toLowerCase()).toBe(TOKEN.toLowerCase());
    expect(BigInt(tx.gas ?? tx.gasLimit ?? '0')).toBe(150_000n);
    expect(tx.data).toBe('0xa9059cbb' + STORE.slice(2).toLowerCase().padStart(64, '0') + amount.toString(16).padStart(64, '0'));
    // Nothing waits for the node to index the transaction before the hash is handed back.
    expect(calls.map((c) => c.method)).not.toContain('eth_getTransactionByHash');
    payment.dispose();
  });

  it("passes the wallet's rejection on (ethers wraps 4001 as ACTION_REJECTED)", async () => {
    const { wallet } = fakeWallet({
      eth_sendTransaction: () => {
        throw Object.assign(new Error('User rejected the request.'), { code: 4001 });
      },
    });
    const payment = createTokenPayment(wallet, TOKEN);
    await expect(payment.transfer(BUYER, STORE, 1n)).rejects.toMatchObject({ code: 'ACTION_REJECTED' });
    payment.dispose();
  });

  it('a wallet on another chain cannot pay: the Base network message', async () => {
    const { wallet } = fakeWallet({ eth_chainId: () => '0x1', eth_call: () => word(1n) });
    const payment = createTokenPayment(wallet, TOKEN);
    await expect(payment.balanceOf(BUYER)).rejects.toMatchObject({
      name: 'WalletError',
      message: 'Please switch to Base Network in your wallet to make payments...',
    });
    payment.dispose();
  });

  it('asks again while the transaction is pending, and answers once a block holds it', async () => {
    let asked = 0;
    const { wallet } = fakeWallet({
      eth_getTransactionReceipt: () =>
        ++asked < 3
          ? null
          : {
              transactionHash: HASH,
              blockHash: '0x' + 'ee'.repeat(32),
              blockNumber: '0x11',
              transactionIndex: '0x0',
              from: BUYER,
              to: TOKEN,
              contractAddress: null,
              cumulativeGasUsed: '0x5208',
              gasUsed: '0x5208',
              effectiveGasPrice: '0x1',
              logs: [],
              logsBloom: '0x' + '00'.repeat(256),
              status: '0x1',
              type: '0x2',
            },
    });
    const payment = createTokenPayment(wallet, TOKEN);
    await expect(payment.waitForReceipt(HASH)).resolves.toEqual({ status: 1, blockNumber: 17 });
    expect(asked).toBe(3);
    payment.dispose();
  });

  it('gives the receipt status: 1 mined, 0 reverted', async () => {
    for (const status of ['0x1', '0x0']) {
      const { wallet } = fakeWallet({
        eth_getTransactionReceipt: () => ({
          transactionHash: HASH,
          blockHash: '0x' + 'ee'.repeat(32),
          blockNumber: '0x10',
          transactionIndex: '0x0',
          from: BUYER,
          to: TOKEN,
          contractAddress: null,
          cumulativeGasUsed: '0x5208',
          gasUsed: '0x5208',
          effectiveGasPrice: '0x1',
          logs: [],
          logsBloom: '0x' + '00'.repeat(256),
          status,
          type: '0x2',
        }),
      });
      const payment = createTokenPayment(wallet, TOKEN);
      await expect(payment.waitForReceipt(HASH)).resolves.toEqual({ status: Number(status), blockNumber: 16 });
      payment.dispose();
    }
  });
});
