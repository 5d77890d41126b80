import { describe, expect, it, vi } from 'vitest';
import { ANNOUNCE_PROVIDER_EVENT, REQUEST_PROVIDER_EVENT } from './eip6963';
import { WalletController, type WalletConnectLike } from './wallet-controller';
import { LAST_WALLET_STORAGE_KEY } from './wallet-ids';
import type { RequestArguments, WalletConfig, WalletNotice } from './types';

const A = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';
const B = '0x90F79bf6EB2c4f870365E785982E1f101E93b906';
const CONFIG: WalletConfig = {
  chainId: 8453,
  chainName: 'Base',
  chainRpcUrl: 'https://mainnet.base.org',
  explorerUrl: 'https://basescan.org',
  walletConnectProjectId: null,
  demoWallet: false,
  shopName: 'POGS Shop',
};

/** A hand-written EIP-1193 wallet with events, answering like MetaMask. */
class FakeWallet {
  calls: string[] = [];
  authorised = false;
  account = A.toLowerCase();
  behaviour: ((method: string) => unknown) | null = null;
  private listeners = new Map<string, Set<(...args: unknown[]) => void>>();

  async request({ method }: RequestArguments): Promise<unknown> {
    this.calls.push(method);
    if (this.behaviour) {
      const answer = this.behaviour(method);
      if (answer instanceof Promise) return answer;
    }
    switch (method) {
      case 'eth_requestAccounts':
        this.authorised = true;
        return [this.account];
      case 'eth_accounts':
        return this.authorised ? [this.account] : [];
      case 'wallet_revokePermissions':
        this.authorised = false;
        this.emit('accountsChanged', []);
        return null;
      default:
        return null;
    }
  }
  on(event: string, listener: (...args: unknown[]) => void) {
    if (!this.listeners.has(event)) this.listeners.set(event, new Set());
    this.listeners.get(event)!.add(listener);
  }
  removeListener(event: string, listener: (...args: unknown[]) => void) {
    this.listeners.get(event)?.delete(listener);
  }
  emit(event: string, ...args: unknown[]) {
    for (const l of this.listeners.get(event) ?? []) l(...args);
  }
  listenerCount() {
    return [...this.listeners.values()].reduce((n, s) => n + s.size, 0);
  }
}

function memoryStorage(initial: Record<string, string> = {}) {
  const map = new Map(Object.entries(initial));
  return {
    getItem: (k: string) => map.get(k) ?? null,
    setItem: (k: string, v: string) => void map.set(k, v),
    removeItem: (k: string) => void map.delete(k),
    map,
  };
}

function setup({ storage = memoryStorage(), announce = true, config = CONFIG, authorised = false } = {}) {
  const target = new EventTarget() as unknown as Window;
  const wallet = new FakeWallet();
  wallet.authorised = authorised;
  if (announce) {
    target.addEventListener(REQUEST_PROVIDER_EVENT, () => {
      const detail = { info: { uuid: 'u1', name: 'E2E Wallet', icon: 'data:image/svg+xml,x', rdns: 'dev.pogs.fake' }, provider: wallet };
      target.dispatchEvent(Object.assign(new Event(ANNOUNCE_PROVIDER_EVENT), { detail }));
    });
  }
  const loadWalletConnect = vi.fn<(c: WalletConfig) => Promise<WalletConnectLike>>();
  const controller = new WalletController({
    target,
    storage,
    checksum: (a) => {
      if (!/^0x[0-9a-f]{40}$/i.test(a)) throw new Error('bad address');
      return [A, B].find((x) => x.toLowerCase() === a.toLowerCase()) ?? a;
    },
    loadWalletConnect,
    loadDemoWallet: vi.fn(),
    discoveryWaitMs: 5,
    restoreWaitMs: 30,
  });
  const notices: WalletNotice[] = [];
  controller.onNotice((n) => notices.push(n));
  controller.configure(config);
  return { controller, wallet, storage, notices, loadWalletConnect };
}

const settle = () => new Promise((r) => setTimeout(r, 40));

