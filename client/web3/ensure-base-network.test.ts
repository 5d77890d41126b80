import { describe, expect, it } from 'vitest';
import { baseChainParameters, ensureBaseNetwork, isBaseChainId } from './ensure-base-network';
import type { Eip1193Provider, RequestArguments } from './types';

const OPTIONS = { rpcUrl: 'https://mainnet.base.org', explorerUrl: 'https://basescan.org' };

/** A hand-written EIP-1193 wallet: on a chain, knowing some chains, answering switch/add. */
class FakeWallet implements Eip1193Provider {
  calls: RequestArguments[] = [];
  chainId: string;
  known: Set<string>;
  rejectSwitch = false;
  rejectAdd = false;
  addSwitches = true;
  unknownChainError: unknown = { code: 4902, message: 'Unrecognized chain ID "0x2105".' };

  constructor(chainId: string, known: string[]) {
    this.chainId = chainId;
    this.known = new Set(known);
  }

  async request(args: RequestArguments): Promise<unknown> {
    this.calls.push(args);
    const param = Array.isArray(args.params) ? (args.params[0] as Record<string, unknown>) : undefined;
    switch (args.method) {
      case 'eth_chainId':
        return this.chainId;
      case 'wallet_switchEthereumChain': {
        if (this.rejectSwitch) throw { code: 4001, message: 'User rejected the request.' };
        const id = String(param?.chainId);
        if (!this.known.has(id)) throw this.unknownChainError;
        this.chainId = id;
        return null;
      }
      case 'wallet_addEthereumChain':
        if (this.rejectAdd) throw { code: 4001, message: 'User rejected the request.' };
        this.known.add(String(param?.chainId));
        if (this.addSwitches) this.chainId = String(param?.chainId);
        return null;
      default:
        throw { code: 4200, message: `unsupported ${args.method}` };
    }
  }

  methods() {
    return this.calls.map((c) => c.method);
  }
}

describe('ensureBaseNetwork', () => {
  it('does nothing when the wallet is already on Base', async () => {
    const wallet = new FakeWallet('0x2105', ['0x1', '0x2105']);
    await ensureBaseNetwork(wallet, OPTIONS);
    expect(wallet.methods()).toEqual(['eth_chainId']);
  });

  it('switches a wallet that knows Base', async () => {
    const wallet = new FakeWallet('0x1', ['0x1', '0x2105']);
    await ensureBaseNetwork(wallet, OPTIONS);
    expect(wallet.methods()).toEqual(['eth_chainId', 'wallet_switchEthereumChain']);
    expect(wallet.calls[1].params).toEqual([{ chainId: '0x2105' }]);
    expect(wallet.chainId).toBe('0x2105');
  });

  it('adds Base on 4902, then switches', async () => {
    const wallet = new FakeWallet('0x1', ['0x1']);
    wallet.addSwitches = false;
    await ensureBaseNetwork(wallet, OPTIONS);
    expect(wallet.methods()).toEqual([
      'eth_chainId',
      'wallet_switchEthereumChain',
      'wallet_addEthereumChain',
      'wallet_switchEthereumChain',
    ]);
    expect(wallet.calls[2].params).toEqual([
      {
        chainId: '0x2105',
        chainName: 'Base',
        nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
        rpcUrls: ['https://mainnet.base.org'],
        blockExplorerUrls: ['https://basescan.org'],
      },
    ]);
    expect(wallet.chainId).toBe('0x2105');
  });

  it('recognises MetaMask mobile’s wrapped 4902', async () => {
    const wallet = new FakeWallet('0x1', ['0x1']);
    wallet.unknownChainError = { code: -32603, message: 'Internal error', data: { originalError: { code: 4902 } } };
    await ensureBaseNetwork(wallet, OPTIONS);
    expect(wallet.methods()).toContain('wallet_addEthereumChain');
    expect(wallet.chainId).toBe('0x2105');
  });

  it('a refused switch ends in the switch-to-Base message, without adding', async () => {
    const wallet = new FakeWallet('0x1', ['0x1', '0x2105']);
    wallet.rejectSwitch = true;
    await expect(ensureBaseNetwork(wallet, OPTIONS)).rejects.toThrow('Please switch to Base Network in your wallet to make payments...');
    expect(wallet.methods()).not.toContain('wallet_addEthereumChain');
  });

  it('a refused add ends in the same message', async () => {
    const wallet = new FakeWallet('0x1', ['0x1']);
    wallet.rejectAdd = true;
    const error = await ensureBaseNetwork(wallet, OPTIONS).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toBe('Please switch to Base Network in your wallet to make payments...');
    expect((error as { code: number }).code).toBe(4001);
  });

  it('still asks to switch when eth_chainId fails', async () => {
    const wallet = new FakeWallet('0x1', ['0x2105']);
    const original = wallet.request.bind(wallet);
    wallet.request = async (args) => {
      if (args.method === 'eth_chainId') throw new Error('no chain');
      return original(args);
    };
    await ensureBaseNetwork(wallet, OPTIONS);
    expect(wallet.chainId).toBe('0x2105');
  });
});

describe('isBaseChainId', () => {
  it('accepts 8453 in any usual form', () => {
    for (const id of ['0x2105', '0X2105', '8453', 8453, ' 0x2105 ']) expect(isBaseChainId(id), String(id)).toBe(true);
    for (const id of ['0x1', '1', 1, '', 'base', null, undefined]) expect(isBaseChainId(id), String(id)).toBe(false);
  });

  it('builds the add parameters from the config', () => {
    expect(baseChainParameters(OPTIONS).rpcUrls).toEqual(['https://mainnet.base.org']);
  });
});
