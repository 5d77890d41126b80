/**
 * The shop's paymaster service (ERC-7677): a smart wallet asks it, over JSON-RPC, to pay the gas
 * of the user operation that pays a checkout. It sponsors only an operation whose one call is the
 * token's `transfer(storeWallet, amount)` for the exact amount the checkout asks for now, within
 * the shop's gas limits (user-operation.ts), for a checkout named by its ticket (ticket.ts) that
 * can still be paid; and one operation per checkout amount (one account, one EntryPoint nonce).
 * Anything else is refused with a JSON-RPC error saying why. Every answer is logged and counted.
 *
 * Once its checks passed, the service asks its sponsor (sponsor.ts) for the paymaster's fields:
 * pm_getPaymasterStubData for the wallet's gas estimate (it records nothing); pm_getPaymasterData
 * only after it recorded the sponsorship. The sponsor is the shop's own verifying paymaster
 * (ShopPaymaster.sol, signed for with sign.ts) or a hosted paymaster service the call is forwarded
 * to (hosted-sponsor.ts), whichever the settings name.
 */
import { getAddress, Interface, toQuantity } from 'ethers';
import { z } from 'zod';
import type { PaymasterCapability } from '../../../common/api';
import type { Db } from '../../db';
import type { Logger } from '../../lib/logger';
import { paymasterRequests } from '../../lib/metrics';
import { ServerSecret } from '../../lib/server-secret';
import type { PaymasterConfig } from '../../paymaster-config';
import { checkoutToSponsor } from '../payments';
import { HostedSponsor } from './hosted-sponsor';
import { PaymasterError } from './paymaster-error';
import { VerifyingSponsor, type Sponsor } from './sponsor';
import { checkoutOfTicket, ticketFor } from './ticket';
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
/** What the tickets' HMAC key is derived from the server's secret for (the same in every sponsor's mode). */
const TICKET_PURPOSE = 'paymaster-ticket';

type RefusalReason =
  Refusal['reason'] | 'wrong-chain' | 'wrong-entrypoint' | 'no-ticket' | 'not-payable' | 'already-sponsored' | 'balance-too-low';
const ERC20 = new Interface(['function balanceOf(address owner) view returns (uint256)']);
const refuse = (reason: RefusalReason, message: string) => new PaymasterError(-32001, message, reason);

/** One sponsorship row, as record() wrote it. */
interface SponsorshipKey {
  checkout_id: string;
  amount_wei: string;
  sender: string;
  nonce: string;
}

const paramsSchema = z.tuple([userOperationSchema, z.string(), z.string(), z.record(z.string(), z.unknown()).nullish()]);

export class PaymasterService {
  private readonly sponsor: Sponsor;
  private readonly secret: ServerSecret;

  constructor(
    private readonly db: Db,
    private readonly deps: {
      chainId: number;
      paymaster: PaymasterConfig;
      /** How long one call to a hosted sponsor may take. */
      sponsorTimeoutMs: number;
      /** Where wallets reach the service (PUBLIC_URL's /api/paymaster). */
      url: string;
      /** One JSON-RPC call to the chain (the account's token balance is read before signing). */
      rpc: (method: string, params: unknown[]) => Promise<unknown>;
      logger: Logger;
      now?: () => Date;
    },
  ) {
    const { sponsor } = deps.paymaster;
    this.sponsor =
      sponsor.kind === 'verifying'
        ? new VerifyingSponsor(sponsor.address, sponsor.signerKey)
        : new HostedSponsor(sponsor, { timeoutMs: deps.sponsorTimeoutMs, logger: deps.logger });
    // The tickets' key comes from the server's own secret (in the database, the same on every
    // instance), not from a sponsor's: a hosted sponsor leaves the shop no signing key.
    this.secret = new ServerSecret(db);
  }

