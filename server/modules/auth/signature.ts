/**
 * Whether a wallet signed a message (EIP-191 personal_sign), for every kind of wallet that signs
 * in with Ethereum:
 * - a plain key (EOA): the signature recovers to the address, checked here without the chain, so
 *   such a wallet signs in even while the chain's RPC is down;
 * - a deployed smart account: its ERC-1271 isValidSignature accepts it, asked on chain;
 * - a smart account not deployed yet (the address a smart wallet shows before its first
 *   transaction): ERC-6492, the signature wraps the factory call that would deploy it, and one
 *   eth_call deploys it in simulation and asks it.
 * The last two are one eth_call without a `to`, whose data is the creation code of the shop's
 * validator (contracts/SignatureValidator.sol, compiled by scripts/compile-contracts.ts) with the
 * address, the message's hash and the signature: the node runs its constructor, which answers
 * 0x01 or 0x00, and nothing is deployed. Such a call changes no state, whatever factory a
 * signature names: it only proves the address when the address's own code (deployed, or deployed
 * by the wrapped call at that very address) accepts the signature.
 */
import { AbiCoder, concat, getAddress, hashMessage, verifyMessage as recoverSigner } from 'ethers';
import { unavailableCause } from '../../lib/unavailable';
import validator from './contracts/signature-validator.json' with { type: 'json' };

/** One JSON-RPC call to the chain, within its timeout; an RPC that does not answer throws an UnavailableError. */
export type ChainRpc = (method: string, params: unknown[]) => Promise<unknown>;

/**
 * Whether `address` signed `text` with `signature`. A contract wallet's signature needs `rpc`
 * (without it, only a plain key's is recognised). Throws the UnavailableError when the chain did
 * not answer, so the caller says "try again" rather than "not your signature".
 */
export async function signedBy(address: string, text: string, signature: string, rpc?: ChainRpc): Promise<boolean> {
  try {
    if (getAddress(recoverSigner(text, signature)) === getAddress(address)) return true;
  } catch {
    // not a plain key's signature (a smart account's is longer, or wrapped): the chain decides
  }
  if (!rpc || !/^0x(?:[0-9a-fA-F]{2})+$/.test(signature)) return false;
  const args = AbiCoder.defaultAbiCoder().encode(['address', 'bytes32', 'bytes'], [getAddress(address), hashMessage(text), signature]);
  let answer: unknown;
  try {
    // Once: the RPC's own timeout bounds the call, and a retry would multiply it.
    answer = await rpc('eth_call', [{ data: concat([validator.bytecode, args]) }, 'latest']);
  } catch (err) {
    if (unavailableCause(err)) throw err;
    return false; // the node answered, and not with a yes (the validator reverted on a wrapper it could not read)
  }
  return typeof answer === 'string' && answer.toLowerCase() === '0x01';
}
