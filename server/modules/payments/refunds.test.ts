import { describe, expect, it } from 'vitest';
import { toBeHex, zeroPadValue } from 'ethers';
import { ErrorCode } from '../../../common/errors';
import { AppError } from '../../lib/errors';
import { checkRefundReceipt, refundRecipient } from './refunds';
import type { SwapFacts } from './swap-payer';
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

describe('refundRecipient', () => {
  const POOL = '0x' + 'b0'.repeat(20);
  const swap: SwapFacts = {
    router: '0x' + '40'.repeat(20),
    entryPoint: '0x' + '43'.repeat(20),
    pools: [POOL],
    usdc: '0x' + 'dc'.repeat(20),
    weth: '0x' + 'e7'.repeat(20),
  };
  const refused = (row: Parameters<typeof refundRecipient>[0], facts: SwapFacts | null = swap) => {
    try {
      refundRecipient(row, facts);
    } catch (err) {
      return err instanceof AppError ? { code: err.code, message: err.message } : err;
    }
    return null;
  };

  it('a plain transfer goes back to its sender; a swap to the payer the chain proved', () => {
    expect(refundRecipient({ from_address: PAYER, payer_address: null, paid_with: null }, swap)).toBe(PAYER.toLowerCase());
    expect(refundRecipient({ from_address: PAYER.toLowerCase(), payer_address: PAYER.toLowerCase(), paid_with: 'POGS' }, swap)).toBe(
      PAYER.toLowerCase(),
    );
    expect(refundRecipient({ from_address: POOL, payer_address: OTHER.toLowerCase(), paid_with: 'USDC' }, swap)).toBe(OTHER.toLowerCase());
    expect(refundRecipient({ from_address: POOL, payer_address: OTHER.toLowerCase(), paid_with: 'swap' }, null)).toBe(OTHER.toLowerCase());
  });

  it('refuses a swap whose payer is not proven, and never names a pool, the router or the EntryPoint', () => {
    const unknown = refused({ from_address: POOL, payer_address: null, paid_with: 'swap' });
    expect(unknown).toMatchObject({ code: ErrorCode.refundPayerUnknown });
    expect((unknown as { message: string }).message).toMatch(/will not send POGS to a pool or a router.*by hand/);
    // Even without the route's facts, an unproven swap is refused.
    expect(refused({ from_address: POOL, payer_address: null, paid_with: 'swap' }, null)).toMatchObject({
      code: ErrorCode.refundPayerUnknown,
    });
    // Not looked up yet (or recorded as a plain transfer before the route was set): its sender is a pool.
    expect(refused({ from_address: POOL, payer_address: null, paid_with: null })).toMatchObject({ code: ErrorCode.refundPayerUnknown });
    expect(refused({ from_address: POOL, payer_address: POOL, paid_with: 'POGS' })).toMatchObject({ code: ErrorCode.refundPayerUnknown });
    expect(refused({ from_address: POOL, payer_address: swap.router, paid_with: 'ETH' })).toMatchObject({
      code: ErrorCode.refundPayerUnknown,
    });
    expect(
      refused({ from_address: POOL, payer_address: swap.entryPoint.toUpperCase().replace('0X', '0x'), paid_with: 'ETH' }),
    ).toMatchObject({
      code: ErrorCode.refundPayerUnknown,
    });
  });
});