  /** What the shopper's browser gives its wallet for checkout `checkoutId` (EIP-5792's paymasterService capability). */
  async capability(checkoutId: string): Promise<PaymasterCapability> {
    return { url: this.deps.url, context: { ticket: ticketFor(await this.secret.key(TICKET_PURPOSE), checkoutId) } };
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
      const result = await this.answer(params, final);
      paymasterRequests.inc({ method, outcome: 'sponsored' });
      return result;
    } catch (err) {
      if (!(err instanceof PaymasterError)) throw err;
      paymasterRequests.inc({ method, outcome: err.reason });
      this.deps.logger.info({ method, reason: err.reason }, 'paymaster: refused');
      throw err;
    }
  }

  private async answer(params: unknown, final: boolean) {
    const parsed = paramsSchema.safeParse(params);
    if (!parsed.success) {
      throw new PaymasterError(-32602, 'params must be [userOperation, entryPoint, chainId, context] (ERC-7677)', 'invalid-params');
    }
    const [op, entryPoint, chainId, context] = parsed.data;
    const { paymaster } = this.deps;
    if (chainId.toLowerCase() !== toQuantity(this.deps.chainId))
      throw refuse('wrong-chain', `The shop sponsors operations on chain ${toQuantity(this.deps.chainId)} only.`);
    if (entryPoint.toLowerCase() !== paymaster.entryPoint.toLowerCase()) {
      throw refuse('wrong-entrypoint', `The shop sponsors operations through the EntryPoint ${getAddress(paymaster.entryPoint)} only.`);
    }
    const checkoutId = checkoutOfTicket(await this.secret.key(TICKET_PURPOSE), context?.ticket);
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
      const recorded = await this.record(checkout.id, checkout.amountWei, op, now);
      try {
        return await this.sponsor.final({ op, entryPoint, chainId: this.deps.chainId, now });
      } catch (err) {
        // The sponsor did not sponsor it (a hosted one refused or did not answer): this call's record
        // goes, so the checkout is not held for an operation nobody will pay for, nor counted as sponsored.
        if (recorded) await this.unrecord(recorded);
        throw err;
      }
    }
    const call = { op, entryPoint, chainId: this.deps.chainId, now };
    // The stub is never final: the shop records a sponsorship and reads the balance only when asked for the final fields.
    return { ...(await this.sponsor.stub(call)), sponsor: { name: 'POGS Shop' }, isFinal: false };
  }

  /**
   * Records the sponsorship of the checkout's amount for this account and nonce, once: the same
   * operation asked again is signed again (the EntryPoint runs one operation per nonce); another
   * account or nonce for the same amount is refused, so at most one sponsored operation can pay it.
   */
  private async record(checkoutId: string, amountWei: bigint, op: UserOperation, now: Date): Promise<SponsorshipKey | null> {
    const row = {
      checkout_id: checkoutId,
      amount_wei: amountWei.toString(),
      sender: op.sender.toLowerCase(),
      nonce: BigInt(op.nonce).toString(),
      created_at: now,
    };
    const inserted = await this.db('paymaster_sponsorships').insert(row).onConflict(['checkout_id', 'amount_wei']).ignore().returning('id');
    const kept: { sender: string; nonce: string } = await this.db('paymaster_sponsorships')
      .where({ checkout_id: checkoutId, amount_wei: row.amount_wei })
      .first('sender', 'nonce');
    if (kept.sender !== row.sender || kept.nonce !== row.nonce) {
      throw refuse('already-sponsored', 'The shop already sponsored another operation paying this amount of this checkout.');
    }
    // Null: recorded by an earlier call for the same operation, which stands.
    return inserted.length ? { checkout_id: row.checkout_id, amount_wei: row.amount_wei, sender: row.sender, nonce: row.nonce } : null;
  }

  /** Takes back what record() just wrote. */
  private async unrecord(key: SponsorshipKey): Promise<void> {
    await this.db('paymaster_sponsorships').where(key).delete();
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
