// The service worker's order news, run as the browser runs it: the script is loaded into a worker
// scope (a stand-in with the members it uses: its registration, its windows, its events) and its
// `push` and `notificationclick` listeners are called as the browser calls them. The e2e test
// (e2e/order-updates.spec.ts) shows Chromium loading the script and showing a push; a headless
// browser has no notification to tap, so the tap is checked here.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { orderNewsMessage } from '../../common/order-news';

type Listener = (event: unknown) => void;
const ORIGIN = 'https://shop.example';
const listeners = new Map<string, Listener>();
const shown: Array<{ title: string; options: { data: unknown } }> = [];
const opened: string[] = [];
const focused: string[] = [];
let windows: Array<{ url: string; focused: boolean; visibilityState: string }> = [];

const scope = {
  location: new URL(`${ORIGIN}/sw.js`),
  registration: { showNotification: async (title: string, options: { data: unknown }) => void shown.push({ title, options }) },
  clients: {
    matchAll: async () => windows.map((w) => ({ ...w, focus: async () => void focused.push(w.url) })),
    openWindow: async (url: string) => void opened.push(url),
  },
  addEventListener: (type: string, listener: Listener) => listeners.set(type, listener),
};

/** Fires `type` at the worker and waits for what its listener hands to waitUntil. */
async function fire(type: string, event: object) {
  const waits: Promise<unknown>[] = [];
  listeners.get(type)!({ ...event, waitUntil: (p: Promise<unknown>) => waits.push(p) });
  await Promise.all(waits);
}

beforeAll(async () => {
  vi.stubGlobal('self', scope);
  await import('./order-news-sw');
});
afterAll(() => vi.unstubAllGlobals());

const shippedMessage = orderNewsMessage(
  { orderId: 'PG123', status: 'shipped', trackingUrl: 'https://parcels.example/t/1', onHold: false },
  ORIGIN,
);

describe('the service worker’s order news', () => {
  it('shows a push message as its notification, unless a focused window already shows that order', async () => {
    windows = [{ url: `${ORIGIN}/orders`, focused: true, visibilityState: 'visible' }];
    await fire('push', { data: { json: () => shippedMessage } });
    expect(shown.map((n) => n.title)).toEqual([shippedMessage.notification.title]);

    windows = [{ url: `${ORIGIN}/order-confirmation?id=PG123`, focused: true, visibilityState: 'visible' }];
    await fire('push', { data: { json: () => shippedMessage } });
    expect(shown).toHaveLength(1);
  });

  it('ignores a message that is not the shop’s news', async () => {
    windows = [];
    await fire('push', { data: { json: () => ({ hello: 'world' }) } });
    await fire('push', {
      data: {
        json: () => {
          throw new SyntaxError('not JSON');
        },
      },
    });
    expect(shown).toHaveLength(1);
  });

  it('a tap opens the order’s page, or focuses the window already on it; "Track parcel" opens the tracking page', async () => {
    const data = shown[0]!.options.data;
    const close = vi.fn();
    windows = [];
    await fire('notificationclick', { notification: { data, close }, action: '' });
    expect(close).toHaveBeenCalled();
    const orderPage = opened.at(-1)!;
    expect(new URL(orderPage).origin).toBe(ORIGIN);
    expect(orderPage).toContain('PG123');

    windows = [{ url: orderPage, focused: false, visibilityState: 'hidden' }];
    await fire('notificationclick', { notification: { data, close }, action: '' });
    expect(focused).toEqual([orderPage]);
    expect(opened).toHaveLength(1);

    windows = [];
    await fire('notificationclick', { notification: { data, close }, action: 'track' });
    expect(opened.at(-1)).toBe('https://parcels.example/t/1');
  });
});
