/**
 * What the order updates' toggle asks of the browser (docs/order-updates.md): whether it can take
 * push messages here, the shop's service worker registration, and its push subscription.
 */

/** The VAPID public key (base64url, as the server gives it) as the bytes `pushManager.subscribe` takes. */
export function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .padEnd(Math.ceil(base64url.length / 4) * 4, '=');
  const binary = atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** Whether this browser has the Push API and notifications at all (an iPhone's only once the shop is on the home screen). */
export function pushSupported(): boolean {
  return typeof window !== 'undefined' && 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;
}

/** The shop's service worker registration, or null while it has none (a development server). */
export async function shopRegistration(): Promise<ServiceWorkerRegistration | null> {
  if (!pushSupported()) return null;
  return (await navigator.serviceWorker.getRegistration()) ?? null;
}

/**
 * A push subscription with the shop's key `publicKey`: the one the browser has when it was made
 * with that key (and `keep` says it may be kept), else a new one.
 */
export async function subscribeWith(publicKey: string, keep: (existing: PushSubscription) => Promise<boolean>): Promise<PushSubscription> {
  const registration = await shopRegistration();
  if (!registration) throw new Error('The shop’s offline support is not installed in this browser yet. Reload the page and try again.');
  const existing = await registration.pushManager.getSubscription();
  if (existing) {
    if (await keep(existing)) return existing;
    await existing.unsubscribe();
  }
  return registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(publicKey) });
}
