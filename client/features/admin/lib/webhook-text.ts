import {
  WEBHOOK_EVENT_TYPES,
  webhookDeliveryStatusSchema,
  type WebhookDelivery,
  type WebhookDeliveryStatus,
  type WebhookEndpoint,
  type WebhookEventType,
} from '../../../../common/outgoing-webhooks';
import { relativeTime } from '../../../lib/relative-time';

/** Each event an endpoint can choose, with what it means in a line. */
const EVENT_MEANINGS: Readonly<Record<WebhookEventType, string>> = Object.freeze({
  'order.paid': 'A payment for an order arrived in full.',
  'order.confirmed': 'The order is confirmed and handed to Shopify.',
  'order.shipped': 'The order was shipped.',
  'order.refunded': 'Money went back to the buyer.',
  'payment.needs_attention': 'A transfer needs a person (Payments desk).',
  'payment.refund_recorded': 'A refund was recorded on the Payments desk.',
  'catalogue.synced': 'The products were read again from Shopify.',
});

/** The event checkboxes, in the order the admin sees them. */
export const WEBHOOK_EVENT_CHOICES: readonly { type: WebhookEventType; meaning: string }[] = Object.freeze(
  WEBHOOK_EVENT_TYPES.map((type) => ({ type, meaning: EVENT_MEANINGS[type] })),
);

/** An endpoint's state, as the list shows it: a short label, its badge's look, and what it means. */
export interface EndpointState {
  kind: 'enabled' | 'failing' | 'off' | 'disabled-failing';
  label: string;
  tone: 'success' | 'warning' | 'secondary' | 'destructive';
  /** A sentence or two: what happens to events, and how to turn it back on; null when all is well. */
  explanation: string | null;
}

/** What the admin reads about an endpoint's state (`now` is a parameter so the rule stays pure). */
export function endpointState(
  endpoint: Pick<WebhookEndpoint, 'enabled' | 'disabledReason' | 'disabledAt' | 'failingSince'>,
  now: Date | number = Date.now(),
): EndpointState {
  if (endpoint.enabled && endpoint.failingSince) {
    return {
      kind: 'failing',
      label: 'Failing',
      tone: 'warning',
      explanation: `Every attempt has failed since ${dateTimeText(endpoint.failingSince)} (${relativeTime(endpoint.failingSince, now)}). After a day of failures the shop stops sending to it.`,
    };
  }
  if (endpoint.enabled) return { kind: 'enabled', label: 'Enabled', tone: 'success', explanation: null };
  if (endpoint.disabledReason === 'failing') {
    const since = endpoint.disabledAt ? ` on ${dateTimeText(endpoint.disabledAt)}` : '';
    return {
      kind: 'disabled-failing',
      label: 'Disabled: kept failing',
      tone: 'destructive',
      explanation: `Every delivery failed for a day, so the shop stopped sending to it${since}. New events are not sent. Fix the endpoint, turn it on, then use "Redeliver failed" for what it missed.`,
    };
  }
  return {
    kind: 'off',
    label: 'Turned off',
    tone: 'secondary',
    explanation: 'Turned off by an admin: new events are not sent to it. Turn it on to send again.',
  };
}

/** How many endpoints the shop stopped sending to because they kept failing: the admin tab's badge. */
export function failingDisabledCount(endpoints: readonly Pick<WebhookEndpoint, 'enabled' | 'disabledReason'>[] | undefined): number {
  return endpoints?.filter((e) => !e.enabled && e.disabledReason === 'failing').length ?? 0;
}

/** A date and time in the admin's own locale, e.g. '28 Nov 2026, 09:00'; the text itself when it is no date. */
export function dateTimeText(iso: string, locale?: string): string {
  const date = new Date(iso);
  if (!Number.isFinite(date.getTime())) return iso;
  return date.toLocaleString(locale, { dateStyle: 'medium', timeStyle: 'short' });
}

const STATUS_LABELS: Readonly<Record<WebhookDeliveryStatus, string>> = Object.freeze({
  pending: 'Pending',
  delivered: 'Delivered',
  failed: 'Failed',
});

/** The log's status filter chips: All, then each status. */
export const DELIVERY_FILTERS: readonly { status: WebhookDeliveryStatus | null; label: string }[] = Object.freeze([
  { status: null, label: 'All' },
  ...webhookDeliveryStatusSchema.options.map((status) => ({ status, label: STATUS_LABELS[status] })),
]);

/** A delivery status's label; one this client does not know (a newer server) reads as its own word. */
export function deliveryStatusLabel(status: string): string {
  if (Object.hasOwn(STATUS_LABELS, status)) return STATUS_LABELS[status as WebhookDeliveryStatus];
  return status ? status.charAt(0).toUpperCase() + status.slice(1) : 'Unknown';
}

export function deliveryStatusTone(status: string): 'success' | 'warning' | 'destructive' | 'secondary' {
  if (status === 'delivered') return 'success';
  if (status === 'pending') return 'warning';
  if (status === 'failed') return 'destructive';
  return 'secondary';
}

/** The status filter named by the log's address (`?status=failed`); anything else is all. */
export function readDeliveryFilter(params: URLSearchParams): WebhookDeliveryStatus | null {
  const status = webhookDeliveryStatusSchema.safeParse(params.get('status'));
  return status.success ? status.data : null;
}

