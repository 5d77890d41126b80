/**
 * The wallet session for the whole page: discovery (EIP-6963, window.ethereum fallback, the Demo
 * Wallet in local mode, WalletConnect on demand), connect / silent reconnect / disconnect through
 * the pure state machine, and the provider's events. UI-free: React subscribes to its snapshot
 * and shows its notices as toasts.
 */
import { requestAnnouncements, startDiscovery, WalletDirectory, type DiscoveredWallet } from './eip6963';
import {
  changeNotice,
  initialWalletState,
  walletReducer,
  type WalletEvent,
  type WalletMachineState,
  type WalletStatus,
} from './wallet-machine';
import {
  connectedNotice,
  connectErrorNotice,
  disconnectedNotice,
  disconnectErrorNotice,
  NO_ACCOUNTS_MESSAGE,
  NO_WALLET_MESSAGE,
  WalletError,
} from './wallet-errors';
import { forgetWalletId, readLastWalletId, rememberWalletId, WALLETCONNECT_WALLET_ID } from './wallet-ids';
import type { Eip1193Provider, Eip6963ProviderDetail, WalletConfig, WalletNotice } from './types';

/** How long a silent reconnect waits for the remembered wallet to announce itself. */
export const RESTORE_WAIT_MS = 1500;

/** What the chooser lists (no provider: the UI never talks to a wallet directly). */
export interface WalletOption {
  id: string;
  name: string;
  icon: string;
  rdns: string;
}

export interface WalletSnapshot {
  status: WalletStatus;
  address: string | null;
  walletId: string | null;
  walletName: string | null;
  walletIcon: string;
  /** The connected wallet's EIP-1193 provider (for ethers' BrowserProvider at checkout). */
  provider: Eip1193Provider | null;
  /** The current connect is a silent reconnect. */
  silent: boolean;
  wallets: readonly WalletOption[];
  /** True until the first discovery wait is over. */
  discovering: boolean;
  walletConnectAvailable: boolean;
}

/** The minimal WalletConnect provider surface the controller uses. */
export interface WalletConnectLike extends Eip1193Provider {
  accounts: string[];
  session?: { peer?: { metadata?: { name?: string; icons?: string[] } } } | undefined;
  enable(): Promise<string[]>;
  disconnect(): Promise<void>;
}

export interface WalletControllerDeps {
  /** The window (events, window.ethereum). */
  target: Window;
  /** Where the last wallet's id is kept (localStorage). */
  storage?: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> | null;
  /** Checksums an address; throws on a malformed one. */
  checksum: (address: string) => string;
  /** Loads WalletConnect (the big, lazily imported module). */
  loadWalletConnect: (config: WalletConfig) => Promise<WalletConnectLike>;
  /** Loads and announces the Demo Wallet. */
  loadDemoWallet: (target: Window) => Promise<Eip6963ProviderDetail>;
  discoveryWaitMs?: number;
  restoreWaitMs?: number;
}

interface Session {
  walletId: string;
  provider: Eip1193Provider;
  name: string;
  icon: string;
  detach: () => void;
  walletConnect: WalletConnectLike | null;
}

type Listener = () => void;
type NoticeListener = (notice: WalletNotice) => void;

export class WalletController {
  private readonly deps: WalletControllerDeps;
  private readonly directory = new WalletDirectory();
  private machine: WalletMachineState = initialWalletState;
  private session: Session | null = null;
  private pendingName: { name: string; icon: string } | null = null;
  private config: WalletConfig | null = null;
  private discovering = true;
  private started = false;
  private demoLoading: Promise<unknown> | null = null;
  private snapshot: WalletSnapshot;
  private readonly listeners = new Set<Listener>();
  private readonly noticeListeners = new Set<NoticeListener>();

  constructor(deps: WalletControllerDeps) {
    this.deps = deps;
    this.snapshot = this.buildSnapshot();
    this.directory.subscribe(() => this.publish());
  }

  // ---- subscription (useSyncExternalStore) --------------------------------------------------

  subscribe = (listener: Listener): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = (): WalletSnapshot => this.snapshot;

  onNotice(listener: NoticeListener): () => void {
    this.noticeListeners.add(listener);
    return () => this.noticeListeners.delete(listener);
  }

  // ---- lifecycle ----------------------------------------------------------------------------

  /**
   * Gives the controller the public config (call again when it changes). The first call starts
   * discovery and the silent reconnect of the wallet used last.
   */
  configure(config: WalletConfig): void {
    this.config = config;
    if (config.demoWallet && !this.demoLoading) {
      this.demoLoading = this.deps.loadDemoWallet(this.deps.target).catch((error: unknown) => {
        console.warn('The Demo Wallet could not be loaded', error);
      });
    }
    if (!this.started) {
      this.started = true;
      void this.start();
    }
    this.publish();
  }

