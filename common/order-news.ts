/**
 * Order news (docs/order-updates.md): what a shopper's device shows when one of their orders is
 * paid, confirmed, shipped or refunded. The server builds the push message here; the service
 * worker (client/sw/order-news-sw.ts) reads it back here, so both sides agree on one shape.
 *
 * The message is the Declarative Web Push format (`{"web_push": 8030, "notification": {…}}`):
 * a browser that knows it shows the notification by itself; any other hands the JSON to the
 * service worker, which shows the same notification from it.
 */

/** The statuses a shopper hears about, each once per order. */
export const ORDER_NEWS_STATUSES = ['paid', 'confirmed', 'shipped', 'refunded'] as const;
export type OrderNewsStatus = (typeof ORDER_NEWS_STATUSES)[number];

export function isOrderNewsStatus(status: string): status is OrderNewsStatus {
  return (ORDER_NEWS_STATUSES as readonly string[]).includes(status);
}

/** What the news of one status change says, from the order as it is when it is sent. */
export interface OrderNewsFacts {
  orderId: string;
  status: OrderNewsStatus;
  /** The parcel's tracking page (shipped), when Shopify named one. */
  trackingUrl: string | null;
  /** Paid after its items were gone: the shop restocks or refunds. */
  onHold: boolean;
}

/** `new URL(s, base)`, or null when it is not one (URL.canParse is newer than some phones' browsers). */
function parseUrl(s: string, base?: string): URL | null {
  try {
    return new URL(s, base);
  } catch {
    return null;
  }
}

/** The longest tracking link a message carries (a push message holds about 4 KB in all). */
export const MAX_TRACKING_URL = 500;

/** The page of one order in the shop (the confirmation page, which any of the buyer's sessions may open). */
export function orderPagePath(orderId: string): string {
  return `/order-confirmation?id=${encodeURIComponent(orderId)}`;
}

/** The notification's tag and the push message's Topic: a newer status replaces an older one of the same order. */
export function orderNewsTag(orderId: string): string {
  return `order-${orderId}`;
}

/** A tracking link worth showing: http(s), short enough for a push message. */
export function usableTrackingUrl(url: string | null | undefined): string | null {
  const parsed = url && url.length <= MAX_TRACKING_URL ? parseUrl(url) : null;
  return parsed && /^https?:$/.test(parsed.protocol) ? url! : null;
}

/** The title and body: plain and short. */
export function orderNewsText(f: OrderNewsFacts): { title: string; body: string } {
  const order = `Order ${f.orderId}`;
  switch (f.status) {
    case 'paid':
      return f.onHold
        ? { title: `${order} is paid`, body: 'Your payment arrived after the items sold out. The shop will restock or refund you.' }
        : { title: `${order} is paid`, body: 'Add your shipping details so the shop can send it.' };
    case 'confirmed':
      return { title: `${order} is confirmed`, body: 'The shop has your shipping details and is getting it ready.' };
    case 'shipped': {
      const tracking = usableTrackingUrl(f.trackingUrl);
      return { title: `${order} has shipped`, body: tracking ? `Track it: ${tracking}` : 'It is on its way.' };
    }
    case 'refunded':
      return { title: `${order} was refunded`, body: 'Your payment went back to your wallet.' };
  }
}

/** One action button of a notification: its title and where it leads. */
export interface NewsAction {
  action: string;
  title: string;
  navigate: string;
}

/** The push message's JSON (Declarative Web Push), plus `order` for the service worker. */
export interface OrderNewsMessage {
  web_push: 8030;
  notification: {
    title: string;
    body: string;
    /** Where a tap leads: the order's page. */
    navigate: string;
    tag: string;
    lang: 'en';
    dir: 'ltr';
    icon: string;
    actions?: NewsAction[];
  };
  order: { id: string; status: OrderNewsStatus };
}

