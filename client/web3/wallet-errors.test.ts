import { describe, expect, it } from 'vitest';
import {
  accountSwitchedNotice,
  connectedNotice,
  connectErrorNotice,
  declaredRpcErrorCode,
  disconnectedNotice,
  disconnectErrorNotice,
  NO_ACCOUNTS_MESSAGE,
  NO_WALLET_MESSAGE,
  rpcErrorCode,
  WalletError,
} from './wallet-errors';

describe('rpcErrorCode', () => {
  it('reads the code wherever wallets and libraries put it', () => {
    expect(rpcErrorCode({ code: 4001, message: 'User rejected the request.' })).toBe(4001);
    expect(rpcErrorCode({ code: -32603, data: { originalError: { code: 4902 } } })).toBe(-32603);
    expect(rpcErrorCode({ data: { originalError: { code: 4902 } } })).toBe(4902);
    expect(rpcErrorCode({ code: 'ACTION_REJECTED', info: { error: { code: 4001 } } })).toBe(4001);
    expect(rpcErrorCode({ code: 'UNKNOWN_ERROR', error: { code: -32002 } })).toBe(-32002);
    expect(rpcErrorCode(new Error('x', { cause: { code: 4001 } }))).toBe(4001);
    expect(rpcErrorCode({ code: '4001' })).toBe(4001);
  });

  it('treats a "user rejected" message as 4001', () => {
    expect(rpcErrorCode(new Error('MetaMask Tx Signature: User denied transaction signature.'))).toBe(4001);
    expect(rpcErrorCode(new Error('User rejected methods.'))).toBe(4001);
    // WalletConnect, when the shopper closes the QR modal
    expect(rpcErrorCode(new Error('Connection request reset. Please try again.'))).toBe(4001);
  });

  it('is null for errors without a code', () => {
    for (const e of [null, undefined, 'boom', 42, new Error('boom'), { message: 'boom' }]) expect(rpcErrorCode(e)).toBeNull();
  });
});

describe('declaredRpcErrorCode', () => {
  it('reads only the code the error carries, never one guessed from its message', () => {
    expect(declaredRpcErrorCode({ code: 'ACTION_REJECTED', info: { error: { code: 4001 } } })).toBe(4001);
    expect(declaredRpcErrorCode({ code: 'INSUFFICIENT_FUNDS', error: { code: -32000 } })).toBe(-32000);
    expect(declaredRpcErrorCode(new Error('User rejected methods.'))).toBeNull();
    expect(declaredRpcErrorCode('boom')).toBeNull();
  });
});

describe('connectErrorNotice', () => {
  it('4001 → destructive "Connection Rejected"', () => {
    expect(connectErrorNotice({ code: 4001, message: 'User rejected the request.' })).toEqual({
      title: 'Connection Rejected',
      description: 'Wallet connection was cancelled.',
      variant: 'destructive',
    });
  });

  it('-32002 → "Connection Pending"', () => {
    expect(connectErrorNotice({ code: -32002, message: 'Already processing eth_requestAccounts. Please wait.' })).toEqual({
      title: 'Connection Pending',
      description: 'Please check your wallet to complete connection',
      variant: 'default',
    });
  });

  it('the shop’s own failures keep their own text under "Connection Failed"', () => {
    expect(connectErrorNotice(new WalletError(NO_WALLET_MESSAGE))).toEqual({
      title: 'Connection Failed',
      description: 'No wallet detected. Please install MetaMask or another Web3 wallet.',
      variant: 'destructive',
    });
    expect(connectErrorNotice(new WalletError(NO_ACCOUNTS_MESSAGE)).description).toBe('No accounts found');
  });

  it('anything else → "Connection Failed" with its message, or the fallback', () => {
    expect(connectErrorNotice({ code: -32603, message: 'Internal JSON-RPC error.' })).toMatchObject({
      title: 'Connection Failed',
      description: 'Internal JSON-RPC error.',
      variant: 'destructive',
    });
    for (const e of [undefined, null, {}, new Error(''), { message: '   ' }]) {
      expect(connectErrorNotice(e).description).toBe('Failed to connect wallet');
    }
    expect(connectErrorNotice('Popup closed').description).toBe('Popup closed');
  });

  it("a library's generic text gives way to the wallet's own message; the shop's own error keeps its text over its cause", () => {
    const wrapped = {
      code: 'UNKNOWN_ERROR',
      shortMessage: 'could not coalesce error',
      info: { error: { code: 5000, message: 'Chain not allowed' } },
    };
    expect(connectErrorNotice(wrapped).description).toBe('Chain not allowed');
    const own = new WalletError(NO_ACCOUNTS_MESSAGE, { cause: { message: 'something inside' } });
    expect(connectErrorNotice(own).description).toBe('No accounts found');
  });
});

describe('success and disconnect notices', () => {
  it('shortens the address to its first 6 and last 4 characters', () => {
    expect(connectedNotice('0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC')).toEqual({
      title: 'Wallet Connected',
      description: 'Connected to 0x3C44...93BC',
      variant: 'default',
    });
    expect(accountSwitchedNotice('0x90F79bf6EB2c4f870365E785982E1f101E93b906')).toMatchObject({
      title: 'Account Switched',
      description: 'Now using 0x90F7...b906',
    });
  });

  it('advises disconnecting in the extension too', () => {
    expect(disconnectedNotice().title).toBe('Wallet Disconnected');
    expect(disconnectedNotice().description).toMatch(/wallet extension/);
    expect(disconnectErrorNotice()).toEqual({
      title: 'Disconnect Failed',
      description: 'Failed to disconnect wallet',
      variant: 'destructive',
    });
  });
});
