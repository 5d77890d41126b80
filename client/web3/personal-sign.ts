/**
 * Signing a text with the wallet (EIP-191 `personal_sign`), for Sign-In with Ethereum. No ethers:
 * the orders page calls it without loading the payment code.
 */
import type { Eip1193Provider } from './types';
import { WalletError } from './wallet-errors';

/** The wallet answered without a signature (a broken or unusual wallet). */
export const NO_SIGNATURE_MESSAGE = 'The wallet returned no signature';

/** A text's UTF-8 bytes as 0x-prefixed hex. */
export function utf8ToHex(text: string): string {
  let hex = '0x';
  for (const byte of new TextEncoder().encode(text)) hex += byte.toString(16).padStart(2, '0');
  return hex;
}

/**
 * Asks the wallet to sign `message` as `address`: `personal_sign` [message as UTF-8 hex, address],
 * as ethers' signer sends it. Wallets show hex that decodes to text as the text; nodes such as
 * anvil accept only hex. A refusal is the wallet's own error (4001), left for the caller to read.
 */
export async function personalSign(provider: Eip1193Provider, address: string, message: string): Promise<string> {
  const signature = await provider.request({ method: 'personal_sign', params: [utf8ToHex(message), address] });
  if (typeof signature !== 'string' || !/^0x[0-9a-fA-F]+$/.test(signature)) throw new WalletError(NO_SIGNATURE_MESSAGE);
  return signature;
}
