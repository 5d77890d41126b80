/**
 * What a sponsored operation may cost, priced from the network when the shop signs, not from the
 * operation's own fields: whoever bundles it (anyone may, and be the beneficiary) must earn no more
 * than an honest bundler's costs. The EntryPoint pays the bundler, from the paymaster's deposit,
 * `(gas used + preVerificationGas in full + 10 % of unused call gas over 40,000) ×
 * min(maxFeePerGas, basefee + maxPriorityFeePerGas)`; so the shop bounds each term:
 *
 * - the tip: at most the priority fee transactions on the network pay now (the median of recent
 *   blocks' median tips, never below Base's minimum suggestion), plus a margin; the fee cap: at
 *   most twice the current base fee plus that tip (the base fee may rise before the bundle lands;
 *   the EntryPoint charges the base fee of the block, not the cap);
 * - preVerificationGas: what bundlers charge for an operation of its size (the calldata of the
 *   packed operation, the transaction's share, the per-operation overhead; ERC-4337's method),
 *   plus Base's L1 data fee for it (its GasPriceOracle), each with a margin;
 * - call, verification and post-op gas: no more than the known wallets need (measured), so the
 *   penalty on unused call gas cannot be farmed.
 */
import { AbiCoder, concat, getBytes, Interface, toBeHex, Transaction } from 'ethers';
import { packedFields } from './sign';
import type { UserOperation } from './user-operation';

/** What inclusion costs on the network now. */
export interface NetworkFees {
  /** The latest block's base fee per gas. */
  baseFee: bigint;
  /** The priority fee per gas transactions pay now. */
  tip: bigint;
}

/** Base's smallest suggested priority fee (op-geth's floor): 0.001 gwei. A wallet may always offer it. */
export const MIN_TIP = 1_000_000n;
/** How many recent blocks the tip is read from. */
const TIP_BLOCKS = 10;

/**
 * The most gas the shop signs for, per operation, from what the known wallets need (measured: alto's
 * estimates for a DemoSmartAccount's token transfer, bench/README.md: call 16,323; verification
 * 30,741, or 249,735 when the operation deploys the account). The call cap keeps every honest
 * transfer (at least ~15,000 gas) within the EntryPoint's 40,000 of unused call gas it does not
 * penalise, so nobody can farm the 10 % penalty; the verification caps leave room for a passkey's
 * check and a larger wallet's deployment (unused verification gas is neither charged nor penalised).
 */
export interface GasCaps {
  callGasLimit: bigint;
  /** For an account already on chain. */
  verificationGasLimit: bigint;
  /** For an operation that deploys its account (the factory's gas counts as verification). */
  deployVerificationGasLimit: bigint;
}

export const GAS_CAPS: GasCaps = {
  callGasLimit: 55_000n,
  verificationGasLimit: 100_000n,
  deployVerificationGasLimit: 350_000n,
};

/** A fee or gas field over what the shop pays, with words for the caller. */
export interface GasRefusal {
  reason: 'fee-too-high' | 'gas-too-high';
  message: string;
}

interface FeeHistory {
  baseFeePerGas?: string[];
  gasUsedRatio?: number[];
  reward?: string[][];
}

/** Reads the network's fees: the latest base fee, and the tip recent blocks' transactions paid. */
export async function readNetworkFees(rpc: (method: string, params: unknown[]) => Promise<unknown>): Promise<NetworkFees> {
  const [block, history] = await Promise.all([
    rpc('eth_getBlockByNumber', ['latest', false]) as Promise<{ baseFeePerGas?: string } | null>,
    rpc('eth_feeHistory', [toBeHex(TIP_BLOCKS), 'latest', [50]]) as Promise<FeeHistory | null>,
  ]);
  if (!block?.baseFeePerGas) throw new Error('the latest block has no base fee');
  // Blocks with no transactions say nothing of what a tip must be.
  const tips = (history?.reward ?? [])
    .filter((_, i) => (history?.gasUsedRatio?.[i] ?? 0) > 0)
    .map((r) => BigInt(r[0] ?? '0x0'))
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const median = tips.length ? tips[Math.floor(tips.length / 2)]! : 0n;
  return { baseFee: BigInt(block.baseFeePerGas), tip: median > MIN_TIP ? median : MIN_TIP };
}

