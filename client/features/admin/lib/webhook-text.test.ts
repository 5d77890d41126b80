import { describe, expect, it } from 'vitest';
import { createWebhookEndpointSchema, WEBHOOK_EVENT_TYPES, type WebhookDelivery } from '../../../../common/outgoing-webhooks';
import {
  attemptsText,
  defaultRedeliverSince,
  deliveriesPath,
  deliveryFilterParams,
  deliveryLogRefreshMs,
  deliveryStatusLabel,
  endpointState,
  errorsByField,
  failingDisabledCount,
  isoToLocalInput,
  localInputToIso,
  mergeDeliveryPages,
  orderedEvents,
  prettyPayload,
  readDeliveryFilter,
  redeliveredText,
  responseText,
  WEBHOOK_EVENT_CHOICES,
} from './webhook-text';

const NOW = Date.parse('2026-11-29T12:00:00Z');

function delivery(id: string, status: WebhookDelivery['status'] = 'delivered'): WebhookDelivery {
  return {
    id,
    eventId: `msg_${id}`,
    eventType: 'catalogue.synced',
    status,
    attempts: 1,
    createdAt: '2026-11-29T11:00:00Z',
    lastAttemptAt: null,
    nextAttemptAt: null,
    lastResponseStatus: null,
    lastError: null,
    deliveredAt: null,
  };
}

describe("an endpoint's state", () => {
  const base = { enabled: true, disabledReason: null, disabledAt: null, failingSince: null } as const;

  it('is Enabled, with nothing to explain, while it answers', () => {
    expect(endpointState(base, NOW)).toEqual({ kind: 'enabled', label: 'Enabled', tone: 'success', explanation: null });
  });

  it('warns while every attempt fails, saying since when and what happens after a day', () => {
    const state = endpointState({ ...base, failingSince: '2026-11-29T09:00:00Z' }, NOW);
    expect(state.kind).toBe('failing');
    expect(state.explanation).toContain('3 hours ago');
    expect(state.explanation).toContain('After a day of failures');
  });

  it('tells a disabled-after-failing endpoint apart from one an admin turned off, and how to turn each back on', () => {
    const failing = endpointState({ ...base, enabled: false, disabledReason: 'failing', disabledAt: '2026-11-28T09:00:00Z' }, NOW);
    expect(failing).toMatchObject({ kind: 'disabled-failing', tone: 'destructive' });
    expect(failing.explanation).toMatch(/failed for a day/);
    expect(failing.explanation).toMatch(/turn it on/);
    const off = endpointState({ ...base, enabled: false, disabledReason: 'admin', disabledAt: '2026-11-28T09:00:00Z' }, NOW);
    expect(off).toMatchObject({ kind: 'off', label: 'Turned off', tone: 'secondary' });
    expect(off.explanation).toMatch(/Turn it on/);
    // A disabled endpoint is not "failing" even when it failed before it was turned off.
    expect(endpointState({ ...base, enabled: false, disabledReason: 'admin', failingSince: '2026-11-28T09:00:00Z' }, NOW).kind).toBe('off');
  });

  it("counts only the endpoints the shop turned off for failing, for the tab's badge", () => {
    expect(failingDisabledCount(undefined)).toBe(0);
    expect(
      failingDisabledCount([
        { enabled: false, disabledReason: 'failing' },
        { enabled: false, disabledReason: 'admin' },
        { enabled: true, disabledReason: null },
        { enabled: false, disabledReason: 'failing' },
      ]),
    ).toBe(2);
  });
});

describe('the event choices', () => {
  it('are all seven, in the contract order, each with a one-line meaning', () => {
    expect(WEBHOOK_EVENT_CHOICES.map((c) => c.type)).toEqual([...WEBHOOK_EVENT_TYPES]);
    for (const choice of WEBHOOK_EVENT_CHOICES) {
      expect(choice.meaning.length).toBeGreaterThan(5);
      expect(choice.meaning).not.toContain('\n');
    }
  });

  it('are sent in the contract order, each once, whatever the order they were ticked in', () => {
    expect(orderedEvents(['catalogue.synced', 'order.paid', 'order.paid', 'unknown'])).toEqual(['order.paid', 'catalogue.synced']);
  });
});