  /** Asks wallets to announce again (the chooser calls it when it opens). */
  rediscover(): void {
    if (this.started) requestAnnouncements(this.deps.target);
  }

  private async start() {
    const { settled } = startDiscovery(this.deps.target, this.directory, this.deps.discoveryWaitMs);
    void settled.then(() => {
      this.discovering = false;
      this.publish();
    });
    await this.restore();
  }

  /** Silent reconnect: the wallet used last, `eth_accounts` only (never a prompt). */
  private async restore() {
    const walletId = readLastWalletId(this.deps.storage);
    if (!walletId || this.machine.status !== 'disconnected') return;
    const attempt = this.dispatch({ type: 'connect', walletId, silent: true });
    try {
      const found = await this.resolveWallet(walletId, { restoring: true });
      if (!found) throw new WalletError(NO_WALLET_MESSAGE);
      const accounts = found.walletConnect
        ? found.walletConnect.session
          ? found.walletConnect.accounts
          : []
        : await found.provider.request({ method: 'eth_accounts' });
      const address = this.firstAddress(accounts);
      if (!address) throw new WalletError(NO_ACCOUNTS_MESSAGE);
      this.finishConnect(attempt, walletId, address, found, { notify: false });
    } catch {
      // Nothing to reconnect to: start disconnected, quietly, and stop trying on later loads.
      if (this.isCurrent(attempt)) {
        forgetWalletId(this.deps.storage);
        this.dispatch({ type: 'connect-failed', attempt });
      }
    }
  }

  // ---- actions ------------------------------------------------------------------------------

  /** Connects the chosen wallet (an id from the snapshot's wallets, or 'walletconnect'). */
  async connect(walletId: string): Promise<void> {
    if (this.machine.status !== 'disconnected') return; // no double activation
    const attempt = this.dispatch({ type: 'connect', walletId });
    try {
      const found = await this.resolveWallet(walletId, { restoring: false });
      if (!this.isCurrent(attempt)) return;
      if (!found) throw new WalletError(NO_WALLET_MESSAGE);
      this.pendingName = { name: found.name, icon: found.icon };
      this.publish();
      const accounts = found.walletConnect
        ? found.walletConnect.session && found.walletConnect.accounts.length
          ? found.walletConnect.accounts
          : await found.walletConnect.enable()
        : await found.provider.request({ method: 'eth_requestAccounts' });
      if (!this.isCurrent(attempt)) return;
      const address = this.firstAddress(accounts);
      if (!address) throw new WalletError(NO_ACCOUNTS_MESSAGE);
      if (found.walletConnect) {
        // The name of the phone wallet on the other end, when it says.
        const peer = found.walletConnect.session?.peer?.metadata?.name?.trim();
        if (peer) found.name = peer;
      }
      this.finishConnect(attempt, walletId, address, found, { notify: true });
    } catch (error) {
      if (!this.isCurrent(attempt)) return;
      this.pendingName = null;
      this.dispatch({ type: 'connect-failed', attempt });
      this.notify(connectErrorNotice(error));
    }
  }

  /** Gives up waiting for the wallet (its answer, if it ever comes, is ignored). */
  cancel(): void {
    this.pendingName = null;
    this.dispatch({ type: 'cancel' });
  }

  /**
   * The shopper's disconnect: forget the session at once, then ask the wallet to revoke the
   * site's account permission (many wallets cannot; failure is ignored).
   */
  async disconnect(): Promise<void> {
    const session = this.session;
    try {
      this.endSession();
      this.dispatch({ type: 'disconnected' });
      this.notify(disconnectedNotice());
    } catch (error) {
      console.error('Disconnecting the wallet failed', error);
      this.notify(disconnectErrorNotice());
      return;
    }
    if (!session) return;
    try {
      await session.provider.request({ method: 'wallet_revokePermissions', params: [{ eth_accounts: {} }] });
    } catch {
      // Not every wallet supports revoking; the shop has forgotten the wallet either way.
    }
    if (session.walletConnect) await session.walletConnect.disconnect().catch(() => undefined);
  }

  // ---- internals ----------------------------------------------------------------------------