/** The highest fees per gas the shop signs for, given the network's now. */
export function feeCaps(network: NetworkFees): { maxPriorityFeePerGas: bigint; maxFeePerGas: bigint } {
  const maxPriorityFeePerGas = (network.tip * 5n) / 4n;
  return { maxPriorityFeePerGas, maxFeePerGas: 2n * network.baseFee + maxPriorityFeePerGas };
}

/** What the EntryPoint charges per gas for `op` at `baseFee`. */
export function gasPriceOf(op: Pick<UserOperation, 'maxFeePerGas' | 'maxPriorityFeePerGas'>, baseFee: bigint): bigint {
  const cap = BigInt(op.maxFeePerGas);
  const tipped = baseFee + BigInt(op.maxPriorityFeePerGas);
  return cap < tipped ? cap : tipped;
}

// ERC-4337's pre-verification gas: the bundle transaction's costs outside the EntryPoint's metering,
// per operation, for a bundle of one.
const TX_BASE_GAS = 21_000n;
const BUNDLE_OVERHEAD_GAS = 9_830n;
const PER_OP_GAS = 7_260n;
const ZERO_BYTE_GAS = 4n;
const NONZERO_BYTE_GAS = 16n;
/** Per 32-byte word of the call data, in thousandths of gas. */
const PER_CALLDATA_WORD_MILLIGAS = 9_200n;
const MAX_UINT128 = (1n << 128n) - 1n;
const MAX_UINT256 = (1n << 256n) - 1n;

/** The lengths of what the operation will carry when it is sent: its signature, and the paymaster's data. */
export interface OperationSizes {
  signatureBytes: number;
  paymasterDataBytes: number;
}

/**
 * `op` as a bundle carries it (the EntryPoint's PackedUserOperation), for pricing its bytes: the
 * paymaster's data and the signature at their final lengths, filled with 0xff (non-zero bytes, the
 * dearest).
 */
function packedTuple(op: UserOperation, paymaster: string | null, sizes: OperationSizes) {
  const packed = packedFields(op, { verificationGasLimit: MAX_UINT128, postOpGasLimit: MAX_UINT128 });
  const filled = (n: number) => `0x${'ff'.repeat(n)}`;
  return [
    op.sender,
    BigInt(op.nonce),
    packed.initCode,
    op.callData,
    packed.accountGasLimits,
    BigInt(op.preVerificationGas),
    packed.gasFees,
    paymaster ? concat([paymaster, packed.paymasterGas, filled(sizes.paymasterDataBytes)]) : '0x',
    filled(sizes.signatureBytes),
  ];
}

/** The operation's worst case for calldata cost: every gas field at its largest, as bundlers price it. */
function worstCaseEncoding(op: UserOperation, paymaster: string | null, sizes: OperationSizes): string {
  const maxed: UserOperation = {
    ...op,
    callGasLimit: toBeHex(MAX_UINT128),
    verificationGasLimit: toBeHex(MAX_UINT128),
    preVerificationGas: toBeHex(MAX_UINT256),
    maxFeePerGas: toBeHex(MAX_UINT128),
    maxPriorityFeePerGas: toBeHex(MAX_UINT128),
  };
  return AbiCoder.defaultAbiCoder().encode(
    ['tuple(address,uint256,bytes,bytes,bytes32,uint256,bytes32,bytes,bytes)'],
    [packedTuple(maxed, paymaster, sizes)],
  );
}

