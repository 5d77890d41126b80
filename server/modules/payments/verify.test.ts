import { describe, expect, it } from 'vitest';
import { zeroPadValue, toBeHex } from 'ethers';
import { HTTP_STATUS } from '../../lib/errors';
import { checkReceipt, decodeStoreTransfer, TRANSFER_TOPIC, type RawLog } from './verify';
import { paymentUri } from './amount';

const TOKEN = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
const STORE = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const BUYER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const OTHER = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';

const topic = (a: string) => zeroPadValue(a, 32);
function transferLog(over: Partial<RawLog> & { from?: string; to?: string; value?: bigint } = {}): RawLog {
  const { from = BUYER, to = STORE, value = 25n * 10n ** 18n + 12345n, ...rest } = over;
  return {
    address: TOKEN,
    topics: [TRANSFER_TOPIC, topic(from), topic(to)],
    data: zeroPadValue(toBeHex(value), 32),
    logIndex: 0,
    blockNumber: 10,
    blockHash: '0x' + 'ab'.repeat(32),
    transactionHash: '0x' + 'CD'.repeat(32),
    ...rest,
  };
}
const base = { known: true, head: 10, requiredConfirmations: 1, chainId: 8453, token: TOKEN, storeWallet: STORE };

describe('decodeStoreTransfer', () => {
  it('decodes a transfer of the token to the store, lower-casing addresses and the hash', () => {
    expect(decodeStoreTransfer(transferLog(), 8453, TOKEN.toLowerCase(), STORE)).toMatchObject({
      from: BUYER.toLowerCase(),
      to: STORE.toLowerCase(),
      value: 25n * 10n ** 18n + 12345n,
      txHash: '0x' + 'cd'.repeat(32),
      removed: false,
    });
  });
  it('ignores another contract, another recipient, and non-Transfer events', () => {
    expect(decodeStoreTransfer(transferLog({ address: OTHER }), 8453, TOKEN, STORE)).toBeNull();
    expect(decodeStoreTransfer(transferLog({ to: OTHER }), 8453, TOKEN, STORE)).toBeNull();
    const approval = transferLog();
    expect(
      decodeStoreTransfer({ ...approval, topics: ['0x' + '11'.repeat(32), ...approval.topics.slice(1)] }, 8453, TOKEN, STORE),
    ).toBeNull();
  });
});

describe('checkReceipt', () => {
  const receipt = (over: Partial<{ status: number; blockNumber: number; logs: RawLog[] }> = {}) => ({
    status: 1,
    blockNumber: 10,
    logs: [transferLog()],
    ...over,
  });
  it('accepts a confirmed transfer to the store, whoever sent it (the amount names the checkout)', () => {
    const r = checkReceipt({ ...base, receipt: receipt() });
    expect(r.ok && r.transfers.length).toBe(1);
    const fromAnyone = checkReceipt({ ...base, receipt: receipt({ logs: [transferLog({ from: OTHER })] }) });
    expect(fromAnyone.ok && fromAnyone.transfers.map((t) => t.from)).toEqual([OTHER.toLowerCase()]);
  });
  it('hands over the transfers of a mined transaction that is not deep enough yet (to claim stock)', () => {
    const r = checkReceipt({ ...base, requiredConfirmations: 3, receipt: receipt() });
    expect(!r.ok && r.pending.map((t) => t.value)).toEqual([25n * 10n ** 18n + 12345n]);
    const pendingTx = checkReceipt({ ...base, receipt: null, known: true });
    expect(!pendingTx.ok && pendingTx.pending).toEqual([]);
  });
  it('never counts a log flagged removed', () => {
    const r = checkReceipt({ ...base, receipt: receipt({ logs: [transferLog({ removed: true })] }) });
    expect(r.ok ? 'ok' : r.code).toBe('transfer-not-found');
  });
  it('rejects each failure with its own code (and so its status)', () => {
    const code = (r: ReturnType<typeof checkReceipt>) => (r.ok ? 'ok' : `${HTTP_STATUS[r.code]} ${r.code}`);
    expect(code(checkReceipt({ ...base, receipt: null, known: false }))).toBe('404 transaction-not-found');
    expect(code(checkReceipt({ ...base, receipt: null, known: true }))).toBe('202 awaiting-confirmations');
    expect(code(checkReceipt({ ...base, receipt: receipt({ status: 0 }) }))).toBe('422 transaction-failed');
    expect(code(checkReceipt({ ...base, requiredConfirmations: 3, receipt: receipt() }))).toBe('202 awaiting-confirmations');
    expect(code(checkReceipt({ ...base, requiredConfirmations: 3, head: 12, receipt: receipt() }))).toBe('ok');
    expect(code(checkReceipt({ ...base, receipt: receipt({ logs: [transferLog({ to: OTHER })] }) }))).toBe('422 transfer-not-found');
    expect(code(checkReceipt({ ...base, receipt: receipt({ logs: [transferLog({ address: OTHER })] }) }))).toBe('422 transfer-not-found');
    // Not a transfer to the store is said at once, however deep.
    expect(code(checkReceipt({ ...base, requiredConfirmations: 3, receipt: receipt({ logs: [transferLog({ to: OTHER })] }) }))).toBe(
      '422 transfer-not-found',
    );
  });
});

describe('payment amounts', () => {
  it('builds the EIP-681 transfer link', () => {
    expect(paymentUri(TOKEN, 8453, STORE, 25000000000000012345n)).toBe(
      `ethereum:${TOKEN}@8453/transfer?address=${STORE}&uint256=25000000000000012345`,
    );
  });
});
