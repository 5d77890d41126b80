import { describe, expect, it } from 'vitest';
import {
  newsTarget,
  orderNewsMessage,
  orderNewsText,
  readOrderNews,
  showsOrder,
  usableTrackingUrl,
  type OrderNewsFacts,
} from './order-news';

const ORIGIN = 'https://shop.example';
const facts = (over: Partial<OrderNewsFacts> = {}): OrderNewsFacts => ({
  orderId: 'PG0123456789',
  status: 'paid',
  trackingUrl: null,
  onHold: false,
  ...over,
});

describe('order news texts', () => {
  it('says each status plainly, naming the order', () => {
    expect(orderNewsText(facts()).title).toBe('Order PG0123456789 is paid');
    expect(orderNewsText(facts({ status: 'confirmed' })).title).toBe('Order PG0123456789 is confirmed');
    expect(orderNewsText(facts({ status: 'shipped' }))).toEqual({ title: 'Order PG0123456789 has shipped', body: 'It is on its way.' });
    expect(orderNewsText(facts({ status: 'refunded' })).title).toBe('Order PG0123456789 was refunded');
    expect(orderNewsText(facts({ onHold: true })).body).toMatch(/sold out/);
  });

  it('gives the tracking link of a shipped order, only when it is a short http(s) link', () => {
    expect(orderNewsText(facts({ status: 'shipped', trackingUrl: 'https://track.example/1Z' })).body).toBe(
      'Track it: https://track.example/1Z',
    );
    expect(orderNewsText(facts({ status: 'shipped', trackingUrl: 'javascript:alert(1)' })).body).toBe('It is on its way.');
    expect(usableTrackingUrl(`https://track.example/${'x'.repeat(600)}`)).toBeNull();
    expect(usableTrackingUrl('not a url')).toBeNull();
  });
});

describe('the push message', () => {
  it('is Declarative Web Push: the title, body, the order page to open, a tag per order', () => {
    const message = orderNewsMessage(facts({ status: 'shipped', trackingUrl: 'https://track.example/1Z' }), ORIGIN);
    expect(message).toEqual({
      web_push: 8030,
      notification: {
        title: 'Order PG0123456789 has shipped',
        body: 'Track it: https://track.example/1Z',
        navigate: 'https://shop.example/order-confirmation?id=PG0123456789',
        tag: 'order-PG0123456789',
        lang: 'en',
        dir: 'ltr',
        icon: 'https://shop.example/icons/icon-192.png',
        actions: [{ action: 'track', title: 'Track parcel', navigate: 'https://track.example/1Z' }],
      },
      order: { id: 'PG0123456789', status: 'shipped' },
    });
    expect(orderNewsMessage(facts(), ORIGIN).notification).not.toHaveProperty('actions');
    expect(new TextEncoder().encode(JSON.stringify(message)).length).toBeLessThan(3000);
  });

  it('reads back, in the service worker, as the notification to show and where a tap leads', () => {
    const message = orderNewsMessage(facts({ status: 'shipped', trackingUrl: 'https://track.example/1Z' }), ORIGIN);
    const shown = readOrderNews(JSON.parse(JSON.stringify(message)), ORIGIN)!;
    expect(shown.title).toBe('Order PG0123456789 has shipped');
    expect(shown.options).toMatchObject({ tag: 'order-PG0123456789', actions: [{ action: 'track', title: 'Track parcel' }] });
    expect(newsTarget(shown.options.data, '')).toBe('https://shop.example/order-confirmation?id=PG0123456789');
    expect(newsTarget(shown.options.data, 'track')).toBe('https://track.example/1Z');
    expect(newsTarget(shown.options.data, 'unknown')).toBe('https://shop.example/order-confirmation?id=PG0123456789');
  });

  it('shows nothing for a message that is not ours, and never leads a tap off the shop but to tracking', () => {
    expect(readOrderNews(null, ORIGIN)).toBeNull();
    expect(readOrderNews({ notification: { title: 'x', navigate: '/' } }, ORIGIN)).toBeNull();
    expect(readOrderNews({ web_push: 8030, notification: { title: 'x', navigate: 'https://evil.example/' } }, ORIGIN)).toBeNull();
    const shown = readOrderNews(
      {
        web_push: 8030,
        notification: { title: 'x', navigate: '/orders', actions: [{ action: 'a', title: 'A', navigate: 'javascript:1' }] },
      },
      ORIGIN,
    )!;
    expect(shown.options.actions).toEqual([]);
    expect(shown.options.data.navigate).toBe('https://shop.example/orders');
  });

  it('knows a window showing the order', () => {
    expect(showsOrder('https://shop.example/order-confirmation?id=PG0123456789', 'PG0123456789')).toBe(true);
    expect(showsOrder('https://shop.example/order-confirmation?id=PG9999999999', 'PG0123456789')).toBe(false);
    expect(showsOrder('https://shop.example/orders', 'PG0123456789')).toBe(false);
  });
});
