import { describe, expect, it, vi } from 'vitest';
import { createDemoWalletProvider, DEMO_WALLET_ICON, ProviderRpcError } from './demo-wallet';
import { safeIcon } from './eip6963';

function fakeFetch(answer: (body: { id: number; method: string; params: unknown[] }) => { status?: number; json: unknown }) {
  const calls: { url: string; body: { id: number; method: string; params: unknown[] } }[] = [];
  const impl = (async (url: string, init: RequestInit) => {
    const body = JSON.parse(String(init.body));
    calls.push({ url, body });
    const { status = 200, json } = answer(body);
    return new Response(JSON.stringify(json), { status, headers: { 'content-type': 'application/json' } });
  }) as unknown as typeof fetch;
  return { impl, calls };
}

describe('Demo Wallet provider', () => {
  it('POSTs JSON-RPC 2.0 to the endpoint and returns the result', async () => {
    const { impl, calls } = fakeFetch(({ id }) => ({
      json: { jsonrpc: '2.0', id, result: ['0x70997970C51812dc3A010C7d01b50e0d17dc79C8'] },
    }));
    const provider = createDemoWalletProvider('/api/dev/wallet', impl);
    await expect(provider.request({ method: 'eth_requestAccounts' })).resolves.toEqual(['0x70997970C51812dc3A010C7d01b50e0d17dc79C8']);
    expect(calls[0]).toEqual({ url: '/api/dev/wallet', body: { jsonrpc: '2.0', id: 1, method: 'eth_requestAccounts', params: [] } });
  });

  it('throws JSON-RPC errors as EIP-1193 errors with their code', async () => {
    const { impl } = fakeFetch(({ id }) => ({ json: { jsonrpc: '2.0', id, error: { code: 4902, message: 'unknown chain' } } }));
    const provider = createDemoWalletProvider('/api/dev/wallet', impl);
    const error = await provider.request({ method: 'wallet_switchEthereumChain', params: [{ chainId: '0x1' }] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderRpcError);
    expect(error).toMatchObject({ code: 4902, message: 'unknown chain' });
  });

  it('reports an unreachable or broken endpoint', async () => {
    const offline = createDemoWalletProvider('/x', (async () => {
      throw new TypeError('Failed to fetch');
    }) as unknown as typeof fetch);
    await expect(offline.request({ method: 'eth_accounts' })).rejects.toMatchObject({ code: 4900 });
    const { impl } = fakeFetch(() => ({ status: 404, json: 'Not Found' }));
    await expect(createDemoWalletProvider('/x', impl).request({ method: 'eth_accounts' })).rejects.toMatchObject({ code: -32603 });
  });

  it('emits accountsChanged([]) after revoking permissions', async () => {
    const { impl } = fakeFetch(({ id }) => ({ json: { jsonrpc: '2.0', id, result: null } }));
    const provider = createDemoWalletProvider('/x', impl);
    const listener = vi.fn();
    provider.on('accountsChanged', listener);
    await provider.request({ method: 'wallet_revokePermissions', params: [{ eth_accounts: {} }] });
    expect(listener).toHaveBeenCalledWith([]);
    provider.removeListener('accountsChanged', listener);
    await provider.request({ method: 'wallet_revokePermissions', params: [{ eth_accounts: {} }] });
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('has an icon the chooser will draw', () => {
    expect(safeIcon(DEMO_WALLET_ICON)).toBe(DEMO_WALLET_ICON);
  });
});
