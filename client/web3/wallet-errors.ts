/**
 * The wallet's messages (errors and success notices), and the mapping from
 * whatever a wallet throws to the toast the shopper sees. Pure.
 */
import { shortenAddress } from '../../common/shorten-address';
import type { WalletNotice } from './types';

export const NO_WALLET_MESSAGE = 'No wallet detected. Please install MetaMask or another Web3 wallet.';
export const NO_ACCOUNTS_MESSAGE = 'No accounts found';
export const CONNECT_FAILED_FALLBACK = 'Failed to connect wallet';
export const DISCONNECT_FAILED_MESSAGE = 'Failed to disconnect wallet';
/** A payment started while the wallet no longer lists the shop's account (locked, or the site disconnected in it). */
export const CONNECT_WALLET_FIRST_MESSAGE = 'Please connect your wallet first';
/** A payment started while the wallet does not answer at all (the extension gone, the session ended). */
export const NO_PROVIDER_MESSAGE = 'No Web3 provider found';
export const WRONG_NETWORK_MESSAGE = 'Please switch to Base Network in your wallet to make payments...';
export const MOBILE_WALLET_REQUIRED = Object.freeze({
  title: 'Mobile Wallet Required',
  description: 'Please open in MetaMask or Coinbase Wallet browser',
});

/** EIP-1193 / JSON-RPC codes the shop reacts to. */
export const USER_REJECTED = 4001;
export const REQUEST_PENDING = -32002;
export const UNRECOGNIZED_CHAIN = 4902;

/** A failure the shop raises itself, with the shop's own text as its message. */
export class WalletError extends Error {
  readonly code: number | null;
  constructor(message: string, options: { code?: number; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = 'WalletError';
    this.code = options.code ?? null;
  }
}

function asRecord(value: unknown): Record<string, unknown> | null {
  return value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : null;
}

function numericCode(value: unknown): number | null {
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  if (typeof value === 'string' && /^-?\d+$/.test(value)) return Number(value);
  return null;
}

/**
 * The EIP-1193 / JSON-RPC error code a wallet error declares. Wallets and libraries nest it
 * differently: `{code}` (EIP-1193), `data.originalError.code` (MetaMask mobile), `info.error.code`
 * and `error.code` (ethers), `cause.code`. ethers' 'ACTION_REJECTED' counts as 4001.
 */
export function declaredRpcErrorCode(error: unknown, depth = 0): number | null {
  const record = asRecord(error);
  if (!record || depth > 4) return null;
  const own = numericCode(record.code);
  if (own !== null) return own;
  if (record.code === 'ACTION_REJECTED') return USER_REJECTED;
  const data = asRecord(record.data);
  for (const nested of [data?.originalError, record.data, asRecord(record.info)?.error, record.error, record.cause]) {
    const code = declaredRpcErrorCode(nested, depth + 1);
    if (code !== null) return code;
  }
  return null;
}

/**
 * The error code of a wallet error: the declared one, else 4001 for a "user rejected/denied"
 * message and for WalletConnect's closed-modal "Connection request reset".
 */
export function rpcErrorCode(error: unknown): number | null {
  const declared = declaredRpcErrorCode(error);
  if (declared !== null) return declared;
  const message = asRecord(error)?.message;
  return typeof message === 'string' && /user (rejected|denied|cancell?ed)|connection request reset/i.test(message) ? USER_REJECTED : null;
}

function textOf(value: unknown): string | null {
  return typeof value === 'string' && value.trim() ? value.trim() : null;
}

/**
 * What the wallet itself said, under a library's wrapping: ethers puts the wallet's JSON-RPC
 * error in `info.error` or `error`, with its own generic text on top ("could not coalesce
 * error"); MetaMask wraps a revert in its own -32603 'Internal JSON-RPC error.' with the node's
 * error (and its reason) in `data`, `data.originalError` (mobile) or `data.cause`. The innermost
 * message wins.
 */
function walletReportedMessage(record: Record<string, unknown>, depth = 0): string | null {
  if (depth > 4) return null;
  const data = asRecord(record.data);
  for (const nested of [asRecord(record.info)?.error, record.error, data?.originalError, data?.cause, data]) {
    const inner = asRecord(nested);
    if (!inner) continue;
    const message = walletReportedMessage(inner, depth + 1) ?? textOf(inner.reason) ?? textOf(inner.message);
    if (message) return message;
  }
  return null;
}

/**
 * The error's own message, if it has a usable one: the wallet's reason or message when a
 * library wrapped it, else ethers' `shortMessage` (its `message` carries a debug dump), else
 * `message`.
 */
export function errorMessage(error: unknown): string | null {
  if (typeof error === 'string') return error.trim() || null;
  const record = asRecord(error);
  if (!record) return null;
  return textOf(record.reason) ?? walletReportedMessage(record) ?? textOf(record.shortMessage) ?? textOf(record.message);
}

/** What to show when connecting failed. */
export function connectErrorNotice(error: unknown): WalletNotice {
  const code = rpcErrorCode(error);
  if (code === USER_REJECTED) {
    return { title: 'Connection Rejected', description: 'Wallet connection was cancelled.', variant: 'destructive' };
  }
  if (code === REQUEST_PENDING) {
    return { title: 'Connection Pending', description: 'Please check your wallet to complete connection', variant: 'default' };
  }
  return { title: 'Connection Failed', description: errorMessage(error) ?? CONNECT_FAILED_FALLBACK, variant: 'destructive' };
}

export function disconnectErrorNotice(): WalletNotice {
  return { title: 'Disconnect Failed', description: DISCONNECT_FAILED_MESSAGE, variant: 'destructive' };
}

export function connectedNotice(address: string): WalletNotice {
  return { title: 'Wallet Connected', description: `Connected to ${shortenAddress(address)}`, variant: 'default' };
}

export function accountSwitchedNotice(address: string): WalletNotice {
  return { title: 'Account Switched', description: `Now using ${shortenAddress(address)}`, variant: 'default' };
}

/** After the shopper's own disconnect: the shop forgot the wallet, the extension may not have. */
export function disconnectedNotice(): WalletNotice {
  return {
    title: 'Wallet Disconnected',
    description: 'To disconnect completely, also disconnect this site in your wallet extension.',
    variant: 'default',
  };
}

/**
 * After the wallet ended the session (empty account list or its 'disconnect' event):
 * 'Disconnected', apart from the shopper's own 'Wallet Disconnected'.
 */
export function walletEndedNotice(): WalletNotice {
  return { title: 'Disconnected', description: 'Your wallet ended the connection to the shop.', variant: 'default' };
}
