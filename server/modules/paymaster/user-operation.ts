/**
 * What a smart wallet asks the shop to sponsor, and whether its call is the payment: an ERC-4337
 * user operation (EntryPoint v0.7/v0.8, in the JSON-RPC form ERC-7677's pm_ methods carry) is
 * sponsorable only when its one call is `transfer(storeWallet, amount)` on the shop's token, for
 * the checkout's exact amount. Pure: the service looks the checkout up, checks the account
 * (known-wallets.ts) and the gas (gas-rules.ts), and records the sponsorship.
 *
 * The call is read from the account's own entry point: `execute(target, value, data)` (eth-
 * infinitism's SimpleAccount, Coinbase's smart wallet and most others) or `executeBatch` of
 * exactly one call (Coinbase's smart wallet batches even one call that way: a batch of
 * `(target, value, data)`). Anything else, a second call included, is refused.
 */
import { getAddress, Interface, isAddress, isHexString } from 'ethers';
import { z } from 'zod';

export const hex = z.string().refine((s): boolean => isHexString(s), 'a 0x-prefixed hexadecimal string');
const quantity = z.string().regex(/^0x(?:0|[1-9a-fA-F][0-9a-fA-F]{0,63})$/, 'a 0x-prefixed hexadecimal quantity');
// A mixed-case address must carry a valid checksum (EIP-55), as ethers reads it.
export const address = z
  .string()
  .refine((s): boolean => /^0x[0-9a-fA-F]{40}$/.test(s) && isAddress(s), 'a 0x-prefixed 20-byte address (EIP-55 checksum if mixed case)');

/** A user operation as a wallet sends it (EntryPoint v0.7/v0.8, unpacked). */
export const userOperationSchema = z.object({
  sender: address,
  nonce: quantity,
  factory: address.nullish(),
  factoryData: hex.nullish(),
  callData: hex,
  callGasLimit: quantity,
  verificationGasLimit: quantity,
  preVerificationGas: quantity,
  maxFeePerGas: quantity,
  maxPriorityFeePerGas: quantity,
  paymaster: address.nullish(),
  paymasterVerificationGasLimit: quantity.nullish(),
  paymasterPostOpGasLimit: quantity.nullish(),
  paymasterData: hex.nullish(),
  signature: hex.optional(),
});
export type UserOperation = z.infer<typeof userOperationSchema>;

/** What the operation must do: send exactly `amountWei` of `token` to `storeWallet`. */
export interface SponsoredTransfer {
  token: string;
  storeWallet: string;
  amountWei: bigint;
}

/** Why the shop will not sponsor an operation: a code for the log and metric, and words for the caller. */
export interface Refusal {
  reason: 'not-one-call' | 'not-the-token' | 'not-a-transfer' | 'not-the-store' | 'not-the-amount';
  message: string;
}

const ACCOUNT = new Interface([
  'function execute(address target, uint256 value, bytes data)',
  'function executeBatch((address target, uint256 value, bytes data)[] calls)',
]);
const ERC20 = new Interface(['function transfer(address to, uint256 value) returns (bool)']);

/** The one call the operation makes from the account, or null when it is not exactly one. */
export function singleCall(callData: string): { target: string; value: bigint; data: string } | null {
  let parsed;
  try {
    parsed = ACCOUNT.parseTransaction({ data: callData });
  } catch {
    return null;
  }
  if (!parsed) return null;
  if (parsed.name === 'execute') return { target: getAddress(parsed.args[0]), value: parsed.args[1], data: parsed.args[2] };
  const calls = parsed.args[0] as Array<[string, bigint, string]>;
  if (calls.length !== 1) return null;
  const [target, value, data] = calls[0]!;
  return { target: getAddress(target), value, data };
}

/** Null when the shop sponsors `op` as `transfer`, else why not. */
export function refusalOf(op: UserOperation, transfer: SponsoredTransfer): Refusal | null {
  const call = singleCall(op.callData);
  if (!call) return { reason: 'not-one-call', message: 'The shop sponsors one call from the account: the token transfer of the payment.' };
  if (call.target !== getAddress(transfer.token) || call.value !== 0n)
    return { reason: 'not-the-token', message: 'The shop sponsors only a transfer of its own token, with no ETH sent.' };
  let parsed;
  try {
    parsed = ERC20.parseTransaction({ data: call.data });
  } catch {
    parsed = null;
  }
  // The exact encoding only: extra bytes after the arguments would be another call's room.
  if (!parsed || parsed.name !== 'transfer' || ERC20.encodeFunctionData('transfer', parsed.args) !== call.data.toLowerCase())
    return { reason: 'not-a-transfer', message: 'The call must be the token’s transfer(to, amount), and nothing else.' };
  if (getAddress(parsed.args[0]) !== getAddress(transfer.storeWallet))
    return { reason: 'not-the-store', message: 'The transfer must go to the store wallet.' };
  if (parsed.args[1] !== transfer.amountWei)
    return { reason: 'not-the-amount', message: 'The transfer must be for the checkout’s exact amount.' };
  return null;
}