describe("the delivery log's filter and cursor", () => {
  it('reads the status from the address, ignoring anything unknown', () => {
    expect(readDeliveryFilter(new URLSearchParams('status=failed'))).toBe('failed');
    expect(readDeliveryFilter(new URLSearchParams('status=lost'))).toBeNull();
    expect(readDeliveryFilter(new URLSearchParams())).toBeNull();
  });

  it('writes the status back, keeping other parameters, and All removes it', () => {
    expect(deliveryFilterParams('pending', new URLSearchParams('x=1')).toString()).toBe('x=1&status=pending');
    expect(deliveryFilterParams(null, new URLSearchParams('status=failed&x=1')).toString()).toBe('x=1');
    for (const status of ['pending', 'delivered', 'failed'] as const) expect(readDeliveryFilter(deliveryFilterParams(status))).toBe(status);
  });

  it("asks the server for a page with the filter and the previous page's cursor", () => {
    expect(deliveriesPath('7', null)).toBe('/api/admin/webhooks/7/deliveries');
    expect(deliveriesPath('7', 'failed')).toBe('/api/admin/webhooks/7/deliveries?status=failed');
    expect(deliveriesPath('7', null, '123')).toBe('/api/admin/webhooks/7/deliveries?before=123');
    expect(deliveriesPath('7', 'pending', '99')).toBe('/api/admin/webhooks/7/deliveries?status=pending&before=99');
    expect(deliveriesPath('a/b', null)).toBe('/api/admin/webhooks/a%2Fb/deliveries');
  });

  it('shows each delivery once, in page order, when pages overlap', () => {
    expect(mergeDeliveryPages(undefined)).toBeUndefined();
    const merged = mergeDeliveryPages([{ deliveries: [delivery('3'), delivery('2')] }, { deliveries: [delivery('2'), delivery('1')] }]);
    expect(merged?.map((d) => d.id)).toEqual(['3', '2', '1']);
  });

  it('is read again soon while a delivery waits, and slowly otherwise', () => {
    expect(deliveryLogRefreshMs([delivery('1'), delivery('2', 'pending')])).toBeLessThan(deliveryLogRefreshMs([delivery('1')]));
    expect(deliveryLogRefreshMs(undefined)).toBe(deliveryLogRefreshMs([]));
  });
});

describe("a delivery's texts", () => {
  it('names statuses, answers and attempts plainly', () => {
    expect(deliveryStatusLabel('delivered')).toBe('Delivered');
    expect(deliveryStatusLabel('parked')).toBe('Parked');
    expect(responseText(200)).toBe('HTTP 200');
    expect(responseText(null)).toBe('No answer');
    expect(attemptsText(1)).toBe('1 attempt');
    expect(attemptsText(0)).toBe('0 attempts');
  });

  it('pretty-prints a JSON payload, and shows any other text as it is', () => {
    expect(prettyPayload('{"type":"order.paid","data":{"amount":"1.5"}}')).toBe(
      '{\n  "type": "order.paid",\n  "data": {\n    "amount": "1.5"\n  }\n}',
    );
    expect(prettyPayload('not json')).toBe('not json');
    expect(prettyPayload(null)).toBeNull();
  });

  it("says how many failed deliveries 'Redeliver failed' queued", () => {
    expect(redeliveredText(0)).toMatch(/nothing to send again/);
    expect(redeliveredText(1)).toBe('1 failed delivery queued to be sent again.');
    expect(redeliveredText(12)).toBe('12 failed deliveries queued to be sent again.');
  });
});

describe("'Redeliver failed since…' time", () => {
  it("turns the input's local time into the ISO time the contract takes, and back", () => {
    const iso = localInputToIso('2026-11-28T09:30');
    expect(iso).not.toBeNull();
    expect(isoToLocalInput(iso!)).toBe('2026-11-28T09:30');
    expect(new Date(iso!).getTime()).toBe(new Date(2026, 10, 28, 9, 30).getTime());
  });

  it('refuses an empty or malformed value', () => {
    expect(localInputToIso('')).toBeNull();
    expect(localInputToIso('yesterday')).toBeNull();
    expect(localInputToIso('2026-13-45T99:99')).toBeNull();
    expect(isoToLocalInput('nope')).toBe('');
  });

  it('starts when the endpoint began failing, else a day ago', () => {
    expect(defaultRedeliverSince({ failingSince: '2026-11-28T09:30:00Z', disabledAt: null }, NOW)).toBe(
      isoToLocalInput('2026-11-28T09:30:00Z'),
    );
    expect(defaultRedeliverSince({ failingSince: null, disabledAt: null }, NOW)).toBe(isoToLocalInput(NOW - 24 * 3600_000));
  });
});

describe("the server's refusal, at the field it is about", () => {
  // The server answers a body its schema refuses as "path: message; path: message. Expected {…}".
  const refusal = (body: unknown) => {
    const result = createWebhookEndpointSchema.safeParse(body);
    if (result.success) throw new Error('the schema took it');
    const issues = result.error.issues.map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message)).join('; ');
    return `${issues}. Expected {"url":"https://…","events":["order.paid"]}`;
  };

  it("puts each of the contract's messages at its own field, without the example", () => {
    const fields = errorsByField(refusal({ url: 'not a url', description: 'x'.repeat(201), events: [] }));
    expect(fields.url).toBe('The URL is not a full address: it starts with https://');
    expect(fields.description).toBe('The description must be at most 200 characters');
    expect(fields.events).toBe('Choose at least one event');
    expect(fields.form).toBeUndefined();
  });

  it('sends an unknown event name to the events', () => {
    expect(errorsByField(refusal({ url: 'https://a.example', events: ['order.lost'] })).events).toMatch(/^An event is one of order.paid/);
  });

  it('puts other refusals where their words point, else on the form', () => {
    expect(errorsByField('The shop does not send to private addresses: use a public https URL').url).toMatch(/private addresses/);
    expect(errorsByField('At most 20 endpoints: delete one first').form).toBe('At most 20 endpoints: delete one first');
  });
});