describe('WalletController', () => {
  it('lists the announced wallet and connects it with a prompt', async () => {
    const { controller, wallet, storage, notices } = setup();
    expect(controller.getSnapshot().wallets.map((w) => w.id)).toEqual(['dev.pogs.fake']);
    await controller.connect('dev.pogs.fake');
    expect(controller.getSnapshot()).toMatchObject({ status: 'connected', address: A, walletName: 'E2E Wallet', provider: wallet });
    expect(wallet.calls).toContain('eth_requestAccounts');
    expect(notices).toEqual([{ title: 'Wallet Connected', description: 'Connected to 0x3C44...93BC', variant: 'default' }]);
    expect(storage.map.get(LAST_WALLET_STORAGE_KEY)).toBe('dev.pogs.fake');
  });

  it('ignores a second connect while the first is pending', async () => {
    const { controller, wallet } = setup();
    let release!: (v: unknown) => void;
    wallet.behaviour = (m) => (m === 'eth_requestAccounts' ? new Promise((r) => (release = r)) : undefined);
    const first = controller.connect('dev.pogs.fake');
    await Promise.resolve();
    await controller.connect('dev.pogs.fake');
    expect(controller.getSnapshot().status).toBe('connecting');
    release([A]);
    await first;
    expect(wallet.calls.filter((m) => m === 'eth_requestAccounts')).toHaveLength(1);
    expect(controller.getSnapshot().status).toBe('connected');
  });

  it('maps a rejection to "Connection Rejected" and stays disconnected', async () => {
    const { controller, wallet, notices, storage } = setup();
    wallet.behaviour = (m) =>
      m === 'eth_requestAccounts' ? Promise.reject({ code: 4001, message: 'User rejected the request.' }) : undefined;
    await controller.connect('dev.pogs.fake');
    expect(controller.getSnapshot().status).toBe('disconnected');
    expect(notices.at(-1)).toMatchObject({ title: 'Connection Rejected', variant: 'destructive' });
    expect(storage.map.has(LAST_WALLET_STORAGE_KEY)).toBe(false);
  });

  it('says "No accounts found" when the wallet returns none', async () => {
    const { controller, wallet, notices } = setup();
    wallet.behaviour = (m) => (m === 'eth_requestAccounts' ? Promise.resolve([]) : undefined);
    await controller.connect('dev.pogs.fake');
    expect(notices.at(-1)).toMatchObject({ title: 'Connection Failed', description: 'No accounts found' });
  });

  it('says "No wallet detected…" for a wallet that is not there', async () => {
    const { controller, notices } = setup({ announce: false });
    await controller.connect('io.metamask');
    expect(notices.at(-1)).toMatchObject({
      title: 'Connection Failed',
      description: 'No wallet detected. Please install MetaMask or another Web3 wallet.',
    });
  });

  it('follows accountsChanged, and an empty list disconnects', async () => {
    const { controller, wallet, notices, storage } = setup();
    await controller.connect('dev.pogs.fake');
    wallet.emit('accountsChanged', [B.toLowerCase()]);
    expect(controller.getSnapshot().address).toBe(B);
    expect(notices.at(-1)).toMatchObject({ title: 'Account Switched', description: 'Now using 0x90F7...b906' });
    wallet.emit('accountsChanged', []);
    expect(controller.getSnapshot()).toMatchObject({ status: 'disconnected', address: null, provider: null });
    expect(notices.at(-1)?.title).toBe('Disconnected');
    expect(storage.map.has(LAST_WALLET_STORAGE_KEY)).toBe(false);
    expect(wallet.listenerCount()).toBe(0);
  });

  it('the wallet’s disconnect event disconnects, with a "Disconnected" notice', async () => {
    const { controller, wallet, notices } = setup();
    await controller.connect('dev.pogs.fake');
    wallet.emit('disconnect', { code: 4900 });
    expect(controller.getSnapshot().status).toBe('disconnected');
    expect(notices.map((n) => n.title)).toEqual(['Wallet Connected', 'Disconnected']);
  });

  it('disconnect clears the session, revokes permissions and says so once', async () => {
    const { controller, wallet, notices, storage } = setup();
    await controller.connect('dev.pogs.fake');
    await controller.disconnect();
    expect(controller.getSnapshot()).toMatchObject({ status: 'disconnected', address: null, provider: null, walletName: null });
    expect(wallet.calls).toContain('wallet_revokePermissions');
    expect(notices.map((n) => n.title)).toEqual(['Wallet Connected', 'Wallet Disconnected']);
    expect(notices.at(-1)?.description).toMatch(/wallet extension/);
    expect(storage.map.has(LAST_WALLET_STORAGE_KEY)).toBe(false);
  });

  it('ignores a wallet that cannot revoke', async () => {
    const { controller, wallet, notices } = setup();
    await controller.connect('dev.pogs.fake');
    wallet.behaviour = (m) => (m === 'wallet_revokePermissions' ? Promise.reject({ code: 4200, message: 'unsupported' }) : undefined);
    await controller.disconnect();
    expect(controller.getSnapshot().status).toBe('disconnected');
    expect(notices.at(-1)?.title).toBe('Wallet Disconnected');
  });

  it('reconnects the wallet used last silently, with eth_accounts only', async () => {
    const { controller, wallet, notices } = setup({
      storage: memoryStorage({ [LAST_WALLET_STORAGE_KEY]: 'dev.pogs.fake' }),
      authorised: true,
    });
    expect(controller.getSnapshot()).toMatchObject({ status: 'connecting', silent: true });
    await settle();
    expect(controller.getSnapshot()).toMatchObject({ status: 'connected', address: A, silent: true });
    expect(wallet.calls).toContain('eth_accounts');
    expect(wallet.calls).not.toContain('eth_requestAccounts');
    expect(notices).toEqual([]);
  });

  it('starts disconnected and forgets the wallet when it no longer grants accounts', async () => {
    const storage = memoryStorage({ [LAST_WALLET_STORAGE_KEY]: 'dev.pogs.fake' });
    const { controller, wallet, notices } = setup({ storage });
    expect(controller.getSnapshot().status).toBe('connecting');
    await settle();
    expect(controller.getSnapshot().status).toBe('disconnected');
    expect(wallet.calls).not.toContain('eth_requestAccounts');
    expect(storage.map.has(LAST_WALLET_STORAGE_KEY)).toBe(false);
    expect(notices).toEqual([]);
  });

  it('loads WalletConnect only when chosen, and only when configured', async () => {
    const { controller, loadWalletConnect } = setup();
    expect(controller.getSnapshot().walletConnectAvailable).toBe(false);
    await controller.connect('walletconnect');
    expect(loadWalletConnect).not.toHaveBeenCalled();

    const withWc = setup({ config: { ...CONFIG, walletConnectProjectId: 'a'.repeat(32) } });
    expect(withWc.controller.getSnapshot().walletConnectAvailable).toBe(true);
    expect(withWc.loadWalletConnect).not.toHaveBeenCalled();
    const wc = Object.assign(new FakeWallet(), {
      accounts: [] as string[],
      session: undefined,
      enable: async () => [B],
      disconnect: async () => undefined,
    });
    withWc.loadWalletConnect.mockResolvedValue(wc as unknown as WalletConnectLike);
    await withWc.controller.connect('walletconnect');
    expect(withWc.loadWalletConnect).toHaveBeenCalledTimes(1);
    expect(withWc.controller.getSnapshot()).toMatchObject({ status: 'connected', address: B, walletName: 'WalletConnect' });
  });

  it('a cancelled attempt’s late answer is ignored', async () => {
    const { controller, wallet, notices } = setup();
    let release!: (v: unknown) => void;
    wallet.behaviour = (m) => (m === 'eth_requestAccounts' ? new Promise((r) => (release = r)) : undefined);
    const pending = controller.connect('dev.pogs.fake');
    await Promise.resolve();
    controller.cancel();
    release([A]);
    await pending;
    expect(controller.getSnapshot().status).toBe('disconnected');
    expect(notices).toEqual([]);
  });
});
