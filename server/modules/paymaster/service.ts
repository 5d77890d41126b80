/**
 * The shop's paymaster service (ERC-7677): a smart wallet asks it, over JSON-RPC, to pay the gas
 * of the user operation that pays a checkout. It sponsors only an operation whose one call is the
 * token's `transfer(storeWallet, amount)` for the exact amount the checkout asks for now, within
 * the shop's gas limits (user-operation.ts), for a checkout named by its ticket (ticket.ts) that
 * can still be paid; and one operation per checkout amount (one account, one EntryPoint nonce).
 * Anything else is refused with a JSON-RPC error saying why. Every answer is logged and counted.
 *
 * pm_getPaymasterStubData answers the paymaster's fields with a dummy signature (for the wallet's
 * gas estimate; it records nothing); pm_getPaymasterData records the sponsorship and signs
 * (sign.ts) for the shop's own verifying paymaster, ShopPaymaster.sol.
 */
import { getAddress, Interface, toQuantity, Wallet } from 'ethers';
import { z } from 'zod';
import type { PaymasterCapability } from '../../../common/api';
import type { Db } from '../../db';
import type { Logger } from '../../lib/logger';
import { paymasterRequests } from '../../lib/metrics';
import { checkoutToSponsor } from '../payments';
import { paymasterData, type PaymasterGas } from './sign';
import { checkoutOfTicket, ticketFor, ticketKey } from './ticket';
import { refusalOf, userOperationSchema, type GasLimits, type Refusal, type UserOperation } from './user-operation';

/** The most the shop pays for one operation; a wallet's estimate for one transfer is well within them. */
export const GAS_LIMITS: GasLimits = {
  callGasLimit: 200_000n,
  // an account deployed by the operation itself (a new smart wallet), a passkey's signature check
  verificationGasLimit: 1_500_000n,
  // on Base this covers the L1 data fee too
  preVerificationGas: 1_000_000n,
  maxFeePerGas: 1_000_000_000n, // 1 gwei; Base's fee is usually a few hundredths of that
};
/** The paymaster's own gas: its signature check; it has no post-op. */
export const PAYMASTER_GAS: PaymasterGas = { verificationGasLimit: 60_000n, postOpGasLimit: 0n };
/** How long a signed sponsorship is valid on chain. */
const VALID_FOR_S = 10 * 60;

/** A JSON-RPC error: invalid params (-32602), an unknown method (-32601), or a refusal (-32001, with its reason). */
export class PaymasterError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly reason: string,
  ) {
    super(message);
  }
}

type RefusalReason =
  Refusal['reason'] | 'wrong-chain' | 'wrong-entrypoint' | 'no-ticket' | 'not-payable' | 'already-sponsored' | 'balance-too-low';
const ERC20 = new Interface(['function balanceOf(address owner) view returns (uint256)']);
const refuse = (reason: RefusalReason, message: string) => new PaymasterError(-32001, message, reason);

const paramsSchema = z.tuple([userOperationSchema, z.string(), z.string(), z.record(z.string(), z.unknown()).nullish()]);

export class PaymasterService {
  private readonly signer: Wallet;
  private readonly key: Buffer;

  constructor(
    private readonly db: Db,
    private readonly deps: {
      chainId: number;
      paymaster: { address: string; signerKey: string; entryPoint: string };
      /** Where wallets reach the service (PUBLIC_URL's /api/paymaster). */
      url: string;
      /** One JSON-RPC call to the chain (the account's token balance is read before signing). */
      rpc: (method: string, params: unknown[]) => Promise<unknown>;
      logger: Logger;
      now?: () => Date;
    },
  ) {
    this.signer = new Wallet(deps.paymaster.signerKey);
    this.key = ticketKey(deps.paymaster.signerKey);
  }

  /** What the shopper's browser gives its wallet for checkout `checkoutId` (EIP-5792's paymasterService capability). */
  capability(checkoutId: string): PaymasterCapability {
    return { url: this.deps.url, context: { ticket: ticketFor(this.key, checkoutId) } };
  }

  /** Answers one JSON-RPC call; throws a PaymasterError for the caller to answer as a JSON-RPC error. */
  async call(method: string, params: unknown): Promise<unknown> {
    if (method !== 'pm_getPaymasterStubData' && method !== 'pm_getPaymasterData') {
      throw new PaymasterError(
        -32601,
        `The shop's paymaster answers pm_getPaymasterStubData and pm_getPaymasterData, not ${method.slice(0, 60)}.`,
        'method',
      );
    }
    const final = method === 'pm_getPaymasterData';
    try {
      const result = await this.sponsor(params, final);
      paymasterRequests.inc({ method, outcome: 'sponsored' });
      return result;
    } catch (err) {
      if (!(err instanceof PaymasterError)) throw err;
      paymasterRequests.inc({ method, outcome: err.reason });
      this.deps.logger.info({ method, reason: err.reason }, 'paymaster: refused');
      throw err;
    }
  }