/** The log's address parameters for a filter (the inverse of readDeliveryFilter), keeping the others. */
export function deliveryFilterParams(status: WebhookDeliveryStatus | null, current = new URLSearchParams()): URLSearchParams {
  const next = new URLSearchParams(current);
  if (status) next.set('status', status);
  else next.delete('status');
  return next;
}

/** GET /api/admin/webhooks/:id/deliveries for a filter, after the page `before` ended. */
export function deliveriesPath(endpointId: string, status: WebhookDeliveryStatus | null, before: string | null = null): string {
  const query = new URLSearchParams();
  if (status) query.set('status', status);
  if (before) query.set('before', before);
  const text = query.toString();
  return `/api/admin/webhooks/${encodeURIComponent(endpointId)}/deliveries${text ? `?${text}` : ''}`;
}

/** The pages read so far as one list, each delivery once (one that moved to a later page while the earlier were read again). */
export function mergeDeliveryPages(
  pages: readonly { deliveries: readonly WebhookDelivery[] }[] | undefined,
): WebhookDelivery[] | undefined {
  if (!pages) return undefined;
  const seen = new Set<string>();
  const list: WebhookDelivery[] = [];
  for (const page of pages) {
    for (const delivery of page.deliveries) {
      if (seen.has(delivery.id)) continue;
      seen.add(delivery.id);
      list.push(delivery);
    }
  }
  return list;
}

/** How often the log is read again: soon while a shown delivery waits, else every half minute. */
export function deliveryLogRefreshMs(deliveries: readonly Pick<WebhookDelivery, 'status'>[] | undefined): number {
  return deliveries?.some((d) => d.status === 'pending') ? 3_000 : 30_000;
}

/** A delivery's last answer in a few words: 'HTTP 200', 'No answer'. */
export function responseText(status: number | null): string {
  return status === null ? 'No answer' : `HTTP ${status}`;
}

/** '1 attempt', '3 attempts'. */
export function attemptsText(n: number): string {
  return `${n} ${n === 1 ? 'attempt' : 'attempts'}`;
}

/** The payload as the endpoint receives it, indented for reading; the text itself when it is not JSON. */
export function prettyPayload(payload: string | null): string | null {
  if (payload === null) return null;
  try {
    return JSON.stringify(JSON.parse(payload), null, 2);
  } catch {
    return payload;
  }
}

/** The answer of 'Redeliver failed since…', in a sentence. */
export function redeliveredText(queued: number): string {
  if (queued === 0) return 'No failed deliveries since then: nothing to send again.';
  return `${queued} failed ${queued === 1 ? 'delivery' : 'deliveries'} queued to be sent again.`;
}

/**
 * The value of a `datetime-local` input (the admin's own time zone) as the ISO time the server
 * reads; null when it is empty or no date.
 */
export function localInputToIso(value: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?$/.test(value)) return null;
  const date = new Date(value);
  return Number.isFinite(date.getTime()) ? date.toISOString() : null;
}

/** A time as a `datetime-local` input's value, in the time zone the page runs in, to the minute. */
export function isoToLocalInput(at: Date | string | number): string {
  const date = new Date(at);
  if (!Number.isFinite(date.getTime())) return '';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** Where 'Redeliver failed since…' starts: when the endpoint began failing, else a day ago. */
export function defaultRedeliverSince(endpoint: Pick<WebhookEndpoint, 'failingSince' | 'disabledAt'>, now: number = Date.now()): string {
  return isoToLocalInput(endpoint.failingSince ?? endpoint.disabledAt ?? now - 24 * 60 * 60_000);
}

/** The fields of the endpoint form, and the form as a whole. */
export type EndpointField = 'url' | 'description' | 'events' | 'form';

/**
 * The server's refusal, split onto the fields it is about. A refused body reads
 * `url: the URL must be…; events: choose at least one event. Expected {…}` (one issue per field,
 * named first); any other refusal (an address the shop will not call, too many endpoints) goes to
 * the field its message names, else to the form.
 */
export function errorsByField(message: string): Partial<Record<EndpointField, string>> {
  const text = message.replace(/\.\s*Expected [\s\S]*$/, '').trim();
  const out: Partial<Record<EndpointField, string>> = {};
  const add = (field: EndpointField, part: string) => {
    const sentence = part.trim();
    if (!sentence) return;
    out[field] = out[field] ? `${out[field]}; ${sentence}` : sentence;
  };
  for (const issue of text.split(/;\s+/)) {
    const named = /^(url|description|events)(?:\.\d+)?:\s*([\s\S]*)$/.exec(issue);
    if (named) add(named[1] as EndpointField, named[2]);
    else if (/\b(url|address|https?|host)\b/i.test(issue)) add('url', issue);
    else if (/\bevents?\b/i.test(issue)) add('events', issue);
    else if (/\bdescription\b/i.test(issue)) add('description', issue);
    else add('form', issue);
  }
  const first = (s: string | undefined) => (s ? s.charAt(0).toUpperCase() + s.slice(1) : s);
  for (const key of Object.keys(out) as EndpointField[]) out[key] = first(out[key]);
  return out;
}

/** The form's events in the contract's order, each once. */
export function orderedEvents(chosen: Iterable<string>): WebhookEventType[] {
  const set = new Set(chosen);
  return WEBHOOK_EVENT_TYPES.filter((type) => set.has(type));
}
