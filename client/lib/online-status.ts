import { onlineManager } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';

/**
 * Whether the shop can reach its server: the browser's own idea (navigator.onLine and its
 * online/offline events) and what the shop's requests found (a request that got no HTTP answer,
 * status 0, means the server is out of reach even when the browser believes it is online).
 */
export interface OnlineState {
  /** navigator.onLine, kept up to date by the online/offline events. */
  browserOnline: boolean;
  /** The last request to the shop got no HTTP answer, and none has been answered since. */
  unreachable: boolean;
}

export type OnlineEvent =
  | { type: 'browser-online' }
  | { type: 'browser-offline' }
  /** A request to the shop got no HTTP answer (status 0). */
  | { type: 'request-failed' }
  /** A request to the shop got an HTTP answer, whatever its status. */
  | { type: 'request-answered' };

/** 'online', 'offline' (the browser says so) or 'unreachable' (online, but the shop's requests fail). */
export type Connection = 'online' | 'offline' | 'unreachable';

export function onlineReducer(state: OnlineState, event: OnlineEvent): OnlineState {
  switch (event.type) {
    case 'browser-online':
      // Back online: try the server again rather than trust an old failure.
      return { browserOnline: true, unreachable: false };
    case 'browser-offline':
      return { ...state, browserOnline: false };
    case 'request-failed':
      return state.unreachable ? state : { ...state, unreachable: true };
    case 'request-answered':
      return state.unreachable ? { ...state, unreachable: false } : state;
  }
}

export function connectionOf(state: OnlineState): Connection {
  if (!state.browserOnline) return 'offline';
  return state.unreachable ? 'unreachable' : 'online';
}

/** How long to wait before asking the server again while it is out of reach (doubling, capped). */
export function probeDelayMs(attempt: number): number {
  return Math.min(2_000 * 2 ** attempt, 30_000);
}

/** The line an action shows when it needs the server and there is no connection. */
export function connectionNeededText(toDoWhat: string): string {
  return `You're offline. Connect to the internet to ${toDoWhat}.`;
}

// The shop's one connection state (module-level: the api-client reports to it from anywhere).
let state: OnlineState = { browserOnline: true, unreachable: false };
const listeners = new Set<() => void>();
let started = false;
let probeTimer: ReturnType<typeof setTimeout> | undefined;
let probeAttempt = 0;

function dispatch(event: OnlineEvent): void {
  const next = onlineReducer(state, event);
  if (next === state) return;
  state = next;
  scheduleProbe();
  for (const listener of listeners) listener();
}

/**
 * While the browser is online but the server did not answer, ask /api/health now and then: an
 * answer ends the 'unreachable' state (and TanStack Query refetches what waited for it).
 */
function scheduleProbe(): void {
  clearTimeout(probeTimer);
  probeTimer = undefined;
  if (connectionOf(state) !== 'unreachable') {
    probeAttempt = 0;
    return;
  }
  probeTimer = setTimeout(() => {
    probeAttempt += 1;
    fetch('/api/health', { cache: 'no-store' }).then(
      () => dispatch({ type: 'request-answered' }),
      () => scheduleProbe(),
    );
  }, probeDelayMs(probeAttempt));
}

/**
 * Starts following the connection (once): the browser's online/offline events, and TanStack
 * Query's onlineManager follows this state, so queries waiting for the network resume (and
 * failed ones refetch) when the shop is back, not only when the browser says so.
 */
export function startOnlineStatus(): void {
  if (started || typeof window === 'undefined') return;
  started = true;
  state = { browserOnline: navigator.onLine, unreachable: false };
  window.addEventListener('online', () => dispatch({ type: 'browser-online' }));
  window.addEventListener('offline', () => dispatch({ type: 'browser-offline' }));
  onlineManager.setEventListener((setOnline) => {
    const update = () => setOnline(connectionOf(state) === 'online');
    update();
    listeners.add(update);
    return () => listeners.delete(update);
  });
}

/** For the api-client: whether a request to the shop got an HTTP answer. */
export function reportRequestOutcome(answered: boolean): void {
  if (!started) return;
  dispatch({ type: answered ? 'request-answered' : 'request-failed' });
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function getConnection(): Connection {
  return connectionOf(state);
}

/** The shop's connection, re-rendering on change. */
export function useConnection(): Connection {
  return useSyncExternalStore(subscribe, getConnection, () => 'online');
}

/** True when an action that needs the server cannot reach it now. */
export function useOffline(): boolean {
  return useConnection() !== 'online';
}
