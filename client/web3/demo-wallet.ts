/**
 * The Demo Wallet (local mode only): an EIP-1193 provider whose every request is JSON-RPC POSTed
 * to the shop's `/api/dev/wallet`, where the server acts as a funded dev account of the embedded
 * chain. It is announced through EIP-6963 like any extension, so the rest of the shop treats it
 * as one. The wallet code imports this module only when /api/config says `demoWallet: true`.
 */
import { apiRequest } from '../lib/api-client';
import { ANNOUNCE_PROVIDER_EVENT, REQUEST_PROVIDER_EVENT } from './eip6963';
import { DEMO_WALLET_RDNS } from './wallet-ids';
import type { Eip1193Provider, Eip6963ProviderDetail, ProviderListener, RequestArguments } from './types';

export const DEMO_WALLET_ENDPOINT = '/api/dev/wallet';
export const DEMO_WALLET_NAME = 'Demo Wallet';

/** A violet cap on a rounded square, as a data: URI (EIP-6963 icons must be data URIs). */
export const DEMO_WALLET_ICON = `data:image/svg+xml,${encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 96 96">' +
    '<rect width="96" height="96" rx="22" fill="#6d28d9"/>' +
    '<circle cx="48" cy="48" r="30" fill="#fde047"/>' +
    '<circle cx="48" cy="48" r="17" fill="none" stroke="#6d28d9" stroke-width="6" stroke-dasharray="8 5"/>' +
    '</svg>',
)}`;

/** A JSON-RPC / EIP-1193 error as wallets throw it: an Error with a numeric code. */
export class ProviderRpcError extends Error {
  readonly code: number;
  readonly data?: unknown;
  constructor(code: number, message: string, data?: unknown) {
    super(message);
    this.name = 'ProviderRpcError';
    this.code = code;
    this.data = data;
  }
}

type Listener = ProviderListener;

export interface DemoWalletProvider extends Eip1193Provider {
  readonly isDemoWallet: true;
  on(event: string, listener: Listener): DemoWalletProvider;
  removeListener(event: string, listener: Listener): DemoWalletProvider;
}

export function createDemoWalletProvider(endpoint = DEMO_WALLET_ENDPOINT, fetchImpl?: typeof fetch): DemoWalletProvider {
  const listeners = new Map<string, Set<Listener>>();
  let nextId = 1;

  const provider: DemoWalletProvider = {
    isDemoWallet: true,
    async request({ method, params }: RequestArguments): Promise<unknown> {
      const id = nextId++;
      let response: Response;
      try {
        response = await apiRequest(endpoint, {
          method: 'POST',
          credentials: 'same-origin',
          json: { jsonrpc: '2.0', id, method, params: params ?? [] },
          fetch: fetchImpl,
        });
      } catch {
        throw new ProviderRpcError(4900, 'The Demo Wallet cannot reach the shop');
      }
      let body: { result?: unknown; error?: { code?: unknown; message?: unknown; data?: unknown } };
      try {
        body = await response.json();
      } catch {
        throw new ProviderRpcError(-32603, `The Demo Wallet got an unreadable answer (${response.status})`);
      }
      if (body.error) {
        const code = typeof body.error.code === 'number' ? body.error.code : -32603;
        const message = typeof body.error.message === 'string' ? body.error.message : 'Demo Wallet error';
        throw new ProviderRpcError(code, message, body.error.data);
      }
      if (!response.ok) throw new ProviderRpcError(-32603, `The Demo Wallet failed (${response.status})`);
      if (method === 'wallet_revokePermissions') emit('accountsChanged', []);
      return body.result ?? null;
    },
    on(event, listener) {
      if (!listeners.has(event)) listeners.set(event, new Set());
      listeners.get(event)!.add(listener);
      return provider;
    },
    removeListener(event, listener) {
      listeners.get(event)?.delete(listener);
      return provider;
    },
  };

  function emit(event: string, ...args: unknown[]) {
    for (const listener of listeners.get(event) ?? []) {
      try {
        // A subscriber types its listener for the event it named; the provider only passes the event's values on.
        (listener as (...values: unknown[]) => void)(...args);
      } catch (error) {
        console.error('Demo Wallet listener failed', error);
      }
    }
  }

  return provider;
}

/** A v4 uuid; crypto.randomUUID is missing outside secure contexts (a phone on the LAN). */
function uuidV4(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

let installed: { detail: Eip6963ProviderDetail; uninstall: () => void } | null = null;

/**
 * Announces the Demo Wallet on `target` now and whenever a dapp asks (eip6963:requestProvider).
 * Idempotent: one Demo Wallet per page.
 */
export function installDemoWallet(target: Window = window): Eip6963ProviderDetail {
  if (installed) return installed.detail;
  const detail: Eip6963ProviderDetail = Object.freeze({
    info: Object.freeze({ uuid: uuidV4(), name: DEMO_WALLET_NAME, icon: DEMO_WALLET_ICON, rdns: DEMO_WALLET_RDNS }),
    provider: createDemoWalletProvider(),
  });
  const announce = () => target.dispatchEvent(new CustomEvent(ANNOUNCE_PROVIDER_EVENT, { detail }));
  target.addEventListener(REQUEST_PROVIDER_EVENT, announce);
  announce();
  installed = { detail, uninstall: () => target.removeEventListener(REQUEST_PROVIDER_EVENT, announce) };
  return detail;
}