/** The message for `f`, its links absolute on `origin` (the shop's public URL). */
export function orderNewsMessage(f: OrderNewsFacts, origin: string): OrderNewsMessage {
  const { title, body } = orderNewsText(f);
  const tracking = f.status === 'shipped' ? usableTrackingUrl(f.trackingUrl) : null;
  return {
    web_push: 8030,
    notification: {
      title,
      body,
      navigate: new URL(orderPagePath(f.orderId), origin).href,
      tag: orderNewsTag(f.orderId),
      lang: 'en',
      dir: 'ltr',
      icon: new URL('/icons/icon-192.png', origin).href,
      ...(tracking ? { actions: [{ action: 'track', title: 'Track parcel', navigate: tracking }] } : {}),
    },
    order: { id: f.orderId, status: f.status },
  };
}

/** What the service worker shows for a message: `showNotification(title, options)`. */
export interface ShownNews {
  title: string;
  options: {
    body: string;
    tag: string;
    lang: string;
    dir: 'ltr';
    icon?: string;
    /** Read back by notificationclick. */
    data: { navigate: string; orderId: string | null; actions: Record<string, string> };
    actions: Array<{ action: string; title: string }>;
  };
}

const str = (v: unknown, max: number): string | null => (typeof v === 'string' && v.length > 0 && v.length <= max ? v : null);
const sameOriginUrl = (v: unknown, origin: string): string | null => {
  const s = str(v, 2048);
  const url = s ? parseUrl(s, origin) : null;
  return url && url.origin === origin ? url.href : null;
};
const webUrl = (v: unknown): string | null => {
  const s = str(v, 2048);
  const url = s ? parseUrl(s) : null;
  return url && /^https?:$/.test(url.protocol) ? s : null;
};

/**
 * The notification a push message asks for, or null when it is not one of ours (then nothing is
 * shown from it). A tap may only lead to the shop's own pages (`origin`), a tracking action to
 * any http(s) page.
 */
export function readOrderNews(json: unknown, origin: string): ShownNews | null {
  if (typeof json !== 'object' || json === null) return null;
  const msg = json as { web_push?: unknown; notification?: Record<string, unknown>; order?: { id?: unknown } };
  const n = msg.notification;
  if (msg.web_push !== 8030 || typeof n !== 'object' || n === null) return null;
  const title = str(n.title, 200);
  const navigate = sameOriginUrl(n.navigate, origin);
  if (!title || !navigate) return null;
  const actions = (Array.isArray(n.actions) ? n.actions : []).flatMap((a: unknown) => {
    const { action, title: label, navigate: to } = (a ?? {}) as Record<string, unknown>;
    const name = str(action, 50);
    const text = str(label, 50);
    const url = webUrl(to);
    return name && text && url ? [{ action: name, title: text, navigate: url }] : [];
  });
  const orderId = str(msg.order?.id, 40);
  return {
    title,
    options: {
      body: str(n.body, 1000) ?? '',
      tag: str(n.tag, 100) ?? (orderId ? orderNewsTag(orderId) : 'order-news'),
      lang: 'en',
      dir: 'ltr',
      ...(sameOriginUrl(n.icon, origin) ? { icon: sameOriginUrl(n.icon, origin)! } : {}),
      data: { navigate, orderId, actions: Object.fromEntries(actions.map((a) => [a.action, a.navigate])) },
      actions: actions.map(({ action, title: label }) => ({ action, title: label })),
    },
  };
}

/** Where a tap on the notification (or on one of its actions) leads. */
export function newsTarget(data: unknown, action: string): string | null {
  if (typeof data !== 'object' || data === null) return null;
  const d = data as { navigate?: unknown; actions?: Record<string, unknown> };
  const fromAction = action && d.actions && typeof d.actions[action] === 'string' ? (d.actions[action] as string) : null;
  return fromAction ?? (typeof d.navigate === 'string' ? d.navigate : null);
}

/** Whether a window at `url` shows order `orderId` (its confirmation page), so the news need not be shown there. */
export function showsOrder(url: string, orderId: string): boolean {
  const u = parseUrl(url);
  return u !== null && u.pathname === '/order-confirmation' && u.searchParams.get('id') === orderId;
}
