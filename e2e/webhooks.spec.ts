import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { expect, test, type Page, type TestInfo } from './fixtures/test';
import { logInAsAdmin } from './fixtures/admin';

// The merchant's webhooks end to end on the tablet (820×1180): an endpoint added in the admin,
// pointing at a receiver this test runs (plain http to loopback, which local mode allows), its
// secret shown once, a catalogue sync's `catalogue.synced` event received, signed (checked with
// the Standard Webhooks library and that secret), seen delivered in the log, and redelivered with
// the same id. Requests a service worker handles cannot be watched, and the admin needs none.
test.use({ serviceWorkers: 'block' });

interface Received {
  id: string;
  timestamp: string;
  signature: string;
  body: string;
}

/** A merchant's system: answers 200 to every POST and keeps what it got. */
async function startReceiver(): Promise<{ url: string; received: Received[]; close: () => Promise<void> }> {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method === 'POST') {
        received.push({
          id: String(req.headers['webhook-id'] ?? ''),
          timestamp: String(req.headers['webhook-timestamp'] ?? ''),
          signature: String(req.headers['webhook-signature'] ?? ''),
          body: Buffer.concat(chunks).toString('utf8'),
        });
      }
      res.writeHead(200, { 'Content-Type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/pogs-events`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Whether the request carries a valid signature by `secret` (throws otherwise), and its body. */
function verified(secret: string, request: Received): { type: string; timestamp: string; data: unknown } {
  const headers = { 'webhook-id': request.id, 'webhook-timestamp': request.timestamp, 'webhook-signature': request.signature };
  return new Webhook(secret).verify(request.body, headers) as { type: string; timestamp: string; data: unknown };
}

/** The screen at 820×1180 and at 390×844 (the page's own full height), back at the tablet's size. */
async function shootBoth(page: Page, testInfo: TestInfo, name: string) {
  await page.screenshot({ path: testInfo.outputPath(`${name}-tablet.png`), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  // No sideways scrolling on the phone.
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
  await page.screenshot({ path: testInfo.outputPath(`${name}-phone.png`), fullPage: true });
  await page.setViewportSize({ width: 820, height: 1180 });
}

test('tablet: add an endpoint, see its secret once, receive a signed catalogue.synced, see it delivered, redeliver it', async ({
  page,
}, testInfo) => {
  test.skip(testInfo.project.name !== 'tablet', 'the tablet project drives the webhooks');
  test.setTimeout(150_000);
  const receiver = await startReceiver();
  try {
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await logInAsAdmin(page);

    // The fourth tab, which fits a phone beside the other three.
    await page.getByTestId('admin-tab-webhooks').click();
    await expect(page).toHaveURL(/\/admin\/webhooks$/);
    await expect(page.getByRole('heading', { name: 'Webhooks', level: 1 })).toBeVisible();
    await expect(page.getByTestId('webhook-add')).toBeEnabled();
    // The e2e server starts with no endpoint: the empty list says what webhooks are for.
    await expect(page.getByTestId('webhooks-empty')).toContainText('sends your own systems a signed message');

    // Add: the form says what is missing at the field before anything is sent.
    await page.getByTestId('webhook-add').click();
    const dialog = page.getByTestId('webhook-endpoint-dialog');
    await expect(dialog.getByRole('heading', { name: 'Add endpoint' })).toBeVisible();
    await expect(dialog.getByRole('checkbox')).toHaveCount(7);
    await page.getByTestId('webhook-url').fill('example.com/hooks');
    await page.getByTestId('webhook-save').click();
    await expect(page.getByTestId('webhook-url-problem')).toHaveText('The URL is not a full address: it starts with https://');
    await expect(page.getByTestId('webhook-url')).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByTestId('webhook-events-problem')).toHaveText('Choose at least one event');

    await page.getByTestId('webhook-url').fill(receiver.url);
    await page.getByTestId('webhook-description').fill('E2E receiver');
    await page.getByTestId('webhook-event-catalogue.synced').check();
    // Each problem goes once its field is changed.
    await expect(page.getByTestId('webhook-url-problem')).toBeHidden();
    await expect(page.getByTestId('webhook-events-problem')).toBeHidden();
    await shootBoth(page, testInfo, 'webhooks-add-dialog');
    await page.getByTestId('webhook-save').click();

    // The secret, once: the whole value, Copy, and the line that it will not be shown again.
    const secretText = page.getByTestId('webhook-secret');
    await expect(secretText).toHaveText(/^whsec_[A-Za-z0-9+/=]+$/);
    const secret = (await secretText.innerText()).trim();
    await expect(dialog).toContainText('you will not see it again');
    await page.getByTestId('webhook-secret-copy').click();
    await expect(page.getByTestId('webhook-secret-copy')).toContainText('Secret copied');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    await page.getByTestId('webhook-secret-done').click();
    await expect(dialog).toBeHidden();

    const card = page.getByTestId('webhook-endpoint').filter({ hasText: receiver.url });
    await expect(card).toHaveCount(1);
    await expect(card.getByTestId('webhook-endpoint-state')).toHaveText('Enabled');
    await expect(card).toContainText('catalogue.synced');
    await expect(card).toContainText('E2E receiver');
    // Never shown again: not on the list, not after a reload.
    await page.reload();
    await expect(card).toBeVisible();
    expect(await page.content()).not.toContain(secret);
    await shootBoth(page, testInfo, 'webhooks-list');

    // Edit: the form opens with what the endpoint has; the change shows on the list.
    await card.getByTestId('webhook-endpoint-edit').click();
    await expect(dialog.getByRole('heading', { name: 'Edit endpoint' })).toBeVisible();
    await expect(page.getByTestId('webhook-url')).toHaveValue(receiver.url);
    await expect(page.getByTestId('webhook-event-catalogue.synced')).toBeChecked();
    await expect(page.getByTestId('webhook-event-order.paid')).not.toBeChecked();
    await page.getByTestId('webhook-description').fill('E2E receiver, edited');
    await page.getByTestId('webhook-save').click();
    await expect(dialog).toBeHidden();
    await expect(card).toContainText('E2E receiver, edited');

    // An event: a catalogue sync from the products page.
    const before = receiver.received.length;
    await page.getByTestId('admin-tab-products').click();
    await expect(page.getByRole('heading', { name: 'Product Management' })).toBeVisible();
    await page.getByTestId('sync-button').click();
    await expect
      .poll(() => receiver.received.slice(before).some((r) => JSON.parse(r.body).type === 'catalogue.synced'), { timeout: 60_000 })
      .toBe(true);
    const first = receiver.received.slice(before).find((r) => JSON.parse(r.body).type === 'catalogue.synced')!;
    expect(first.id).toMatch(/^msg_/);
    // Signed with the secret the admin was shown, as the Standard Webhooks library checks it.
    expect(verified(secret, first)).toMatchObject({ type: 'catalogue.synced' });
    expect(() => verified(`whsec_${Buffer.from('not the secret, 32 bytes long!!').toString('base64')}`, first)).toThrow();

    // The log: that event, delivered.
    await page.getByTestId('admin-tab-webhooks').click();
    await card.getByTestId('webhook-endpoint-log').click();
    await expect(page.getByRole('heading', { name: 'Delivery log' })).toBeVisible();
    const row = page.locator(`[data-testid="webhook-delivery"][data-event-id="${first.id}"]`);
    await expect(row).toHaveAttribute('data-status', 'delivered', { timeout: 30_000 });
    await expect(row).toContainText('catalogue.synced');
    await expect(row).toContainText('HTTP 200');
    await shootBoth(page, testInfo, 'webhooks-log');

    // The filter: the delivered one is among the delivered, not among the failed.
    await page.getByTestId('webhook-filter-failed').click();
    await expect(page).toHaveURL(/status=failed/);
    await expect(row).toHaveCount(0);
    await page.getByTestId('webhook-filter-delivered').click();
    await expect(row).toBeVisible();
    await page.getByTestId('webhook-filter-all').click();

    // Opened: the payload as it was sent, its attempt, and Redeliver.
    await row.click();
    const sheet = page.getByTestId('webhook-delivery-sheet');
    await expect(sheet.getByTestId('webhook-payload')).toContainText('"type": "catalogue.synced"');
    expect(JSON.parse(await sheet.getByTestId('webhook-payload').innerText())).toEqual(JSON.parse(first.body));
    await expect(sheet.getByTestId('webhook-attempt').first()).toContainText('HTTP 200');
    const sentBefore = receiver.received.filter((r) => r.id === first.id).length;
    await sheet.getByTestId('webhook-redeliver').click();
    await expect(sheet.getByTestId('webhook-redeliver-result')).toContainText('sent again');
    // The same event, same id and body, signed again.
    await expect.poll(() => receiver.received.filter((r) => r.id === first.id).length, { timeout: 60_000 }).toBeGreaterThan(sentBefore);
    const again = receiver.received.filter((r) => r.id === first.id).at(-1)!;
    expect(again.body).toBe(first.body);
    expect(verified(secret, again)).toMatchObject({ type: 'catalogue.synced' });
    await expect(sheet.getByTestId('webhook-delivery-sheet-status')).toHaveText('Delivered', { timeout: 30_000 });
    await page.keyboard.press('Escape');
    await expect(sheet).toBeHidden();

    // 'Redeliver failed since…': nothing failed, and the answer says so.
    await page.getByTestId('webhook-redeliver-failed-submit').click();
    await expect(page.getByTestId('webhook-redeliver-failed-result')).toHaveText('No failed deliveries since then: nothing to send again.');

    // Rotate: asked first (the old secret keeps working for 24 hours), then the new secret, once.
    await page.getByTestId('webhook-endpoint-rotate').click();
    const rotateDialog = page.getByTestId('webhook-rotate-dialog');
    await expect(rotateDialog).toContainText('The old one keeps working for 24 hours');
    await page.getByTestId('webhook-rotate-confirm').click();
    await expect(rotateDialog.getByTestId('webhook-secret')).toHaveText(/^whsec_/);
    const newSecret = (await rotateDialog.getByTestId('webhook-secret').innerText()).trim();
    expect(newSecret).not.toBe(secret);
    await expect(rotateDialog).toContainText('you will not see it again');
    await page.getByTestId('webhook-secret-done').click();
    await expect(rotateDialog).toBeHidden();
    // Sent again now, the event carries both signatures: each secret verifies it.
    const sentBeforeRotation = receiver.received.filter((r) => r.id === first.id).length;
    await row.click();
    await sheet.getByTestId('webhook-redeliver').click();
    await expect
      .poll(() => receiver.received.filter((r) => r.id === first.id).length, { timeout: 60_000 })
      .toBeGreaterThan(sentBeforeRotation);
    const afterRotation = receiver.received.filter((r) => r.id === first.id).at(-1)!;
    expect(verified(newSecret, afterRotation)).toMatchObject({ type: 'catalogue.synced' });
    expect(verified(secret, afterRotation)).toMatchObject({ type: 'catalogue.synced' });
    await page.keyboard.press('Escape');
    await expect(sheet).toBeHidden();

    // Turned off, so the specs after this one send it nothing.
    await page.getByTestId('webhook-endpoint-toggle').click();
    await expect(page.getByTestId('webhook-endpoint-state')).toHaveText('Turned off');
    await expect(page.getByTestId('webhook-endpoint-explanation')).toContainText('Turn it on to send again');
  } finally {
    await receiver.close();
  }
});
