import { createRequire } from 'node:module';
import path from 'node:path';
import { Interface, toQuantity, Transaction } from 'ethers';
import { describe, expect, it } from 'vitest';
import {
  bundleTransactionBytes,
  feeCaps,
  GAS_CAPS,
  gasPriceOf,
  gasRefusal,
  MIN_TIP,
  preVerificationGasCap,
  readNetworkFees,
  staticPreVerificationGas,
} from './gas-rules';
import type { UserOperation } from './user-operation';

const SENDER = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
const PAYMASTER = '0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0';
const ENTRY_POINT = '0x4337084D9E255Ff0702461CF8895CE9E3b5Ff108';
const ACCOUNT = new Interface(['function execute(address target, uint256 value, bytes data)']);
const ERC20 = new Interface(['function transfer(address to, uint256 value) returns (bool)']);
const callData = ACCOUNT.encodeFunctionData('execute', [
  SENDER,
  0n,
  ERC20.encodeFunctionData('transfer', ['0x90F79bf6EB2c4f870365E785982E1f101E93b906', 25_000_000_000_000_012_345n]),
]);
const SIZES = { signatureBytes: 65, paymasterDataBytes: 161 };

const op = (over: Partial<UserOperation> = {}): UserOperation => ({
  sender: SENDER,
  nonce: '0x3',
  callData,
  callGasLimit: toQuantity(50_000n),
  verificationGasLimit: toQuantity(60_000n),
  preVerificationGas: toQuantity(50_000n),
  maxFeePerGas: toQuantity(16_000_000n),
  maxPriorityFeePerGas: toQuantity(1_000_000n),
  signature: '0x',
  ...over,
});

describe('the network’s fees', () => {
  const history = (rewards: bigint[], used: number[]) => ({ reward: rewards.map((r) => [toQuantity(r)]), gasUsedRatio: used });
  const reads = (baseFee: bigint, feeHistory: unknown) => async (method: string) =>
    method === 'eth_getBlockByNumber' ? { baseFeePerGas: toQuantity(baseFee) } : feeHistory;

  it('takes the latest base fee and the median tip of recent blocks with transactions, never below Base’s least', async () => {
    const fees = await readNetworkFees(reads(10_000_000n, history([5_000_000n, 2_000_000n, 9n, 3_000_000n, 0n], [0.5, 0.4, 0.3, 0.6, 0])));
    // 9, 2e6, 3e6, 5e6 (the empty block's 0 left out): the median is 3e6.
    expect(fees).toEqual({ baseFee: 10_000_000n, tip: 3_000_000n });
    expect((await readNetworkFees(reads(7n, history([0n, 0n], [0, 0])))).tip).toBe(MIN_TIP);
    expect((await readNetworkFees(reads(7n, history([1n], [0.2])))).tip).toBe(MIN_TIP);
    await expect(readNetworkFees(async () => null)).rejects.toThrow(/base fee/);
  });

  it('caps the tip a quarter above the network’s, and the fee at twice the base fee above that', () => {
    expect(feeCaps({ baseFee: 10_000_000n, tip: 1_000_000n })).toEqual({ maxPriorityFeePerGas: 1_250_000n, maxFeePerGas: 21_250_000n });
  });

  it('prices an operation as the EntryPoint charges it: the lower of its fee cap and the base fee plus its tip', () => {
    expect(gasPriceOf(op(), 10_000_000n)).toBe(11_000_000n);
    expect(gasPriceOf(op({ maxFeePerGas: toQuantity(10_500_000n) }), 10_000_000n)).toBe(10_500_000n);
  });
});

