import { AxeBuilder } from '@axe-core/playwright';
import { KOINLY_COLUMNS, LEDGER_COLUMNS } from '../common/books';
import { logInAsAdmin } from './fixtures/admin';
import { expect, test } from './fixtures/test';

/**
 * The admin's export dialog offers the three files for one range (docs/books.md): each link asks
 * the server for its file, the books' files answer with their headers, a range the server would
 * refuse leaves nothing to download; on a tablet and a phone, with a screenshot of each.
 */
test('the export dialog offers the payments, Koinly and the order ledger for one range', async ({ page }, testInfo) => {
  test.skip(testInfo.project.name !== 'phone', 'one run sets both screen sizes');
  await page.setViewportSize({ width: 820, height: 1180 });
  await logInAsAdmin(page);
  await page.getByTestId('admin-tab-payments').click();
  await page.getByTestId('export-button').click();
  const dialog = page.getByTestId('export-dialog');
  await expect(dialog.getByRole('heading', { name: 'Export' })).toBeVisible();
  await dialog.getByTestId('export-from').fill('2026-01-01');
  await dialog.getByTestId('export-to').fill('2026-03-31');
  const range = 'from=2026-01-01&to=2026-03-31';
  await expect(dialog.getByTestId('export-download')).toHaveAttribute('href', `/api/admin/payments/export.csv?${range}`);
  await expect(dialog.getByTestId('export-download-koinly')).toHaveAttribute('href', `/api/admin/books/koinly.csv?${range}`);
  await expect(dialog.getByTestId('export-download-ledger')).toHaveAttribute('href', `/api/admin/books/ledger.csv?${range}`);
  await expect(dialog.getByRole('link', { name: 'Download Koinly (tax tool)' })).toHaveAttribute(
    'download',
    'koinly-2026-01-01-to-2026-03-31.csv',
  );

  // What each link brings, with the admin's session (a stranger's is the integration tests').
  for (const [path, columns] of [
    ['/api/admin/books/koinly.csv', KOINLY_COLUMNS],
    ['/api/admin/books/ledger.csv', LEDGER_COLUMNS],
  ] as const) {
    const res = await page.request.get(`${path}?${range}`);
    expect(res.status()).toBe(200);
    expect(res.headers()['content-type']).toBe('text/csv; charset=utf-8');
    expect((await res.text()).split('\r\n')[0]).toBe(columns.join(','));
  }

  const { violations } = await new AxeBuilder({ page }).include('[data-testid="export-dialog"]').analyze();
  expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  await page.screenshot({ path: testInfo.outputPath('export-dialog-tablet.png'), animations: 'disabled' });

  await page.setViewportSize({ width: 390, height: 844 });
  await expect(dialog.getByTestId('export-download-ledger')).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
  await page.screenshot({ path: testInfo.outputPath('export-dialog-phone.png'), animations: 'disabled' });

  // A range the server would refuse: said why, and no file to download.
  await dialog.getByTestId('export-to').fill('2025-12-31');
  await expect(dialog.getByTestId('export-problem')).toHaveText('To must be the same day as from or later');
  await expect(dialog.getByRole('link')).toHaveCount(0);
});
