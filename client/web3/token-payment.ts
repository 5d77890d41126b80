/**
 * The on-chain half of paying: read the token balance, send
 * `transfer(storeWallet, amountWei)` with a fixed gas limit through the shopper's wallet,
 * and wait for the receipt. ethers v6 over the wallet's EIP-1193 provider; loaded lazily with the
 * rest of client/web3.
 */
import { BrowserProvider, Contract, isError } from 'ethers';
import { BASE_CHAIN_ID } from '../../common/chain';
import type { PaymasterCapability } from '../../common/api';
import { INVALID_BALANCE_MESSAGE } from './payment-errors';
import { offersPaymaster, sendSponsoredTransfer } from './sponsored-calls';
import { WalletError, WRONG_NETWORK_MESSAGE } from './wallet-errors';
import type { Eip1193Provider } from './types';

/** The transfer is sent with this gas limit (no estimate round trip, no surprises). */
export const TRANSFER_GAS_LIMIT = 150_000n;

/** How long to wait for a receipt before giving up with 'Transaction receipt not found'. */
export const RECEIPT_TIMEOUT_MS = 5 * 60_000;
/** How often the receipt is asked for while a payment waits for its block. */
const RECEIPT_POLL_MS = 500;

const ERC20_ABI = [
  'function balanceOf(address owner) view returns (uint256)',
  'function transfer(address to, uint256 amount) returns (bool)',
] as const;

export interface TransferReceipt {
  /** 1 success, 0 reverted (null only for pre-Byzantium chains, never on Base). */
  status: number | null;
  blockNumber: number;
}

export interface TokenPayment {
  /** The owner's token balance in wei; 'Invalid balance response' when the answer is not one. */
  balanceOf(owner: string): Promise<bigint>;
  /** Sends the transfer from `from` (the wallet asks the shopper); resolves with the hash. */
  transfer(from: string, to: string, amountWei: bigint): Promise<string>;
  /** The mined receipt, or null when none arrived in time. */
  waitForReceipt(hash: string): Promise<TransferReceipt | null>;
  /** Stops ethers' block polling. */
  dispose(): void;
}

/** A shopper's payment: a token payment whose gas the shop's paymaster can pay, where the wallet can take it. */
export interface SponsorablePayment extends TokenPayment {
  /** Whether the wallet can have a paymaster pay its gas on Base (EIP-5792 paymasterService). */
  offersPaymaster(from: string): Promise<boolean>;
  /** Sends the transfer with `paymaster` paying its gas (sponsored-calls.ts); resolves with the carrying transaction's hash. */
  sponsoredTransfer(from: string, to: string, amountWei: bigint, paymaster: PaymasterCapability): Promise<string>;
}

/** A wallet still on another chain after the switch makes ethers throw NETWORK_ERROR. */
function wrongNetwork(error: unknown): unknown {
  return isError(error, 'NETWORK_ERROR') ? new WalletError(WRONG_NETWORK_MESSAGE, { cause: error }) : error;
}

/**
 * Binds the token contract to the connected wallet. Call after ensureBaseNetwork: the provider is
 * pinned to Base, so a wallet that silently stayed on another chain fails instead of paying there.
 */
export function createTokenPayment(wallet: Eip1193Provider, tokenAddress: string): SponsorablePayment {
  // Base makes a block every ~2 s; ethers' default 4 s polling would add a block of waiting.
  const provider = new BrowserProvider(wallet, BASE_CHAIN_ID, { pollingInterval: 1000 });
  const token = new Contract(tokenAddress, ERC20_ABI, provider);

  return {
    async balanceOf(owner) {
      let balance: unknown;
      try {
        balance = await token.getFunction('balanceOf').staticCall(owner);
      } catch (error) {
        // No contract at the address ('0x'), or an answer that is not a uint256.
        if (isError(error, 'BAD_DATA')) throw new WalletError(INVALID_BALANCE_MESSAGE, { cause: error });
        throw wrongNetwork(error);
      }
      if (typeof balance !== 'bigint' || balance < 0n) throw new WalletError(INVALID_BALANCE_MESSAGE);
      return balance;
    },

    async transfer(from, to, amountWei) {
      try {
        const signer = await provider.getSigner(from);
        // Unchecked: resolves with the hash as soon as the wallet returns it (ethers' checked send
        // would first wait for the node to index it), so the server hears of it at once.
        return await signer.sendUncheckedTransaction({
          to: tokenAddress,
          data: token.interface.encodeFunctionData('transfer', [to, amountWei]),
          gasLimit: TRANSFER_GAS_LIMIT,
        });
      } catch (error) {
        throw wrongNetwork(error);
      }
    },

    offersPaymaster: (from) => offersPaymaster(wallet, from),

    async sponsoredTransfer(from, to, amountWei, paymaster) {
      try {
        return await sendSponsoredTransfer(
          wallet,
          { from, token: tokenAddress, to, amountWei, paymaster },
          { timeoutMs: RECEIPT_TIMEOUT_MS },
        );
      } catch (error) {
        throw wrongNetwork(error);
      }
    },

    // Asks for the receipt until there is one, not ethers' waitForTransaction: that asks once, then
    // waits for a block event, and misses the block of a transaction mined in between on a chain
    // that mines only when sent to (the local chain); the payment would wait out its whole timeout.
    async waitForReceipt(hash) {
      const deadline = Date.now() + RECEIPT_TIMEOUT_MS;
      for (;;) {
        const receipt = await provider.getTransactionReceipt(hash);
        if (receipt) return { status: receipt.status, blockNumber: receipt.blockNumber };
        if (Date.now() >= deadline) return null;
        await new Promise((resolve) => setTimeout(resolve, RECEIPT_POLL_MS));
      }
    },

    dispose() {
      provider.destroy();
    },
  };
}
