/**
 * The shop's signature on a user operation it sponsors, for its own verifying paymaster
 * (ShopPaymaster.sol): paymasterData = validUntil (6 bytes) | validAfter (6) | token (20) |
 * amount (32) | the account's code hash (32; zero when the operation deploys it) | the signer's
 * EIP-191 signature (65) of the hash ShopPaymaster.getHash computes (every field of the operation
 * but its signatures, the paymaster's gas limits, the chain, the paymaster, the window and that
 * payment, which the contract checks again when the operation runs).
 */
import { AbiCoder, concat, getAddress, getBytes, keccak256, toBeHex, zeroPadValue, type Signer } from 'ethers';
import type { UserOperation } from './user-operation';

/** The paymaster's own gas limits in paymasterAndData (bytes 20-52): its verification and its post-op (none). */
export interface PaymasterGas {
  verificationGasLimit: bigint;
  postOpGasLimit: bigint;
}

/** What a wallet sends but the signature does not cover yet: a dummy of the right length, for gas estimates. */
export const STUB_SIGNATURE = `0x${'ff'.repeat(64)}1c`;

const uint128 = (n: bigint) => zeroPadValue(toBeHex(n), 16);
const uint48 = (n: number) => zeroPadValue(toBeHex(n), 6);

/**
 * The fields of `op` the EntryPoint packs (PackedUserOperation): initCode (the factory and its
 * data, or nothing), the account's gas limits and the fees each as two uint128s in one bytes32,
 * and paymasterAndData's gas part for the paymaster's `gas`.
 */
export function packedFields(op: UserOperation, gas: PaymasterGas) {
  return {
    initCode: op.factory ? concat([op.factory, op.factoryData ?? '0x']) : '0x',
    accountGasLimits: concat([uint128(BigInt(op.verificationGasLimit)), uint128(BigInt(op.callGasLimit))]),
    gasFees: concat([uint128(BigInt(op.maxPriorityFeePerGas)), uint128(BigInt(op.maxFeePerGas))]),
    paymasterGas: concat([uint128(gas.verificationGasLimit), uint128(gas.postOpGasLimit)]),
  };
}

/** What ShopPaymaster checks again when the operation runs: the account still holds `amount` of `token`, and still has the code of `codeHash`. */
export interface SignedPayment {
  token: string;
  amount: bigint;
  /** keccak256 of the account's code as the service saw it; ZeroHash when the operation deploys the account. */
  codeHash: string;
}

/** ShopPaymaster.getHash, off chain. */
export function sponsorshipHash(
  op: UserOperation,
  sponsor: { chainId: number; paymaster: string; gas: PaymasterGas },
  window: { validUntil: number; validAfter: number },
  payment: SignedPayment,
): string {
  const packed = packedFields(op, sponsor.gas);
  const abi = AbiCoder.defaultAbiCoder();
  const operation = keccak256(
    abi.encode(
      ['address', 'uint256', 'bytes32', 'bytes32', 'bytes32', 'uint256', 'uint256', 'bytes32'],
      [
        getAddress(op.sender),
        BigInt(op.nonce),
        keccak256(packed.initCode),
        keccak256(op.callData),
        packed.accountGasLimits,
        BigInt(packed.paymasterGas),
        BigInt(op.preVerificationGas),
        packed.gasFees,
      ],
    ),
  );
  return keccak256(
    abi.encode(
      ['bytes32', 'uint256', 'address', 'uint48', 'uint48', 'address', 'uint256', 'bytes32'],
      [
        operation,
        sponsor.chainId,
        getAddress(sponsor.paymaster),
        window.validUntil,
        window.validAfter,
        getAddress(payment.token),
        payment.amount,
        payment.codeHash,
      ],
    ),
  );
}

/** paymasterData for `op`: the window, the payment and the signer's signature over them (STUB_SIGNATURE when `stub`). */
export async function paymasterData(
  op: UserOperation,
  sponsor: { chainId: number; paymaster: string; gas: PaymasterGas; signer: Pick<Signer, 'signMessage'> },
  window: { validUntil: number; validAfter: number },
  payment: SignedPayment,
  stub = false,
): Promise<string> {
  const signature = stub ? STUB_SIGNATURE : await sponsor.signer.signMessage(getBytes(sponsorshipHash(op, sponsor, window, payment)));
  return concat([
    uint48(window.validUntil),
    uint48(window.validAfter),
    getAddress(payment.token),
    zeroPadValue(toBeHex(payment.amount), 32),
    payment.codeHash,
    signature,
  ]);
}