  private async sponsor(params: unknown, final: boolean) {
    const parsed = paramsSchema.safeParse(params);
    if (!parsed.success) {
      throw new PaymasterError(-32602, 'params must be [userOperation, entryPoint, chainId, context] (ERC-7677)', 'invalid-params');
    }
    const [op, entryPoint, chainId, context] = parsed.data;
    const { paymaster } = this.deps;
    if (chainId.toLowerCase() !== toQuantity(this.deps.chainId))
      throw refuse('wrong-chain', `The shop sponsors operations on chain ${toQuantity(this.deps.chainId)} only.`);
    if (entryPoint.toLowerCase() !== paymaster.entryPoint.toLowerCase()) {
      throw refuse('wrong-entrypoint', `The shop's paymaster is deposited in the EntryPoint ${getAddress(paymaster.entryPoint)} only.`);
    }
    const checkoutId = checkoutOfTicket(this.key, context?.ticket);
    if (!checkoutId) throw refuse('no-ticket', 'The paymaster context must carry the ticket the shop gave for this checkout.');
    const now = this.now();
    const checkout = await checkoutToSponsor(this.db, checkoutId, now);
    if (!checkout?.payable) throw refuse('not-payable', 'That checkout cannot be paid any more; start a new one.');
    const refusal = refusalOf(
      op,
      { token: checkout.tokenAddress, storeWallet: checkout.storeWallet, amountWei: checkout.amountWei },
      GAS_LIMITS,
    );
    if (refusal) throw refuse(refusal.reason, refusal.message);
    if (final) {
      // An operation whose transfer would revert still costs the shop its gas: not signed.
      if ((await this.balanceOf(checkout.tokenAddress, op.sender)) < checkout.amountWei) {
        throw refuse('balance-too-low', 'The account does not hold the amount to pay; add POGS to it and try again.');
      }
      await this.record(checkout.id, checkout.amountWei, op, now);
    }
    const validAfter = Math.floor(now.getTime() / 1000) - 60;
    const window = { validUntil: validAfter + 60 + VALID_FOR_S, validAfter };
    const data = await paymasterData(
      op,
      { chainId: this.deps.chainId, paymaster: paymaster.address, gas: PAYMASTER_GAS, signer: this.signer },
      window,
      !final,
    );
    return {
      paymaster: getAddress(paymaster.address),
      paymasterData: data,
      paymasterVerificationGasLimit: toQuantity(PAYMASTER_GAS.verificationGasLimit),
      paymasterPostOpGasLimit: toQuantity(PAYMASTER_GAS.postOpGasLimit),
      ...(final ? {} : { sponsor: { name: 'POGS Shop' }, isFinal: false }),
    };
  }

  /**
   * Records the sponsorship of the checkout's amount for this account and nonce, once: the same
   * operation asked again is signed again (the EntryPoint runs one operation per nonce); another
   * account or nonce for the same amount is refused, so at most one sponsored operation can pay it.
   */
  private async record(checkoutId: string, amountWei: bigint, op: UserOperation, now: Date): Promise<void> {
    const row = {
      checkout_id: checkoutId,
      amount_wei: amountWei.toString(),
      sender: op.sender.toLowerCase(),
      nonce: BigInt(op.nonce).toString(),
      created_at: now,
    };
    await this.db('paymaster_sponsorships').insert(row).onConflict(['checkout_id', 'amount_wei']).ignore();
    const kept: { sender: string; nonce: string } = await this.db('paymaster_sponsorships')
      .where({ checkout_id: checkoutId, amount_wei: row.amount_wei })
      .first('sender', 'nonce');
    if (kept.sender !== row.sender || kept.nonce !== row.nonce) {
      throw refuse('already-sponsored', 'The shop already sponsored another operation paying this amount of this checkout.');
    }
  }

  /** `owner`'s balance of `token`, read from the chain (an RPC that does not answer: the caller is told to try again). */
  private async balanceOf(token: string, owner: string): Promise<bigint> {
    try {
      const answer = await this.deps.rpc('eth_call', [{ to: token, data: ERC20.encodeFunctionData('balanceOf', [owner]) }, 'latest']);
      return BigInt(ERC20.decodeFunctionResult('balanceOf', String(answer))[0]);
    } catch (err) {
      this.deps.logger.warn({ err }, 'paymaster: the token balance could not be read');
      throw new PaymasterError(
        -32603,
        'The shop cannot read the account’s balance on Base right now; try again in a moment.',
        'chain-unavailable',
      );
    }
  }

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }
}
