import { BrowserProvider } from 'ethers';
import { describe, expect, it } from 'vitest';
import { insufficientBalanceMessage, paymentErrorMessage } from './payment-errors';

const POG = 10n ** 18n;

describe('paymentErrorMessage', () => {
  it('4001 from the wallet, bare or wrapped by ethers, is a rejection', () => {
    expect(paymentErrorMessage({ code: 4001, message: 'User rejected the request.' })).toBe('Transaction was rejected by user');
    const ethersRejected = Object.assign(
      new Error('user rejected action (action="sendTransaction", code=ACTION_REJECTED, version=6.17.0)'),
      {
        code: 'ACTION_REJECTED',
        shortMessage: 'user rejected action',
        info: { error: { code: 4001, message: 'User rejected the request.' } },
      },
    );
    expect(paymentErrorMessage(ethersRejected)).toBe('Transaction was rejected by user');
  });

  it('-32000 means the account cannot pay', () => {
    expect(paymentErrorMessage({ code: -32000, message: 'gas required exceeds allowance' })).toBe(
      'Insufficient funds for gas or token balance',
    );
    expect(paymentErrorMessage({ code: 'INSUFFICIENT_FUNDS', error: { code: -32000, message: 'insufficient funds' } })).toBe(
      'Insufficient funds for gas or token balance',
    );
  });

  it('an "insufficient funds" message without that code', () => {
    expect(paymentErrorMessage(new Error('insufficient funds for intrinsic transaction cost'))).toBe(
      'Insufficient POG tokens or ETH for gas fees',
    );
    expect(paymentErrorMessage({ code: -32603, shortMessage: 'Insufficient funds for gas * price + value' })).toBe(
      'Insufficient POG tokens or ETH for gas fees',
    );
  });

  it('a "user rejected" message without a code is a cancellation', () => {
    expect(paymentErrorMessage(new Error('User rejected.'))).toBe('Transaction was cancelled by user');
    expect(paymentErrorMessage(new Error('MetaMask Tx Signature: User denied transaction signature.'))).toBe(
      'Transaction was cancelled by user',
    );
  });

  it('otherwise the reason, then the message, then the fallback', () => {
    expect(
      paymentErrorMessage({ code: 'CALL_EXCEPTION', reason: 'ERC20: transfer amount exceeds balance', shortMessage: 'execution reverted' }),
    ).toBe('ERC20: transfer amount exceeds balance');
    expect(
      paymentErrorMessage({
        code: 'NETWORK_ERROR',
        shortMessage: 'network changed: 1 => 8453',
        message: 'network changed: 1 => 8453 (event=…)',
      }),
    ).toBe('network changed: 1 => 8453');
    expect(paymentErrorMessage(new Error('Internal JSON-RPC error.'))).toBe('Internal JSON-RPC error.');
    expect(paymentErrorMessage('Popup closed')).toBe('Popup closed');
    for (const e of [undefined, null, {}, new Error(''), { message: '  ' }, 42])
      expect(paymentErrorMessage(e)).toBe('Failed to process payment');
  });
});

const BUYER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

/** A wallet that reverts every transaction with `error`, seen through ethers as the shop sees it. */
async function sendThroughEthers(error: unknown): Promise<unknown> {
  const wallet = {
    request: async ({ method }: { method: string }) => {
      if (method === 'eth_chainId') return '0x2105';
      if (method === 'eth_accounts' || method === 'eth_requestAccounts') return [BUYER];
      throw error;
    },
  };
  const signer = await new BrowserProvider(wallet).getSigner();
  return signer.sendTransaction({ to: BUYER, gasLimit: 150_000n }).then(
    () => expect.unreachable('the wallet reverts'),
    (e: unknown) => e,
  );
}

describe("paymentErrorMessage: the wallet's words under a library's wrapping", () => {
  it('ethers\' "could not coalesce error" shows the message the wallet gave', async () => {
    const thrown = await sendThroughEthers({ code: 5000, message: 'execution reverted: boom' });
    expect((thrown as { shortMessage?: string }).shortMessage).toBe('could not coalesce error');
    expect(paymentErrorMessage(thrown)).toBe('execution reverted: boom');
    const internal = await sendThroughEthers(Object.assign(new Error('execution reverted: out of stock'), { code: -32603 }));
    expect(paymentErrorMessage(internal)).toBe('execution reverted: out of stock');
  });

  it('the reason first, then the wallet error in info.error or error, then shortMessage', () => {
    expect(
      paymentErrorMessage({ code: 'CALL_EXCEPTION', reason: 'boom', shortMessage: 'execution reverted: "boom"', message: 'dump…' }),
    ).toBe('boom');
    expect(
      paymentErrorMessage({
        code: 'UNKNOWN_ERROR',
        shortMessage: 'could not coalesce error',
        message: 'could not coalesce error (error={ … }, code=UNKNOWN_ERROR, version=6.17.0)',
        info: { error: { code: 5000, message: 'execution reverted: boom' } },
      }),
    ).toBe('execution reverted: boom');
    expect(
      paymentErrorMessage({
        code: 'UNKNOWN_ERROR',
        shortMessage: 'could not coalesce error',
        error: { message: 'execution reverted: boom' },
      }),
    ).toBe('execution reverted: boom');
    expect(paymentErrorMessage({ code: 'UNKNOWN_ERROR', shortMessage: 'could not coalesce error', error: { reason: 'boom' } })).toBe(
      'boom',
    );
    expect(paymentErrorMessage({ code: 'TIMEOUT', shortMessage: 'timeout', message: 'timeout (request={ … }, version=6.17.0)' })).toBe(
      'timeout',
    );
  });

  it("a wrapped wallet message still maps to the shop's texts", () => {
    expect(
      paymentErrorMessage({ shortMessage: 'could not coalesce error', info: { error: { message: 'insufficient funds for gas' } } }),
    ).toBe('Insufficient POG tokens or ETH for gas fees');
    expect(
      paymentErrorMessage({ shortMessage: 'could not coalesce error', error: { message: 'User denied transaction signature.' } }),
    ).toBe('Transaction was cancelled by user');
  });
});

