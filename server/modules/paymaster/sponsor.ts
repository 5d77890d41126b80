/**
 * Who pays a sponsored operation's gas, behind one interface: the service runs the shop's own
 * checks (service.ts), then asks its sponsor for the paymaster's fields. Either the shop's own
 * verifying paymaster (ShopPaymaster.sol: the service signs, sign.ts, and the contract pays from
 * its deposit in the EntryPoint) or a hosted paymaster service (hosted-sponsor.ts: the same
 * ERC-7677 call, forwarded; the provider pays and bills the shop). Which one is a setting
 * (server/paymaster-config.ts).
 */
import { getAddress, toQuantity, Wallet } from 'ethers';
import { paymasterData, type PaymasterGas, type SignedPayment } from './sign';
import type { UserOperation } from './user-operation';

/** What a sponsor is asked, once the shop decided to sponsor `op`. */
export interface SponsorCall {
  op: UserOperation;
  /** As the wallet sent it (the shop checked it is its EntryPoint). */
  entryPoint: string;
  chainId: number;
  now: Date;
  /** What the operation pays and the account's code as the service checked them (the shop's own paymaster checks them again on chain). */
  payment: SignedPayment;
}

/**
 * The paymaster's fields of a user operation (ERC-7677's answer, EntryPoint v0.7/v0.8). The gas
 * limits may be left out of the final answer (the wallet keeps the stub's); the shop's own
 * paymaster always gives them.
 */
export interface PaymasterFields {
  paymaster: string;
  paymasterData: string;
  paymasterVerificationGasLimit?: string;
  paymasterPostOpGasLimit?: string;
}

export interface Sponsor {
  /** The fields for the wallet's gas estimate (pm_getPaymasterStubData): not a sponsorship yet. */
  stub(call: SponsorCall): Promise<PaymasterFields>;
  /** The fields that sponsor `op` (pm_getPaymasterData), asked only after the sponsorship is recorded. */
  final(call: SponsorCall): Promise<PaymasterFields>;
}

/** The shop's own paymaster's gas: its checks of the account's code and balance and of its signature; it has no post-op. */
export const PAYMASTER_GAS: PaymasterGas = { verificationGasLimit: 60_000n, postOpGasLimit: 0n };
/** The length of the shop's own paymasterData (sign.ts): window 12, token 20, amount 32, code hash 32, signature 65. */
export const PAYMASTER_DATA_BYTES = 161;
/** How long a signed sponsorship is valid on chain. */
export const VALID_FOR_S = 10 * 60;

/** The window a sponsorship signed at `now` is valid in (a minute back, for clocks behind the chain's). */
export function sponsorshipWindow(now: Date): { validAfter: number; validUntil: number } {
  const validAfter = Math.floor(now.getTime() / 1000) - 60;
  return { validAfter, validUntil: validAfter + 60 + VALID_FOR_S };
}

/** The shop's own verifying paymaster: the service signs for ShopPaymaster with PAYMASTER_SIGNER_KEY. */
export class VerifyingSponsor implements Sponsor {
  private readonly signer: Wallet;

  constructor(
    private readonly address: string,
    signerKey: string,
  ) {
    this.signer = new Wallet(signerKey);
  }

  stub(call: SponsorCall): Promise<PaymasterFields> {
    return this.fields(call, true);
  }

  final(call: SponsorCall): Promise<PaymasterFields> {
    return this.fields(call, false);
  }

  private async fields({ op, chainId, now, payment }: SponsorCall, stub: boolean): Promise<PaymasterFields> {
    const sponsor = { chainId, paymaster: this.address, gas: PAYMASTER_GAS, signer: this.signer };
    const data = await paymasterData(op, sponsor, sponsorshipWindow(now), payment, stub);
    return {
      paymaster: getAddress(this.address),
      paymasterData: data,
      paymasterVerificationGasLimit: toQuantity(PAYMASTER_GAS.verificationGasLimit),
      paymasterPostOpGasLimit: toQuantity(PAYMASTER_GAS.postOpGasLimit),
    };
  }
}
