import { Interface } from 'ethers';
import { describe, expect, it } from 'vitest';
import { refusalOf, singleCall, userOperationSchema, type UserOperation } from './user-operation';

const TOKEN = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
const STORE = '0x90F79bf6EB2c4f870365E785982E1f101E93b906';
const OTHER = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';
const AMOUNT = 12_340_000_000_000_000_123n;
const ACCOUNT = new Interface([
  'function execute(address target, uint256 value, bytes data)',
  'function executeBatch((address target, uint256 value, bytes data)[] calls)',
]);
const ERC20 = new Interface([
  'function transfer(address to, uint256 value) returns (bool)',
  'function approve(address spender, uint256 value) returns (bool)',
]);

const transfer = (to = STORE, value = AMOUNT) => ERC20.encodeFunctionData('transfer', [to, value]);
const execute = (target = TOKEN, data = transfer(), value = 0n) => ACCOUNT.encodeFunctionData('execute', [target, value, data]);
const batch = (...calls: Array<[string, bigint, string]>) => ACCOUNT.encodeFunctionData('executeBatch', [calls]);
const op = (callData: string): UserOperation =>
  userOperationSchema.parse({
    sender: OTHER,
    nonce: '0x0',
    callData,
    callGasLimit: '0xea60',
    verificationGasLimit: '0x493e0',
    preVerificationGas: '0xc350',
    maxFeePerGas: '0x3b9aca00',
    maxPriorityFeePerGas: '0x1',
    signature: '0x',
  });
const expected = { token: TOKEN, storeWallet: STORE, amountWei: AMOUNT };

describe('refusalOf', () => {
  // [what, callData, reason (null: the payment)]
  const table: Array<[string, string, string | null]> = [
    ['the transfer through execute', execute(), null],
    ['the transfer as a batch of one', batch([TOKEN, 0n, transfer()]), null],
    ['the store wallet written in lower case', execute(TOKEN, transfer(STORE.toLowerCase())), null],
    ['a second call in the batch', batch([TOKEN, 0n, transfer()], [TOKEN, 0n, transfer(OTHER, 1n)]), 'not-one-call'],
    ['an empty batch', batch(), 'not-one-call'],
    ['not a call of the account at all', transfer(), 'not-one-call'],
    ['garbage', '0xdeadbeef', 'not-one-call'],
    ['another token', execute(OTHER), 'not-the-token'],
    ['ETH sent along', execute(TOKEN, transfer(), 1n), 'not-the-token'],
    ['an approval instead of a transfer', execute(TOKEN, ERC20.encodeFunctionData('approve', [STORE, AMOUNT])), 'not-a-transfer'],
    ['a transfer with bytes after it', execute(TOKEN, `${transfer()}00`), 'not-a-transfer'],
    ['another recipient', execute(TOKEN, transfer(OTHER)), 'not-the-store'],
    ['one wei less', execute(TOKEN, transfer(STORE, AMOUNT - 1n)), 'not-the-amount'],
    ['one wei more', execute(TOKEN, transfer(STORE, AMOUNT + 1n)), 'not-the-amount'],
  ];
  it.each(table)('%s', (_what, callData, reason) => {
    const refusal = refusalOf(op(callData), expected);
    expect(refusal?.reason ?? null).toBe(reason);
    if (refusal) expect(refusal.message.length).toBeGreaterThan(10);
  });
});

describe('singleCall', () => {
  it('reads the one call of execute and of a batch of one, and nothing else', () => {
    expect(singleCall(execute())).toEqual({ target: TOKEN, value: 0n, data: transfer() });
    expect(singleCall(batch([TOKEN, 0n, transfer()]))).toEqual({ target: TOKEN, value: 0n, data: transfer() });
    expect(singleCall(batch([TOKEN, 0n, transfer()], [TOKEN, 0n, transfer()]))).toBeNull();
    expect(singleCall('0x')).toBeNull();
  });
});

describe('userOperationSchema', () => {
  it('refuses what is not a user operation, naming the field', () => {
    const bad = userOperationSchema.safeParse({ sender: '0x12', nonce: '0x0', callData: '0x' });
    expect(bad.success).toBe(false);
    expect(bad.error!.issues.map((i) => i.path[0])).toContain('sender');
    expect(userOperationSchema.safeParse({ ...op(execute()), nonce: '0x01' }).success).toBe(false);
    // A mixed-case address with a wrong checksum is not an address (ethers would throw on it later).
    const badChecksum = OTHER.replace('C44', 'c44');
    expect(userOperationSchema.safeParse({ ...op(execute()), sender: badChecksum }).success).toBe(false);
    expect(userOperationSchema.safeParse({ ...op(execute()), sender: OTHER.toLowerCase() }).success).toBe(true);
  });
});