describe("paymentErrorMessage: MetaMask's wrapped revert (-32603 'Internal JSON-RPC error.')", () => {
  const REASON = 'execution reverted: ERC20: transfer amount exceeds balance';
  const REVERT_DATA = '0x08c379a0';
  const wrapped = (data: unknown) => ({ code: -32603, message: 'Internal JSON-RPC error.', data });

  // Where MetaMask puts the node's error: in data (extension), data.originalError (mobile), data.cause (rpc-errors 6+).
  it.each([
    ['data', wrapped({ code: 3, message: REASON, data: REVERT_DATA })],
    ['data.message, without a code', wrapped({ message: REASON })],
    ['data.originalError', wrapped({ originalError: { code: 3, message: REASON, data: REVERT_DATA } })],
    ['data.cause', wrapped({ cause: { message: REASON } })],
    ['data.originalError with a reason', wrapped({ originalError: { reason: REASON, message: 'execution reverted' } })],
  ])('shows the revert reason nested in %s, bare and through ethers', async (_where, error) => {
    expect(paymentErrorMessage(error)).toBe(REASON);
    expect(paymentErrorMessage(await sendThroughEthers(error))).toBe(REASON);
  });

  it("still maps a nested reason to the shop's texts", async () => {
    const funds = wrapped({ code: -32000, message: 'insufficient funds for gas * price + value' });
    expect(paymentErrorMessage(funds)).toBe('Insufficient POG tokens or ETH for gas fees');
    expect(paymentErrorMessage(await sendThroughEthers(funds))).toBe('Insufficient POG tokens or ETH for gas fees');
    expect(paymentErrorMessage(wrapped({ originalError: { message: 'User denied transaction signature.' } }))).toBe(
      'Transaction was cancelled by user',
    );
  });

  it("keeps MetaMask's own text when nothing is nested, and ignores revert data that is not text", () => {
    expect(paymentErrorMessage(wrapped(undefined))).toBe('Internal JSON-RPC error.');
    expect(paymentErrorMessage(wrapped(REVERT_DATA))).toBe('Internal JSON-RPC error.');
    expect(paymentErrorMessage(wrapped({ code: 3, data: REVERT_DATA }))).toBe('Internal JSON-RPC error.');
  });
});

describe('insufficientBalanceMessage', () => {
  const SUFFIX = 123_456_789_012n; // a checkout's identifying suffix, below one cent

  it('says how much more POG is needed, grouped, to the cent', () => {
    expect(insufficientBalanceMessage(25n * POG, 0n)).toBe('Insufficient POG balance. You need 25.00 more POG');
    expect(insufficientBalanceMessage(1300n * POG, 65n * POG + POG / 2n)).toBe('Insufficient POG balance. You need 1,234.50 more POG');
  });

  it('counts the shortfall exactly: a zero balance for a 99.90 cart needs 99.90, suffix or not', () => {
    const cart = 9990n * 10n ** 16n;
    expect(insufficientBalanceMessage(cart, 0n)).toBe('Insufficient POG balance. You need 99.90 more POG');
    expect(insufficientBalanceMessage(cart + SUFFIX, 0n)).toBe('Insufficient POG balance. You need 99.90 more POG');
    expect(insufficientBalanceMessage(cart + SUFFIX, 20n * POG)).toBe('Insufficient POG balance. You need 79.90 more POG');
  });

  it('rounds up only what is not a whole number of cents', () => {
    // A balance with a fraction of a cent: 25.00 - 0.004 = 24.996 -> 25.00.
    expect(insufficientBalanceMessage(25n * POG + SUFFIX, 4n * 10n ** 15n)).toBe('Insufficient POG balance. You need 25.00 more POG');
    expect(insufficientBalanceMessage(25n * POG, 12345n)).toBe('Insufficient POG balance. You need 25.00 more POG');
    expect(insufficientBalanceMessage(25n * POG, 10n ** 16n + 1n)).toBe('Insufficient POG balance. You need 24.99 more POG');
  });

  it('never reads 0.00: a balance short by less than a cent, or by the suffix alone, needs 0.01', () => {
    expect(insufficientBalanceMessage(25n * POG, 25n * POG - 1n)).toBe('Insufficient POG balance. You need 0.01 more POG');
    expect(insufficientBalanceMessage(25n * POG + SUFFIX, 25n * POG)).toBe('Insufficient POG balance. You need 0.01 more POG');
    expect(insufficientBalanceMessage(SUFFIX, 0n)).toBe('Insufficient POG balance. You need 0.01 more POG');
  });
});
