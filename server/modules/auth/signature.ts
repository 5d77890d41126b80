/**
 * Whether a wallet signed a message (EIP-191 personal_sign), for every kind of wallet that signs
 * in with Ethereum:
 * - a plain key (EOA): the signature recovers to the address, checked here without the chain, so
 *   such a wallet signs in even while the chain's RPC is down;
 * - a deployed smart account: its ERC-1271 isValidSignature accepts it, asked on chain;
 * - a smart account not deployed yet (the address a smart wallet shows before its first
 *   transaction): ERC-6492, the signature wraps the factory call that would deploy it, and one
 *   eth_call deploys it in simulation and asks it.
 * The last two go through viem's verifyMessage, whose validator is sent with the call (nothing of
 * ours is deployed on chain). Such a call changes no state, whatever factory a signature names:
 * it only proves the address when the address's own code (deployed, or deployed by the wrapped
 * call at that very address) accepts the signature.
 */
import { getAddress, verifyMessage as recoverSigner } from 'ethers';
import { createClient, custom, type Hex } from 'viem';
import { verifyMessage } from 'viem/actions';
import { unavailableCause } from '../../lib/unavailable';

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
  // viem turns a failed call into "not valid": the outage is noted here, on its way through.
  let outage: unknown = null;
  // A bare client: verifyMessage needs only its transport, and createPublicClient's actions would
  // all be compiled into the server (scripts/build-server.ts bundles viem).
  const client = createClient({
    transport: custom(
      {
        async request({ method, params }: { method: string; params?: unknown }) {
          try {
            return await rpc(method, (params as unknown[] | undefined) ?? []);
          } catch (err) {
            if (unavailableCause(err)) outage = err;
            throw err;
          }
        },
      },
      // The RPC's own timeout bounds each call; a retry would multiply it.
      { retryCount: 0 },
    ),
  });
  let valid: boolean;
  try {
    valid = await verifyMessage(client, { address: getAddress(address) as Hex, message: text, signature: signature as Hex });
  } catch (err) {
    if (outage || unavailableCause(err)) throw outage ?? err;
    return false; // the node answered, and not with a yes
  }
  if (!valid && outage) throw outage;
  return valid;
}
