/**
 * POST /api/webhooks/shopify against odd bodies, on each database: a signed delivery we cannot use
 * is acknowledged (200) and recorded, never a 500 (which would make Shopify retry it for hours);
 * an unsigned one is refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signWebhookBody } from '../../../emulators/shopify';
import { testDatabaseKinds } from '../../test/databases';
import { startHarness, type Harness } from '../../test/harness';
import { useTestChain } from '../../test/use-test-chain';

const SECRET = 'integration-test-secret'; // the harness's webhook key
const TOPICS = ['draft_orders/update', 'orders/create', 'orders/fulfilled', 'fulfillments/create'];
const ODD_BODIES = [
  'null',
  '[]',
  '5',
  '"s"',
  'true',
  '{}',
  '{"note_attributes":"x"}',
  '{"note_attributes":[null,5,{"name":"pogs_order_id","value":{}}]}',
  '{"id":{}}',
  '{"status":5}',
  '{"status":"completed","admin_graphql_api_id":{}}',
  '{"order_id":"abc","status":"success"}',
  '{"admin_graphql_api_id":"gid://shopify/Order/1\\u0000"}',
  '{"status":"completed","admin_graphql_api_id":"gid://shopify/DraftOrder/1","note_attributes":[{"name":"pogs_order_id","value":"x\\u0000y"}]}',
  '{"note_attributes":[{"name":"pogs_order_id","value":"not-a-uuid"}]}',
  '{not json',
];

const testChain = useTestChain();

describe.each(testDatabaseKinds)('Shopify webhooks on %s', (kind) => {
  let h: Harness;
  let n = 0;

  beforeAll(async () => {
    h = await startHarness(kind, { chain: testChain.chain });
  });
  afterAll(async () => {
    await h?.close();
  });

  const deliver = (body: string, headers: Record<string, string | undefined> = {}) => {
    const all: Record<string, string | undefined> = {
      'content-type': 'application/json',
      'x-shopify-topic': 'orders/create',
      'x-shopify-webhook-id': `test-${kind}-${++n}`,
      'x-shopify-hmac-sha256': signWebhookBody(body, SECRET),
      ...headers,
    };
    return h.api('/api/webhooks/shopify', {
      method: 'POST',
      headers: Object.fromEntries(Object.entries(all).filter((e): e is [string, string] => e[1] !== undefined)),
      body,
    });
  };

  it.each(TOPICS)('acknowledges signed bodies it cannot use (%s), and records them once', async (topic) => {
    for (const body of ODD_BODIES) {
      const webhookId = `odd-${kind}-${++n}`;
      const res = await deliver(body, { 'x-shopify-topic': topic, 'x-shopify-webhook-id': webhookId });
      expect(res.status, `${topic} ${body}`).toBe(200);
      expect(await res.json()).toMatchObject({ ok: true });
      // A retry of the same delivery is a no-op, not a second failure.
      expect((await deliver(body, { 'x-shopify-topic': topic, 'x-shopify-webhook-id': webhookId })).status).toBe(200);
    }
  });

  it('acknowledges a signed delivery without its topic or id, or with absurd ones', async () => {
    for (const headers of [
      { 'x-shopify-topic': undefined },
      { 'x-shopify-webhook-id': undefined },
      { 'x-shopify-webhook-id': 'x'.repeat(4000) },
      { 'x-shopify-topic': 'y'.repeat(4000) },
    ]) {
      const res = await deliver('{"id":1}', headers);
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ ok: true, ignored: expect.any(String) });
    }
  });

  it('refuses what is not signed with the shop secret, the old emulator constant included', async () => {
    for (const hmac of [undefined, '', 'AAAA', signWebhookBody('{"id":1}', 'local-emulator-client-secret')]) {
      const res = await deliver('{"id":1}', { 'x-shopify-hmac-sha256': hmac });
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ code: 'webhook-unauthorized' });
    }
    expect((await deliver('', {})).status).toBe(401);
  });
});