  private async resolveWallet(
    walletId: string,
    { restoring }: { restoring: boolean },
  ): Promise<{ provider: Eip1193Provider; name: string; icon: string; walletConnect: WalletConnectLike | null } | null> {
    if (walletId === WALLETCONNECT_WALLET_ID) {
      if (!this.config?.walletConnectProjectId) return null;
      const walletConnect = await this.deps.loadWalletConnect(this.config);
      const icon = walletConnect.session?.peer?.metadata?.icons?.find((i) => /^data:image\//.test(i)) ?? '';
      return { provider: walletConnect, name: 'WalletConnect', icon, walletConnect };
    }
    const wallet = this.directory.get(walletId) ?? (restoring || this.discovering ? await this.waitForWallet(walletId) : undefined);
    return wallet ? { provider: wallet.provider, name: wallet.name, icon: wallet.icon, walletConnect: null } : null;
  }

  private waitForWallet(walletId: string): Promise<DiscoveredWallet | undefined> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, this.deps.restoreWaitMs ?? RESTORE_WAIT_MS);
      const stop = this.directory.subscribe(() => {
        if (this.directory.get(walletId)) done();
      });
      function done() {
        clearTimeout(timer);
        stop();
        resolve(undefined);
      }
    }).then(() => this.directory.get(walletId));
  }

  private finishConnect(
    attempt: number,
    walletId: string,
    address: string,
    found: { provider: Eip1193Provider; name: string; icon: string; walletConnect: WalletConnectLike | null },
    { notify }: { notify: boolean },
  ) {
    if (!this.isCurrent(attempt)) return;
    this.endSession();
    this.session = {
      walletId,
      provider: found.provider,
      name: found.name,
      icon: found.icon,
      walletConnect: found.walletConnect,
      detach: this.attach(walletId, found.provider),
    };
    this.pendingName = null;
    rememberWalletId(walletId, this.deps.storage);
    this.dispatch({ type: 'connected', attempt, walletId, address });
    if (notify) this.notify(connectedNotice(address));
  }

  /** Listens to the wallet's accountsChanged and disconnect events; returns the un-listen. */
  private attach(walletId: string, provider: Eip1193Provider): () => void {
    const onAccounts = (accounts: unknown) => {
      const list = Array.isArray(accounts) ? accounts.map((a) => this.toAddress(a)).filter((a): a is string => a !== null) : [];
      this.walletEvent({ type: 'accounts-changed', walletId, accounts: list });
    };
    const onDisconnect = () => this.walletEvent({ type: 'disconnected', walletId });
    provider.on?.('accountsChanged', onAccounts);
    provider.on?.('disconnect', onDisconnect);
    return () => {
      provider.removeListener?.('accountsChanged', onAccounts);
      provider.removeListener?.('disconnect', onDisconnect);
    };
  }

  private walletEvent(event: WalletEvent) {
    const prev = this.machine;
    this.dispatch(event);
    const notice = changeNotice(prev, this.machine);
    if (prev.status === 'connected' && this.machine.status === 'disconnected') {
      this.endSession();
      forgetWalletId(this.deps.storage);
      this.publish();
    }
    if (notice) this.notify(notice);
  }

  private endSession() {
    const session = this.session;
    this.session = null;
    forgetWalletId(this.deps.storage);
    session?.detach();
  }

  private isCurrent(attempt: number) {
    return this.machine.status === 'connecting' && this.machine.attempt === attempt;
  }

  private toAddress(value: unknown): string | null {
    if (typeof value !== 'string') return null;
    try {
      return this.deps.checksum(value);
    } catch {
      return null;
    }
  }

  private firstAddress(accounts: unknown): string | null {
    if (!Array.isArray(accounts)) return null;
    for (const account of accounts) {
      const address = this.toAddress(account);
      if (address) return address;
    }
    return null;
  }

  /** Applies an event; returns the (possibly new) attempt number. */
  private dispatch(event: WalletEvent): number {
    const next = walletReducer(this.machine, event);
    if (next !== this.machine) {
      this.machine = next;
      this.publish();
    }
    return this.machine.attempt;
  }

  private notify(notice: WalletNotice) {
    for (const listener of this.noticeListeners) listener(notice);
  }

  private buildSnapshot(): WalletSnapshot {
    const { status, address, walletId, silent } = this.machine;
    const session = status === 'connected' ? this.session : null;
    const naming = session ?? (status === 'connecting' ? this.pendingName : null);
    return {
      status,
      address: status === 'connected' ? address : null,
      walletId,
      walletName: naming?.name ?? null,
      walletIcon: naming?.icon ?? '',
      provider: session?.provider ?? null,
      silent,
      wallets: this.directory.list().map(({ id, name, icon, rdns }) => ({ id, name, icon, rdns })),
      discovering: this.discovering,
      walletConnectAvailable: Boolean(this.config?.walletConnectProjectId),
    };
  }

  private publish() {
    this.snapshot = this.buildSnapshot();
    for (const listener of this.listeners) listener();
  }
}
