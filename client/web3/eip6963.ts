/**
 * EIP-6963 multi-wallet discovery: listen for `eip6963:announceProvider`, ask with
 * `eip6963:requestProvider`, and keep one entry per wallet (deduplicated by uuid and by rdns).
 * When nothing announces within a short wait, a plain `window.ethereum` is offered as
 * 'Browser Wallet'; an announcement arriving later replaces that fallback.
 */
import { INJECTED_WALLET_ID } from './wallet-ids';
import type { Eip1193Provider, Eip6963ProviderDetail } from './types';

export const ANNOUNCE_PROVIDER_EVENT = 'eip6963:announceProvider';
export const REQUEST_PROVIDER_EVENT = 'eip6963:requestProvider';
export const INJECTED_WALLET_NAME = 'Browser Wallet';
/** How long to wait for announcements before falling back to window.ethereum. */
export const DISCOVERY_WAIT_MS = 400;

export interface DiscoveredWallet {
  /** The rdns (or the uuid when a wallet sends none), or 'injected'. */
  id: string;
  uuid: string;
  name: string;
  /** A data:image URI, or '' (the UI then draws a generic wallet icon). */
  icon: string;
  rdns: string;
  provider: Eip1193Provider;
  source: 'eip6963' | 'injected';
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object';
}

/** Whether an announcement's detail has the EIP-6963 shape. */
export function isProviderDetail(detail: unknown): detail is Eip6963ProviderDetail {
  if (!isObject(detail) || !isObject(detail.info) || !isObject(detail.provider)) return false;
  const { uuid, name } = detail.info;
  return (
    typeof uuid === 'string' &&
    uuid !== '' &&
    typeof name === 'string' &&
    name.trim() !== '' &&
    typeof detail.provider.request === 'function'
  );
}

/**
 * Only data:image URIs are drawn (EIP-6963 requires one); anything else (a remote URL that could
 * track, or script) becomes ''.
 */
export function safeIcon(icon: unknown): string {
  return typeof icon === 'string' && /^data:image\/(svg\+xml|png|jpeg|jpg|gif|webp)[;,]/i.test(icon) ? icon : '';
}

export class WalletDirectory {
  private wallets: readonly DiscoveredWallet[] = [];
  private readonly listeners = new Set<() => void>();

  /** Adds an announced wallet; false when it is malformed or already listed (same uuid or rdns). */
  announce(detail: unknown): boolean {
    if (!isProviderDetail(detail)) return false;
    const { uuid, name, icon, rdns } = detail.info;
    const cleanRdns = typeof rdns === 'string' ? rdns.trim() : '';
    const duplicate = this.wallets.some((w) => w.source === 'eip6963' && (w.uuid === uuid || (cleanRdns !== '' && w.rdns === cleanRdns)));
    if (duplicate) return false;
    const wallet: DiscoveredWallet = {
      id: cleanRdns || uuid,
      uuid,
      name: name.trim(),
      icon: safeIcon(icon),
      rdns: cleanRdns,
      provider: detail.provider,
      source: 'eip6963',
    };
    // A real announcement supersedes the window.ethereum fallback (usually the same wallet).
    this.set([...this.wallets.filter((w) => w.source !== 'injected'), wallet]);
    return true;
  }

  /** Offers window.ethereum as 'Browser Wallet' when no wallet announced itself. */
  addInjectedFallback(provider: unknown): boolean {
    if (this.wallets.length > 0 || !isObject(provider) || typeof provider.request !== 'function') return false;
    this.set([
      {
        id: INJECTED_WALLET_ID,
        uuid: INJECTED_WALLET_ID,
        name: INJECTED_WALLET_NAME,
        icon: '',
        rdns: '',
        provider: provider as unknown as Eip1193Provider,
        source: 'injected',
      },
    ]);
    return true;
  }

  list(): readonly DiscoveredWallet[] {
    return this.wallets;
  }

  get(id: string): DiscoveredWallet | undefined {
    return this.wallets.find((w) => w.id === id);
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private set(next: readonly DiscoveredWallet[]) {
    this.wallets = next;
    for (const listener of this.listeners) listener();
  }
}

/**
 * Starts listening on `target` (the window), asks wallets to announce, and after
 * DISCOVERY_WAIT_MS falls back to `target.ethereum`. Returns a function that stops listening
 * and a promise settled when the first wait is over.
 */
export function startDiscovery(
  target: Window,
  directory: WalletDirectory,
  waitMs = DISCOVERY_WAIT_MS,
): { stop: () => void; settled: Promise<void> } {
  const onAnnounce = (event: Event) => {
    directory.announce((event as CustomEvent<unknown>).detail);
  };
  target.addEventListener(ANNOUNCE_PROVIDER_EVENT, onAnnounce);
  target.dispatchEvent(new Event(REQUEST_PROVIDER_EVENT));
  let timer: ReturnType<typeof setTimeout> | undefined;
  const settled = new Promise<void>((resolve) => {
    timer = setTimeout(() => {
      directory.addInjectedFallback((target as unknown as { ethereum?: unknown }).ethereum);
      resolve();
    }, waitMs);
  });
  return {
    settled,
    stop: () => {
      clearTimeout(timer);
      target.removeEventListener(ANNOUNCE_PROVIDER_EVENT, onAnnounce);
    },
  };
}

/** Asks the wallets to announce themselves again (e.g. when the chooser opens). */
export function requestAnnouncements(target: Window): void {
  target.dispatchEvent(new Event(REQUEST_PROVIDER_EVENT));
}
