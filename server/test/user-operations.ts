/**
 * ERC-4337 user operations in the tests, as a smart wallet and a bundler handle them: the
 * operation in its JSON-RPC form, packed as the EntryPoint v0.8 takes it, signed by the account's
 * owner over the EntryPoint's hash, and submitted with handleOps (what a bundler does once it has
 * checked an operation).
 */
import { concat, Contract, Interface, toBeHex, toQuantity, zeroPadValue, type BaseWallet, type Signer } from 'ethers';
import entryPointArtifact from '@account-abstraction/contracts/artifacts/EntryPoint.json';
import type { UserOperation } from '../modules/paymaster';

const ACCOUNT = new Interface([
  'function execute(address target, uint256 value, bytes data)',
  'function executeBatch((address target, uint256 value, bytes data)[] calls)',
]);
const ERC20 = new Interface(['function transfer(address to, uint256 value) returns (bool)']);

/** Two uint128s in one bytes32, as the EntryPoint packs gas limits and fees. */
const two128 = (high: bigint, low: bigint) => concat([zeroPadValue(toBeHex(high), 16), zeroPadValue(toBeHex(low), 16)]);

/** The account's call data for a token transfer (`execute`), or for several calls at once (`executeBatch`). */
export function transferCall(token: string, to: string, value: bigint): string {
  return ACCOUNT.encodeFunctionData('execute', [token, 0n, ERC20.encodeFunctionData('transfer', [to, value])]);
}
export function batchCall(calls: Array<{ token: string; to: string; value: bigint }>): string {
  return ACCOUNT.encodeFunctionData('executeBatch', [
    calls.map((c) => [c.token, 0n, ERC20.encodeFunctionData('transfer', [c.to, c.value])]),
  ]);
}

/** An unsigned operation of `sender` with `callData` at the EntryPoint's next nonce, with gas a wallet would estimate. */
export async function userOperation(entryPoint: Contract, sender: string, callData: string): Promise<UserOperation> {
  return {
    sender,
    nonce: toQuantity(await entryPoint.getFunction('getNonce')(sender, 0)),
    callData,
    callGasLimit: toQuantity(100_000n),
    verificationGasLimit: toQuantity(200_000n),
    preVerificationGas: toQuantity(50_000n),
    maxFeePerGas: toQuantity(500_000_000n),
    maxPriorityFeePerGas: toQuantity(100_000_000n),
    signature: '0x',
  };
}

/** The operation packed for the EntryPoint, with the paymaster's fields (as the paymaster answered them). */
export function pack(
  op: UserOperation,
  pm: { paymaster: string; paymasterVerificationGasLimit: string; paymasterPostOpGasLimit: string; paymasterData: string },
) {
  return {
    sender: op.sender,
    nonce: BigInt(op.nonce),
    initCode: op.factory ? concat([op.factory, op.factoryData ?? '0x']) : '0x',
    callData: op.callData,
    accountGasLimits: two128(BigInt(op.verificationGasLimit), BigInt(op.callGasLimit)),
    preVerificationGas: BigInt(op.preVerificationGas),
    gasFees: two128(BigInt(op.maxPriorityFeePerGas), BigInt(op.maxFeePerGas)),
    paymasterAndData: concat([
      pm.paymaster,
      two128(BigInt(pm.paymasterVerificationGasLimit), BigInt(pm.paymasterPostOpGasLimit)),
      pm.paymasterData,
    ]),
    signature: '0x' as string,
  };
}

/** The EntryPoint at `address`, as `runner` calls it. */
export const entryPointAt = (address: string, runner: Signer) => new Contract(address, entryPointArtifact.abi, runner);

/** Signs `packed` as its account's owner (the EntryPoint's hash, unprefixed, as SimpleAccount checks it) and submits it, `bundler` paying. */
export async function signAndSubmit(entryPoint: Contract, packed: ReturnType<typeof pack>, owner: BaseWallet, beneficiary: string) {
  packed.signature = owner.signingKey.sign(await entryPoint.getFunction('getUserOpHash')(packed)).serialized;
  return (await entryPoint.getFunction('handleOps')([packed], beneficiary)).wait();
}
