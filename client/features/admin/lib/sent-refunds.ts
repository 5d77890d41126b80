/**
 * Refunds the store wallet has sent that the server has not recorded yet. Once the transfer is
 * sent the money has left, so its hash must never be lost with a closed dialog or a reload: it is
 * kept in the browser until the server records it (or the admin forgets it), and the desk offers
 * "Check again" instead of a second transfer. Only public facts are kept (a hash, an amount, an
 * address), never anything of the admin session.
 */
import { isDecimalString } from '../../../../common/money';

export interface SentRefund {
  transferId: string;
  txHash: string;
  /** POG decimal string, as prepared and sent. */
  amount: string;
  /** The address it went to. */
  to: string;
  /** ISO time it was sent. */
  sentAt: string;
}

export const SENT_REFUNDS_KEY = 'pogs-shop:admin-sent-refunds';

type SentRefunds = Readonly<Record<string, SentRefund>>;

function isSentRefund(value: unknown): value is SentRefund {
  if (!value || typeof value !== 'object') return false;
  const r = value as Record<string, unknown>;
  return (
    typeof r.transferId === 'string' &&
    typeof r.txHash === 'string' &&
    /^0x[0-9a-fA-F]{64}$/.test(r.txHash) &&
    isDecimalString(r.amount) &&
    typeof r.to === 'string' &&
    typeof r.sentAt === 'string'
  );
}

/** What storage holds, keyed by transfer id; anything unreadable is dropped, never thrown. */
export function parseSentRefunds(text: string | null): SentRefunds {
  if (!text) return {};
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return {};
  }
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return {};
  const out: Record<string, SentRefund> = {};
  for (const [key, value] of Object.entries(raw)) if (isSentRefund(value) && value.transferId === key) out[key] = value;
  return out;
}

interface StorageLike {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

/** The store behind the desk: read, keep, forget, and tell subscribers (useSyncExternalStore). */
export function createSentRefundsStore(storage: StorageLike | null) {
  let memory: SentRefunds = parseSentRefunds(safely(() => storage?.getItem(SENT_REFUNDS_KEY) ?? null, null));
  const listeners = new Set<() => void>();
  const write = (next: SentRefunds) => {
    memory = next;
    safely(() => storage?.setItem(SENT_REFUNDS_KEY, JSON.stringify(next)), undefined);
    for (const listener of listeners) listener();
  };
  return {
    get: (transferId: string): SentRefund | null => memory[transferId] ?? null,
    all: (): SentRefunds => memory,
    keep(refund: SentRefund) {
      write({ ...memory, [refund.transferId]: refund });
    },
    forget(transferId: string) {
      if (!(transferId in memory)) return;
      const next = { ...memory };
      delete next[transferId];
      write(next);
    },
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}

function safely<T>(read: () => T, fallback: T): T {
  try {
    return read();
  } catch {
    return fallback; // storage blocked or full: the page still holds it
  }
}
