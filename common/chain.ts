/** The chain the shop is paid on, and what an address on it looks like: one home for client and server. */

/** Base mainnet. The embedded local demo chain runs with the same id, so wallets and payment code behave as on Base. */
export const BASE_CHAIN_ID = 8453;
/** The same id as wallets write it (EIP-1193 / EIP-3085): '0x2105'. */
export const BASE_CHAIN_ID_HEX = `0x${BASE_CHAIN_ID.toString(16)}`;

/** An EVM address: 0x followed by 40 hexadecimal characters, in any case. */
export const ADDRESS_PATTERN = /^0x[0-9a-fA-F]{40}$/;