/** The calldata-and-overhead part of preVerificationGas for `op` (no L1 data fee). */
export function staticPreVerificationGas(op: UserOperation, paymaster: string | null, sizes: OperationSizes): bigint {
  let bytesGas = 0n;
  for (const byte of getBytes(worstCaseEncoding(op, paymaster, sizes))) bytesGas += byte === 0 ? ZERO_BYTE_GAS : NONZERO_BYTE_GAS;
  const callDataWords = BigInt(Math.ceil(getBytes(op.callData).length / 32));
  return bytesGas + TX_BASE_GAS + BUNDLE_OVERHEAD_GAS + PER_OP_GAS + (callDataWords * PER_CALLDATA_WORD_MILLIGAS) / 1000n;
}

const ENTRY_POINT = new Interface([
  'function handleOps((address sender,uint256 nonce,bytes initCode,bytes callData,bytes32 accountGasLimits,uint256 preVerificationGas,bytes32 gasFees,bytes paymasterAndData,bytes signature)[] ops, address beneficiary)',
]);

/**
 * The bundle transaction carrying `op` alone, serialised as an OP-stack chain prices its L1 data
 * (GasPriceOracle.getL1Fee takes it): what Base charges for the operation's bytes on L1.
 */
export function bundleTransactionBytes(op: UserOperation, entryPoint: string, paymaster: string | null, sizes: OperationSizes): string {
  const data = ENTRY_POINT.encodeFunctionData('handleOps', [[packedTuple(op, paymaster, sizes)], entryPoint]);
  const tx = Transaction.from({
    type: 2,
    chainId: 8453n,
    to: entryPoint,
    data,
    nonce: 0xffffff,
    gasLimit: 0xffffffffn,
    maxFeePerGas: 0xffffffffffn,
    maxPriorityFeePerGas: 0xffffffffffn,
  });
  // The oracle takes the transaction unsigned and adds its signature's size itself.
  return tx.unsignedSerialized;
}

/** The highest preVerificationGas the shop signs for: the static part and the L1 data fee (in gas at the operation's price), with margins. */
export function preVerificationGasCap(staticGas: bigint, l1FeeWei: bigint, gasPrice: bigint): bigint {
  const l1Gas = gasPrice > 0n ? (l1FeeWei + gasPrice - 1n) / gasPrice : 0n;
  return (staticGas * 6n) / 5n + (l1Gas * 13n) / 10n;
}

/** Null when `op`'s gas and fees are within what the shop pays, else why not. */
export function gasRefusal(
  op: UserOperation,
  limits: { caps: GasCaps; deploying: boolean; fees: { maxPriorityFeePerGas: bigint; maxFeePerGas: bigint }; preVerificationGas: bigint },
): GasRefusal | null {
  const over: string[] = [];
  if (BigInt(op.maxPriorityFeePerGas) > limits.fees.maxPriorityFeePerGas)
    over.push(`maxPriorityFeePerGas ${limits.fees.maxPriorityFeePerGas}`);
  if (BigInt(op.maxFeePerGas) > limits.fees.maxFeePerGas) over.push(`maxFeePerGas ${limits.fees.maxFeePerGas}`);
  if (over.length) {
    return {
      reason: 'fee-too-high',
      message: `Over the network’s fees now (at most ${over.join(', ')} wei): ask the wallet to price the operation again.`,
    };
  }
  const verification = limits.deploying ? limits.caps.deployVerificationGasLimit : limits.caps.verificationGasLimit;
  if (BigInt(op.callGasLimit) > limits.caps.callGasLimit) over.push(`callGasLimit ${limits.caps.callGasLimit}`);
  if (BigInt(op.verificationGasLimit) > verification) over.push(`verificationGasLimit ${verification}`);
  if (BigInt(op.preVerificationGas) > limits.preVerificationGas) over.push(`preVerificationGas ${limits.preVerificationGas}`);
  if (over.length) return { reason: 'gas-too-high', message: `Over what the shop pays for this payment (at most ${over.join(', ')}).` };
  return null;
}
