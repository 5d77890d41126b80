import { describe, expect, it, vi } from 'vitest';
import { ANNOUNCE_PROVIDER_EVENT, REQUEST_PROVIDER_EVENT, safeIcon, startDiscovery, WalletDirectory } from './eip6963';

const provider = () => ({ request: async () => null });
const ICON = 'data:image/svg+xml;base64,PHN2Zy8+';
const detail = (uuid: string, rdns: string, name = 'Wallet') => ({ info: { uuid, name, icon: ICON, rdns }, provider: provider() });

describe('WalletDirectory', () => {
  it('lists announced wallets with name, icon and rdns as the id', () => {
    const dir = new WalletDirectory();
    expect(dir.announce(detail('u1', 'io.metamask', 'MetaMask'))).toBe(true);
    expect(dir.announce(detail('u2', 'com.coinbase.wallet', 'Coinbase Wallet'))).toBe(true);
    expect(dir.list().map((w) => [w.id, w.name, w.icon])).toEqual([
      ['io.metamask', 'MetaMask', ICON],
      ['com.coinbase.wallet', 'Coinbase Wallet', ICON],
    ]);
    expect(dir.get('io.metamask')?.name).toBe('MetaMask');
  });

  it('dedupes by uuid and by rdns, keeping the first', () => {
    const dir = new WalletDirectory();
    const first = detail('u1', 'io.metamask', 'MetaMask');
    dir.announce(first);
    expect(dir.announce(detail('u1', 'io.metamask', 'MetaMask'))).toBe(false); // re-announced
    expect(dir.announce(detail('u1', 'other.rdns', 'Renamed'))).toBe(false); // same uuid
    expect(dir.announce(detail('u9', 'io.metamask', 'MetaMask again'))).toBe(false); // same rdns
    expect(dir.list()).toHaveLength(1);
    expect(dir.list()[0].provider).toBe(first.provider);
  });

  it('uses the uuid as the id when a wallet sends no rdns', () => {
    const dir = new WalletDirectory();
    dir.announce(detail('u1', ''));
    dir.announce(detail('u2', ''));
    expect(dir.list().map((w) => w.id)).toEqual(['u1', 'u2']);
  });

  it('ignores malformed announcements', () => {
    const dir = new WalletDirectory();
    for (const bad of [
      null,
      {},
      { info: {} },
      { info: { uuid: 'u', name: 'x' }, provider: {} },
      { info: { uuid: '', name: 'x' }, provider: provider() },
    ]) {
      expect(dir.announce(bad)).toBe(false);
    }
    expect(dir.list()).toEqual([]);
  });

  it('offers window.ethereum only when nothing announced, and drops it once something does', () => {
    const dir = new WalletDirectory();
    expect(dir.addInjectedFallback(undefined)).toBe(false);
    expect(dir.addInjectedFallback(provider())).toBe(true);
    expect(dir.list().map((w) => [w.id, w.name, w.source])).toEqual([['injected', 'Browser Wallet', 'injected']]);
    dir.announce(detail('u1', 'io.metamask', 'MetaMask'));
    expect(dir.list().map((w) => w.id)).toEqual(['io.metamask']);
    expect(dir.addInjectedFallback(provider())).toBe(false);
  });

  it('notifies subscribers on change', () => {
    const dir = new WalletDirectory();
    const listener = vi.fn();
    const stop = dir.subscribe(listener);
    dir.announce(detail('u1', 'io.metamask'));
    dir.announce(detail('u1', 'io.metamask'));
    expect(listener).toHaveBeenCalledTimes(1);
    stop();
    dir.announce(detail('u2', 'x.y'));
    expect(listener).toHaveBeenCalledTimes(1);
  });
});

describe('safeIcon', () => {
  it('keeps data:image URIs only', () => {
    expect(safeIcon(ICON)).toBe(ICON);
    expect(safeIcon('data:image/png;base64,AAAA')).toBe('data:image/png;base64,AAAA');
    expect(safeIcon('https://tracker.example/icon.png')).toBe('');
    expect(safeIcon('javascript:alert(1)')).toBe('');
    expect(safeIcon('data:text/html,<script>')).toBe('');
    expect(safeIcon(undefined)).toBe('');
  });
});

describe('startDiscovery', () => {
  it('asks wallets to announce, collects them, then falls back to window.ethereum', async () => {
    const target = new EventTarget() as unknown as Window & { ethereum?: unknown };
    target.addEventListener(REQUEST_PROVIDER_EVENT, () => {
      target.dispatchEvent(Object.assign(new Event(ANNOUNCE_PROVIDER_EVENT), { detail: detail('u1', 'io.metamask', 'MetaMask') }));
    });
    const dir = new WalletDirectory();
    const { settled, stop } = startDiscovery(target, dir, 5);
    expect(dir.list().map((w) => w.id)).toEqual(['io.metamask']);
    await settled;
    expect(dir.list().map((w) => w.id)).toEqual(['io.metamask']);
    stop();
  });

  it('falls back to window.ethereum as "Browser Wallet" when nothing announces', async () => {
    const target = new EventTarget() as unknown as Window & { ethereum?: unknown };
    target.ethereum = provider();
    const dir = new WalletDirectory();
    const { settled, stop } = startDiscovery(target, dir, 5);
    expect(dir.list()).toEqual([]);
    await settled;
    expect(dir.list().map((w) => w.name)).toEqual(['Browser Wallet']);
    stop();
  });
});
