/**
 * The shop's paymaster service (ERC-7677): a smart wallet asks it, over JSON-RPC, to pay the gas
 * of the user operation that pays a checkout. It sponsors an honest payment from a known wallet,
 * within a budget, and nothing else (docs/payments.md §9):
 *
 * - the checkout, its wallet and an expiry are named by a ticket only the checkout's session is
 *   given (ticket.ts); the operation's sender must be that wallet;
 * - the account is a wallet the shop knows, by its factory or its code (known-wallets.ts);
 * - its one call is the token's `transfer(storeWallet, amount)` for the exact amount the checkout
 *   asks for now (user-operation.ts), at the account's current nonce of key 0;
 * - its fees and gas are priced from the network when the shop signs (gas-rules.ts);
 * - the account holds the amount (and ShopPaymaster checks it again on chain, with the code);
 * - the book's rules: one sponsorship per checkout amount, one outstanding per account, none for
 *   an account whose sponsored operation was wasted, a per-account daily limit and a daily budget
 *   (sponsorship-ledger.ts).
 * Anything else is refused with a JSON-RPC error saying why. Every answer is logged and counted.
 *
 * Once its checks passed, the service asks its sponsor (sponsor.ts) for the paymaster's fields:
 * pm_getPaymasterStubData for the wallet's gas estimate (it records nothing); pm_getPaymasterData
 * only after it recorded the sponsorship. The sponsor is the shop's own verifying paymaster
 * (ShopPaymaster.sol, signed for with sign.ts) or a hosted paymaster service the call is forwarded
 * to (hosted-sponsor.ts), whichever the settings name.
 */
import { getAddress, Interface, toQuantity, ZeroHash } from 'ethers';
import { z } from 'zod';
import type { PaymasterOffer } from '../../../common/api';
import type { Db } from '../../db';
import type { Logger } from '../../lib/logger';
import { paymasterRequests } from '../../lib/metrics';
import { ServerSecret } from '../../lib/server-secret';
import type { PaymasterConfig } from '../../paymaster-config';
import { checkoutToSponsor } from '../payments';
import {
  bundleTransactionBytes,
  feeCaps,
  GAS_CAPS,
  gasPriceOf,
  gasRefusal,
  preVerificationGasCap,
  readNetworkFees,
  staticPreVerificationGas,
} from './gas-rules';
import { HostedSponsor } from './hosted-sponsor';
import { KnownWallets, knownWallets, type AccountCode } from './known-wallets';
import { PaymasterError } from './paymaster-error';
import { PAYMASTER_DATA_BYTES, PAYMASTER_GAS, sponsorshipWindow, VerifyingSponsor, type Sponsor } from './sponsor';
import { SponsorshipLedger } from './sponsorship-ledger';
import { readTicket, TICKET_TTL_MS, ticketFor } from './ticket';
import { refusalOf, userOperationSchema, type UserOperation } from './user-operation';

/** What the tickets' HMAC key is derived from the server's secret for (the same in every sponsor's mode). */
const TICKET_PURPOSE = 'paymaster-ticket';
/** Base's L1 fee oracle (an OP-stack predeploy): what a transaction's bytes cost on L1. */
const GAS_PRICE_ORACLE = '0x420000000000000000000000000000000000000F';
/** The signature a known wallet's owner key makes (65 bytes); the size preVerificationGas is priced for at least. */
const SIGNATURE_BYTES = 65;
/** The preVerificationGas the offer assumes an operation asks for (a known wallet's transfer asks about 50,000 without Base's L1 fee). */
const OFFER_PRE_VERIFICATION_GAS = 150_000n;
/** A paymaster address to price a hosted sponsor's bytes with before it answers (all non-zero bytes: the dearest). */
const ANY_PAYMASTER = `0x${'ff'.repeat(20)}`;

const refuse = (reason: string, message: string) => new PaymasterError(-32001, message, reason);
const ERC20 = new Interface(['function balanceOf(address owner) view returns (uint256)']);
const ENTRY_POINT = new Interface(['function getNonce(address sender, uint192 key) view returns (uint256)']);
const ORACLE = new Interface(['function getL1Fee(bytes data) view returns (uint256)']);

