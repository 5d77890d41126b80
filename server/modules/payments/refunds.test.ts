import { describe, expect, it } from 'vitest';
import { toBeHex, zeroPadValue } from 'ethers';
import { ErrorCode } from '../../../common/errors';
import { checkRefundReceipt } from './refunds';
import { TRANSFER_TOPIC, type RawLog } from './verify';

const TOKEN = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
const OTHER_TOKEN = '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512';
const STORE = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const PAYER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const OTHER = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';
const AMOUNT = 12n * 10n ** 18n + 5n;

const topic = (a: string) => zeroPadValue(a, 32);
function transferLog(over: Partial<RawLog> & { from?: string; to?: string; value?: bigint } = {}): RawLog {
  const { from = STORE, to = PAYER, value = AMOUNT, ...rest } = over;
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
const check = (logs: RawLog[], over: { status?: number | null; head?: number; requiredConfirmations?: number; amountWei?: bigint } = {}) =>
  checkRefundReceipt({
    receipt: { status: over.status === undefined ? 1 : over.status, blockNumber: 10, logs },
    known: true,
    head: over.head ?? 10,
    requiredConfirmations: over.requiredConfirmations ?? 1,
    chainId: 8453,
    token: TOKEN.toLowerCase(),
    storeWallet: STORE,
    to: PAYER.toLowerCase(),
    amountWei: over.amountWei ?? AMOUNT,
  });
const codeOf = (r: ReturnType<typeof check>) => (r.ok ? 'ok' : r.code);

describe('checkRefundReceipt', () => {
  it('accepts a transfer of the token from the store wallet to the payer of exactly the amount, lower-casing the hash', () => {
    expect(check([transferLog({ logIndex: 3 })])).toEqual({
      ok: true,
      transfers: [{ chainId: 8453, txHash: '0x' + 'cd'.repeat(32), logIndex: 3, blockNumber: 10, to: PAYER.toLowerCase(), value: AMOUNT }],
    });
  });

  it('picks the matching transfer among others in the same transaction', () => {
    const r = check([
      transferLog({ logIndex: 0, address: OTHER_TOKEN }),
      transferLog({ logIndex: 1, to: OTHER }),
      transferLog({ logIndex: 2, value: 1n }),
      transferLog({ logIndex: 3 }),
    ]);
    expect(r.ok && r.transfers.map((t) => t.logIndex)).toEqual([3]);
  });

  it('names the most precise refusal', () => {
    expect(codeOf(check([]))).toBe(ErrorCode.refundWrongToken);
    expect(codeOf(check([transferLog({ address: OTHER_TOKEN })]))).toBe(ErrorCode.refundWrongToken);
    // Another event of the token (an Approval) is no transfer.
    const approval = transferLog();
    expect(codeOf(check([{ ...approval, topics: ['0x' + '11'.repeat(32), ...approval.topics.slice(1)] }]))).toBe(
      ErrorCode.refundWrongToken,
    );
    expect(codeOf(check([transferLog({ from: OTHER })]))).toBe(ErrorCode.refundNotFromStoreWallet);
    expect(codeOf(check([transferLog({ to: OTHER })]))).toBe(ErrorCode.refundWrongRecipient);
    // The payer's own transfer back to the store is not a refund either.
    expect(codeOf(check([transferLog({ from: PAYER, to: STORE })]))).toBe(ErrorCode.refundNotFromStoreWallet);
    const wrong = check([transferLog({ value: AMOUNT - 1n })]);
    expect(codeOf(wrong)).toBe(ErrorCode.refundWrongAmount);
    expect(!wrong.ok && wrong.message).toContain('12.000000000000000004 POG, not the 12.000000000000000005 POG');
    // A removed log (reorganised away) counts for nothing.
    expect(codeOf(check([transferLog({ removed: true })]))).toBe(ErrorCode.refundWrongToken);
  });

  it('refuses a reverted transaction, and waits for one not mined or not deep enough', () => {
    expect(codeOf(check([transferLog()], { status: 0 }))).toBe(ErrorCode.transactionFailed);
    expect(codeOf(check([transferLog()], { status: null }))).toBe(ErrorCode.transactionFailed);
    const shallow = check([transferLog()], { head: 11, requiredConfirmations: 3 });
    expect(shallow).toMatchObject({ ok: false, code: ErrorCode.awaitingConfirmations, message: expect.stringContaining('2 of 3') });
    expect(codeOf(check([transferLog()], { head: 12, requiredConfirmations: 3 }))).toBe('ok');
    // A wrong refund is refused at once, not awaited.
    expect(codeOf(check([transferLog({ to: OTHER })], { head: 10, requiredConfirmations: 3 }))).toBe(ErrorCode.refundWrongRecipient);
    const base = { head: 10, requiredConfirmations: 1, chainId: 8453, token: TOKEN, storeWallet: STORE, to: PAYER, amountWei: AMOUNT };
    expect(codeOf(checkRefundReceipt({ ...base, receipt: null, known: true }))).toBe(ErrorCode.awaitingConfirmations);
    expect(codeOf(checkRefundReceipt({ ...base, receipt: null, known: false }))).toBe(ErrorCode.transactionNotFound);
  });
});
