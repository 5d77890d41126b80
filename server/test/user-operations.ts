/**
 * ERC-4337 user operations in the tests, as a smart wallet and a bundler handle them: the
 * operation in its JSON-RPC form, packed as the EntryPoint v0.8 takes it, signed by the account's
 * owner over the EntryPoint's hash, and submitted with handleOps (what a bundler does once it has
 * checked an operation).
 */
import { concat, Contract, Interface, toQuantity, type BaseWallet, type ContractRunner, type JsonRpcProvider } from 'ethers';
import entryPointArtifact from '@account-abstraction/contracts/artifacts/EntryPoint.json' with { type: 'json' };
import { packedFields, readNetworkFees, staticPreVerificationGas, type UserOperation } from '../modules/paymaster';
import { mined } from '../chain/mined';

const ACCOUNT = new Interface([
  'function execute(address target, uint256 value, bytes data)',
  'function executeBatch((address target, uint256 value, bytes data)[] calls)',
]);
const ERC20 = new Interface(['function transfer(address to, uint256 value) returns (bool)']);

/** The account's call data for a token transfer (`execute`), or for several calls at once (`executeBatch`). */
export function transferCall(token: string, to: string, value: bigint): string {
  return ACCOUNT.encodeFunctionData('execute', [token, 0n, ERC20.encodeFunctionData('transfer', [to, value])]);
}
export function batchCall(calls: Array<{ token: string; to: string; value: bigint }>): string {
  return ACCOUNT.encodeFunctionData('executeBatch', [
    calls.map((c) => [c.token, 0n, ERC20.encodeFunctionData('transfer', [c.to, c.value])]),
  ]);
}

/** Any calls, as a smart wallet batches them (a swap's approve and swap, say). */
export function callsBatch(calls: Array<{ to: string; value: bigint; data: string }>): string {
  return ACCOUNT.encodeFunctionData('executeBatch', [calls.map((c) => [c.to, c.value, c.data])]);
}

/** The fees a wallet offers on Base now: the network's tip, and half the base fee again on top for its rise. */
export async function walletFees(provider: JsonRpcProvider): Promise<{ maxFeePerGas: bigint; maxPriorityFeePerGas: bigint }> {
  const network = await readNetworkFees((method, params) => provider.send(method, params));
  return { maxPriorityFeePerGas: network.tip, maxFeePerGas: (network.baseFee * 3n) / 2n + network.tip };
}

/**
 * An unsigned operation of `sender` with `callData` at the EntryPoint's next nonce (key 0), with
 * room above the gas alto estimates for a DemoSmartAccount's token transfer (call 16,323,
 * verification 30,741 or 249,735 deploying: bench/README.md) and the network's fees now. `deploy`: the factory
 * call that makes the account in this operation.
 */
export async function userOperation(
  entryPoint: Contract,
  sender: string,
  callData: string,
  deploy?: { factory: string; factoryData: string },
): Promise<UserOperation> {
  const provider = entryPoint.runner!.provider as JsonRpcProvider;
  const fees = await walletFees(provider);
  const op: UserOperation = {
    sender,
    nonce: toQuantity(await entryPoint.getFunction('getNonce')(sender, 0)),
    ...deploy,
    callData,
    callGasLimit: toQuantity(50_000n),
    verificationGasLimit: toQuantity(deploy ? 300_000n : 60_000n),
    preVerificationGas: '0x0',
    maxFeePerGas: toQuantity(fees.maxFeePerGas),
    maxPriorityFeePerGas: toQuantity(fees.maxPriorityFeePerGas),
    signature: '0x',
  };
  // As a bundler prices it (its bytes and overhead), with its 10 % on top.
  const pvg = staticPreVerificationGas(op, `0x${'11'.repeat(20)}`, { signatureBytes: 65, paymasterDataBytes: 161 });
  return { ...op, preVerificationGas: toQuantity((pvg * 11n) / 10n) };
}

/** The operation packed for the EntryPoint, with the paymaster's fields (as the paymaster answered them). */
export function pack(
  op: UserOperation,
  pm: { paymaster: string; paymasterVerificationGasLimit: string; paymasterPostOpGasLimit: string; paymasterData: string },
) {
  const packed = packedFields(op, {
    verificationGasLimit: BigInt(pm.paymasterVerificationGasLimit),
    postOpGasLimit: BigInt(pm.paymasterPostOpGasLimit),
  });
  return {
    sender: op.sender,
    nonce: BigInt(op.nonce),
    initCode: packed.initCode,
    callData: op.callData,
    accountGasLimits: packed.accountGasLimits,
    preVerificationGas: BigInt(op.preVerificationGas),
    gasFees: packed.gasFees,
    paymasterAndData: concat([pm.paymaster, packed.paymasterGas, pm.paymasterData]),
    signature: '0x' as string,
  };
}

/** The EntryPoint at `address`, as `runner` calls it. */
export const entryPointAt = (address: string, runner: ContractRunner) => new Contract(address, entryPointArtifact.abi, runner);

/** Signs `packed` as its account's owner (the EntryPoint's hash, unprefixed, as SimpleAccount checks it) and submits it, `bundler` paying. */
export async function signAndSubmit(entryPoint: Contract, packed: ReturnType<typeof pack>, owner: BaseWallet, beneficiary: string) {
  packed.signature = owner.signingKey.sign(await entryPoint.getFunction('getUserOpHash')(packed)).serialized;
  return mined(entryPoint.getFunction('handleOps')([packed], beneficiary));
}