const paramsSchema = z.tuple([userOperationSchema, z.string(), z.string(), z.record(z.string(), z.unknown()).nullish()]);

export class PaymasterService {
  private readonly sponsor: Sponsor;
  private readonly secret: ServerSecret;
  private readonly wallets: KnownWallets;
  readonly ledger: SponsorshipLedger;

  constructor(
    private readonly db: Db,
    private readonly deps: {
      chainId: number;
      paymaster: PaymasterConfig;
      /** How long one call to a hosted sponsor may take. */
      sponsorTimeoutMs: number;
      /** Where wallets reach the service (PUBLIC_URL's /api/paymaster). */
      url: string;
      /** One JSON-RPC call to the chain (the account's code, nonce and balance, the fees, the L1 fee). */
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
    this.wallets = new KnownWallets(knownWallets(deps.paymaster));
    this.ledger = new SponsorshipLedger(db, {
      dailyBudgetWei: deps.paymaster.dailyBudgetWei,
      senderDailyLimit: deps.paymaster.senderDailyLimit,
    });
  }

  /**
   * What the shopper's browser gives its wallet for checkout `checkoutId` (EIP-5792's
   * paymasterService capability), or why the shop will not pay this payment's gas: the shopper
   * then pays it from the wallet, told why.
   */
  async offer(checkoutId: string): Promise<PaymasterOffer> {
    const now = this.now();
    const checkout = await checkoutToSponsor(this.db, checkoutId, now);
    const unavailable = (err: PaymasterError): PaymasterOffer => {
      paymasterRequests.inc({ method: 'offer', outcome: err.reason });
      return { unavailable: { reason: err.reason, message: err.message } };
    };
    if (!checkout?.payable) return unavailable(refuse('not-payable', 'That checkout cannot be paid any more; start a new one.'));
    if (!checkout.customerWallet) {
      return unavailable(
        refuse('no-wallet', 'The checkout names no wallet, so the shop cannot pay its network fee: pay it from the wallet.'),
      );
    }
    try {
      const wallet = checkout.customerWallet;
      const [code, nonce] = await Promise.all([this.code(wallet), this.nextNonce(wallet)]);
      // An account not on chain yet is judged by the factory its first operation names.
      const deployed = code !== '0x';
      if (deployed) await this.wallets.placeCode(wallet, code, this.chainReads);
      // Its own sponsorship (a Pay pressed again after the wallet was closed) does not stand in its way.
      const refusal = await this.ledger.refusal(wallet, await this.mostAtCaps(deployed), now, nonce, {
        checkoutId: checkout.id,
        amountWei: checkout.amountWei,
      });
      if (refusal) return unavailable(refusal);
    } catch (err) {
      if (err instanceof PaymasterError) return unavailable(err);
      throw err;
    }
    const ticket = ticketFor(await this.secret.key(TICKET_PURPOSE), {
      checkoutId: checkout.id,
      wallet: checkout.customerWallet,
      expiresAt: Math.floor((now.getTime() + TICKET_TTL_MS) / 1000),
    });
    return { url: this.deps.url, context: { ticket } };
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
    const now = this.now();
    const ticket = readTicket(await this.secret.key(TICKET_PURPOSE), context?.ticket);
    if (!ticket) throw refuse('no-ticket', 'The paymaster context must carry the ticket the shop gave for this checkout.');
    if (ticket.expiresAt * 1000 <= now.getTime()) {
      throw refuse('ticket-expired', 'The checkout’s ticket has expired: press Pay again for a new one.');
    }
    // The ticket's wallet, and the checkout's: only that account's own operations are sponsored.
    if (op.sender.toLowerCase() !== ticket.wallet) {
      throw refuse('not-the-wallet', 'The shop sponsors only the payment of the wallet the checkout was made for.');
    }
    const checkout = await checkoutToSponsor(this.db, ticket.checkoutId, now);
    if (!checkout?.payable) throw refuse('not-payable', 'That checkout cannot be paid any more; start a new one.');
    if (checkout.customerWallet !== ticket.wallet) {
      throw refuse('not-the-wallet', 'The shop sponsors only the payment of the wallet the checkout was made for.');
    }
    const refusal = refusalOf(op, { token: checkout.tokenAddress, storeWallet: checkout.storeWallet, amountWei: checkout.amountWei });
    if (refusal) throw refuse(refusal.reason, refusal.message);
    const nonce = await this.checkNonce(op);
    const account = await this.place(op.sender, op.factory);
    const payment = {
      token: checkout.tokenAddress,
      amount: checkout.amountWei,
      codeHash: account.kind === 'deployed' ? account.codeHash : ZeroHash,
    };
    const call = { op, entryPoint, chainId: this.deps.chainId, now, payment };
    if (!final) {
      // The estimate records nothing and reads no balance; the book's rules are told early.
      const early = await this.ledger.refusal(op.sender, 1n, now, nonce, { checkoutId: checkout.id, amountWei: checkout.amountWei });
      if (early) throw early;
      return { ...(await this.sponsor.stub(call)), sponsor: { name: 'POGS Shop' }, isFinal: false };
    }

    const maxCostWei = await this.priced(op, account, entryPoint);
    // An operation whose transfer would revert still costs the shop its gas: not signed.
    if ((await this.balanceOf(checkout.tokenAddress, op.sender)) < checkout.amountWei) {
      throw refuse('balance-too-low', 'The account does not hold the amount to pay; add POGS to it and try again.');
    }
    const recorded = await this.ledger.record(
      {
        checkoutId: checkout.id,
        amountWei: checkout.amountWei,
        sender: op.sender,
        nonce: BigInt(op.nonce),
        paymaster: paymaster.sponsor.kind === 'verifying' ? paymaster.sponsor.address : null,
        validUntil: new Date(sponsorshipWindow(now).validUntil * 1000),
        maxCostWei,
      },
      now,
    );
    try {
      const fields = await this.sponsor.final(call);
      if (recorded && paymaster.sponsor.kind === 'hosted') await this.ledger.setPaymaster(recorded, fields.paymaster);
      return fields;
    } catch (err) {
      // The sponsor did not sponsor it (a hosted one refused or did not answer): this call's record
      // goes, so the checkout is not held for an operation nobody will pay for, nor counted as sponsored.
      if (recorded) await this.ledger.unrecord(recorded);
      throw err;
    }
  }

  /**
   * The most an operation of the account can cost at the shop's gas caps and the network's fees
   * now (its preVerificationGas taken at a generous 150,000): what the budget must still hold for
   * the browser to be offered a sponsorship.
   */
  private async mostAtCaps(deployed: boolean): Promise<bigint> {
    const network = await this.chainRead('the network’s fees', () => readNetworkFees(this.deps.rpc));
    const verification = deployed ? GAS_CAPS.verificationGasLimit : GAS_CAPS.deployVerificationGasLimit;
    const gas = verification + GAS_CAPS.callGasLimit + OFFER_PRE_VERIFICATION_GAS + PAYMASTER_GAS.verificationGasLimit;
    return gas * feeCaps(network).maxFeePerGas;
  }

  /**
   * Checks `op`'s fees and gas against the network's now; answers the most it can take from the
   * deposit (every gas limit, the paymaster's own included, at its fee cap).
   */
  private async priced(op: UserOperation, account: AccountCode, entryPoint: string): Promise<bigint> {
    const network = await this.chainRead('the network’s fees', () => readNetworkFees(this.deps.rpc));
    const fees = feeCaps(network);
    const { sponsor } = this.deps.paymaster;
    const own = sponsor.kind === 'verifying';
    const sizes = {
      signatureBytes: Math.max(SIGNATURE_BYTES, op.signature ? (op.signature.length - 2) / 2 : 0),
      paymasterDataBytes: Math.max(PAYMASTER_DATA_BYTES, op.paymasterData ? (op.paymasterData.length - 2) / 2 : 0),
    };
    const paymasterAddress = sponsor.kind === 'verifying' ? sponsor.address : ANY_PAYMASTER;
    const l1Fee = await this.l1Fee(bundleTransactionBytes(op, entryPoint, paymasterAddress, sizes));
    const preVerificationGas = preVerificationGasCap(
      staticPreVerificationGas(op, paymasterAddress, sizes),
      l1Fee,
      gasPriceOf(op, network.baseFee) || network.baseFee,
    );
    const refusal = gasRefusal(op, { caps: GAS_CAPS, deploying: account.kind === 'deploying', fees, preVerificationGas });
    if (refusal) throw refuse(refusal.reason, refusal.message);
    const paymasterGas = own
      ? PAYMASTER_GAS.verificationGasLimit + PAYMASTER_GAS.postOpGasLimit
      : BigInt(op.paymasterVerificationGasLimit ?? toQuantity(PAYMASTER_GAS.verificationGasLimit)) +
        BigInt(op.paymasterPostOpGasLimit ?? '0x0');
    return (
      (BigInt(op.verificationGasLimit) + BigInt(op.callGasLimit) + BigInt(op.preVerificationGas) + paymasterGas) * BigInt(op.maxFeePerGas)
    );
  }

  /** What Base charges for the bundle's bytes on L1; nothing on a chain without the oracle (the local chain). */
  private async l1Fee(unsignedTx: string): Promise<bigint> {
    const answer = await this.chainRead('the L1 data fee', () =>
      this.deps.rpc('eth_call', [{ to: GAS_PRICE_ORACLE, data: ORACLE.encodeFunctionData('getL1Fee', [unsignedTx]) }, 'latest']),
    );
    return answer === '0x' ? 0n : BigInt(ORACLE.decodeFunctionResult('getL1Fee', String(answer))[0]);
  }

  /** The operation must use key 0 of the account's nonces, at its current value: one operation at a time per account. Answers it. */
  private async checkNonce(op: UserOperation): Promise<bigint> {
    const nonce = BigInt(op.nonce);
    if (nonce >> 64n !== 0n) {
      throw refuse('nonce-key', 'The shop sponsors operations on the account’s main nonce sequence (key 0) only.');
    }
    if ((await this.nextNonce(op.sender)) !== nonce) {
      throw refuse('stale-nonce', 'The operation’s nonce is not the account’s next one: ask the wallet to build it again.');
    }
    return nonce;
  }

  /** The account's next EntryPoint nonce of key 0 (0 for an account not on chain yet). */
  private async nextNonce(account: string): Promise<bigint> {
    const answer = await this.chainRead('the account’s nonce', () =>
      this.deps.rpc('eth_call', [
        { to: this.deps.paymaster.entryPoint, data: ENTRY_POINT.encodeFunctionData('getNonce', [account, 0n]) },
        'latest',
      ]),
    );
    return BigInt(ENTRY_POINT.decodeFunctionResult('getNonce', String(answer))[0]);
  }

  /** What the known wallets' check reads of an account: its code and its ERC-1967 slot. */
  private readonly chainReads = {
    code: (address: string) => this.code(address),
    storageAt: (address: string, slot: string) =>
      this.chainRead('the account’s code', async () => String(await this.deps.rpc('eth_getStorageAt', [address, slot, 'latest']))),
  };

  /** Where `sender`'s account stands among the known wallets (its code read from the chain). */
  private place(sender: string, factory: string | null | undefined): Promise<AccountCode> {
    return this.wallets.place(sender, factory, this.chainReads);
  }

  private code(address: string): Promise<string> {
    return this.chainRead('the account’s code', async () => String(await this.deps.rpc('eth_getCode', [address, 'latest'])));
  }

  /** `owner`'s balance of `token`, read from the chain. */
  private async balanceOf(token: string, owner: string): Promise<bigint> {
    const answer = await this.chainRead('the account’s balance', () =>
      this.deps.rpc('eth_call', [{ to: token, data: ERC20.encodeFunctionData('balanceOf', [owner]) }, 'latest']),
    );
    return BigInt(ERC20.decodeFunctionResult('balanceOf', String(answer))[0]);
  }

  /** A read from the chain; one that fails is -32603 (try again), never a refusal. */
  private async chainRead<T>(what: string, read: () => Promise<T>): Promise<T> {
    try {
      return await read();
    } catch (err) {
      this.deps.logger.warn({ err, what }, 'paymaster: a chain read failed');
      throw new PaymasterError(-32603, `The shop cannot read ${what} on Base right now; try again in a moment.`, 'chain-unavailable');
    }
  }

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }
}