describe('preVerificationGas', () => {
  it('is what the bundler computes for the same operation (alto’s own calculator, run here)', async () => {
    const dir = path.dirname(createRequire(import.meta.url).resolve('@pimlico/alto'));
    const alto = (await import(path.join(dir, 'rpc/estimation/preVerificationGasCalculator.js'))) as {
      calcExecutionPvgComponent(args: { userOp: Record<string, unknown>; supportsEip7623: boolean; config: unknown }): bigint;
    };
    for (const deploying of [false, true]) {
      const ours = op(
        deploying ? { factory: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC', factoryData: `0x5fbfb9cf${'00'.repeat(64)}` } : {},
      );
      const userOp = {
        ...ours,
        nonce: BigInt(ours.nonce),
        callGasLimit: BigInt(ours.callGasLimit),
        verificationGasLimit: BigInt(ours.verificationGasLimit),
        preVerificationGas: BigInt(ours.preVerificationGas),
        maxFeePerGas: BigInt(ours.maxFeePerGas),
        maxPriorityFeePerGas: BigInt(ours.maxPriorityFeePerGas),
        factory: ours.factory ?? null,
        factoryData: ours.factoryData ?? null,
        paymaster: PAYMASTER,
        paymasterVerificationGasLimit: 60_000n,
        paymasterPostOpGasLimit: 0n,
        paymasterData: `0x${'ab'.repeat(SIZES.paymasterDataBytes)}`,
        signature: `0x${'cd'.repeat(SIZES.signatureBytes)}`,
      };
      const theirs = alto.calcExecutionPvgComponent({ userOp, supportsEip7623: false, config: {} });
      expect(staticPreVerificationGas(ours, PAYMASTER, SIZES), deploying ? 'deploying' : 'deployed').toBe(theirs);
    }
  });

  it('is capped at the static part plus a fifth, and the L1 fee in gas at the operation’s price plus 30 %', () => {
    expect(preVerificationGasCap(50_000n, 0n, 11_000_000n)).toBe(60_000n);
    // 0.000001 ETH of L1 data at 0.011 gwei: 90,910 gas (rounded up), 118,183 with its margin.
    expect(preVerificationGasCap(50_000n, 1_000_000_000_000n, 11_000_000n)).toBe(60_000n + (90_910n * 13n) / 10n);
  });

  it('prices the bundle transaction Base’s oracle is asked about: handleOps of the operation alone, unsigned', () => {
    const tx = Transaction.from(bundleTransactionBytes(op(), ENTRY_POINT, PAYMASTER, SIZES));
    expect(tx.to).toBe(ENTRY_POINT);
    expect(tx.signature).toBeNull();
    expect(
      tx.data.startsWith(
        new Interface(['function handleOps((address,uint256,bytes,bytes,bytes32,uint256,bytes32,bytes,bytes)[],address)']).getFunction(
          'handleOps',
        )!.selector,
      ),
    ).toBe(true);
  });
});

describe('gasRefusal', () => {
  const limits = {
    caps: GAS_CAPS,
    deploying: false,
    fees: { maxPriorityFeePerGas: 1_250_000n, maxFeePerGas: 21_250_000n },
    preVerificationGas: 60_000n,
  };
  const at = (field: keyof UserOperation, value: bigint) => op({ [field]: toQuantity(value) });
  it.each([
    [
      'every field at its cap',
      op({
        callGasLimit: toQuantity(GAS_CAPS.callGasLimit),
        verificationGasLimit: toQuantity(GAS_CAPS.verificationGasLimit),
        preVerificationGas: toQuantity(60_000n),
        maxFeePerGas: toQuantity(21_250_000n),
        maxPriorityFeePerGas: toQuantity(1_250_000n),
      }),
      null,
    ],
    ['the tip over', at('maxPriorityFeePerGas', 1_250_001n), 'fee-too-high'],
    ['the fee cap over', at('maxFeePerGas', 21_250_001n), 'fee-too-high'],
    ['call gas over', at('callGasLimit', GAS_CAPS.callGasLimit + 1n), 'gas-too-high'],
    ['verification gas over', at('verificationGasLimit', GAS_CAPS.verificationGasLimit + 1n), 'gas-too-high'],
    ['pre-verification gas over', at('preVerificationGas', 60_001n), 'gas-too-high'],
  ])('%s', (_what, operation, reason) => {
    expect(gasRefusal(operation, limits)?.reason ?? null).toBe(reason);
  });

  it('allows a deploying operation the factory’s gas, and names every field over', () => {
    const deploying = at('verificationGasLimit', GAS_CAPS.deployVerificationGasLimit);
    expect(gasRefusal(deploying, limits)?.reason).toBe('gas-too-high');
    expect(gasRefusal(deploying, { ...limits, deploying: true })).toBeNull();
    const refusal = gasRefusal(op({ callGasLimit: toQuantity(10n ** 7n), preVerificationGas: toQuantity(10n ** 7n) }), limits);
    expect(refusal?.message).toMatch(/callGasLimit 55000.*preVerificationGas 60000/);
  });
});
