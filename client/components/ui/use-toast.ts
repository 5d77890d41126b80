import { useSyncExternalStore, type ReactElement } from 'react';

/** One toast visible at a time, 5 s by default. */
export const TOAST_LIMIT = 1;
export const TOAST_DURATION_MS = 5000;
/** How long a dismissed toast stays mounted so its exit animation can play. */
const REMOVE_DELAY_MS = 300;

export type ToastVariant = 'default' | 'destructive';

export interface ToastOptions {
  title?: string;
  description?: string;
  variant?: ToastVariant;
  /** A ToastAction element (Radix needs its altText). */
  action?: ReactElement;
  /** Milliseconds; Infinity keeps it until closed. */
  duration?: number;
}

export interface ToastRecord extends ToastOptions {
  id: string;
  open: boolean;
}

let toasts: ToastRecord[] = [];
const listeners = new Set<() => void>();
let counter = 0;

function emit(next: ToastRecord[]) {
  toasts = next;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function dismissToast(id?: string) {
  emit(toasts.map((t) => (id === undefined || t.id === id ? { ...t, open: false } : t)));
  setTimeout(() => emit(toasts.filter((t) => t.open || (id !== undefined && t.id !== id))), REMOVE_DELAY_MS);
}

/** Shows a toast; a newer one replaces the visible one (TOAST_LIMIT). */
export function toast(options: ToastOptions): { id: string; dismiss: () => void } {
  counter += 1;
  const id = String(counter);
  emit([{ ...options, id, open: true }, ...toasts].slice(0, TOAST_LIMIT));
  return { id, dismiss: () => dismissToast(id) };
}

const NO_TOASTS: ToastRecord[] = [];

/**
 * The toasts shown now. While the browser hydrates the server's HTML (which never has a toast) it
 * reads none, whatever was shown meanwhile: the toast area then mounts right after hydrating
 * rather than making the markup differ, which would have React throw the page away and rebuild it.
 */
export function useToasts(): ToastRecord[] {
  return useSyncExternalStore(
    subscribe,
    () => toasts,
    () => NO_TOASTS,
  );
}

/**
 * Resolves once the toast `id` is on the page (then a frame later, so its layer is registered),
 * or after `timeoutMs`. A modal opened after this sits above the toast's layer: Escape closes the
 * modal, not the toast, however late the toast area arrived (it loads with the first toast).
 */
export function whenToastShown(id: string, timeoutMs = 3_000): Promise<void> {
  return new Promise((resolve) => {
    const giveUp = Date.now() + timeoutMs;
    const check = () => {
      if (document.querySelector(`[data-toast-id="${CSS.escape(id)}"]`) || Date.now() > giveUp) {
        requestAnimationFrame(() => setTimeout(resolve, 0));
        return;
      }
      setTimeout(check, 16);
    };
    check();
  });
}
