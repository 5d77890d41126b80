/**
 * The service worker's order news (docs/order-updates.md): built by vite.config.ts into
 * `sw-order-news.js`, which the generated service worker loads with `importScripts`, so every
 * caching rule of the generated worker stays as it is.
 *
 * - `push`: shows the notification a push message asks for (common/order-news.ts reads it), unless
 *   a focused window of the shop already shows that order.
 * - `notificationclick`: focuses a window already on the page the news leads to, or opens it (the
 *   order's page; the parcel's tracking page for the "Track parcel" action).
 *
 * The project's TypeScript has the DOM's types, not a worker's: the few worker types used here are
 * written out below.
 */
import { newsTarget, readOrderNews, showsOrder } from '../../common/order-news';

interface ExtendableEventLike {
  waitUntil(promise: Promise<unknown>): void;
}
interface PushEventLike extends ExtendableEventLike {
  data: { json(): unknown } | null;
}
interface NotificationEventLike extends ExtendableEventLike {
  notification: { data: unknown; close(): void };
  action: string;
}
interface WindowClientLike {
  url: string;
  focused: boolean;
  visibilityState: string;
  focus(): Promise<unknown>;
}
interface WorkerScope {
  location: Location;
  registration: { showNotification(title: string, options: object): Promise<void> };
  clients: {
    matchAll(options: { type: 'window'; includeUncontrolled: boolean }): Promise<WindowClientLike[]>;
    openWindow(url: string): Promise<unknown>;
  };
  addEventListener(type: 'push', listener: (event: PushEventLike) => void): void;
  addEventListener(type: 'notificationclick', listener: (event: NotificationEventLike) => void): void;
}

const worker = self as unknown as WorkerScope;

const windows = () => worker.clients.matchAll({ type: 'window', includeUncontrolled: true });

worker.addEventListener('push', (event) => {
  let json: unknown = null;
  try {
    json = event.data?.json() ?? null;
  } catch {
    return; // not JSON: not one of ours
  }
  const news = readOrderNews(json, worker.location.origin);
  if (!news) return;
  event.waitUntil(
    (async () => {
      const orderId = news.options.data.orderId;
      const open = await windows();
      if (orderId && open.some((w) => w.focused && w.visibilityState === 'visible' && showsOrder(w.url, orderId))) return;
      await worker.registration.showNotification(news.title, news.options);
    })(),
  );
});

worker.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const target = newsTarget(event.notification.data, event.action);
  if (!target) return;
  event.waitUntil(
    (async () => {
      const href = new URL(target, worker.location.origin).href;
      const already = (await windows()).find((w) => w.url === href);
      if (already) await already.focus();
      else await worker.clients.openWindow(href);
    })(),
  );
});
