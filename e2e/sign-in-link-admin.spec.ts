import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { expect, test } from './fixtures/test';
import { readAdminPassword } from './fixtures/admin';

// The operator's way in for the admin (docs/admin-login.md, "When the admin is locked out"): the
// built command prints a one-time link; the admin opens it on a new browser, which is then told it
// can log in, and logs in with the password. The link leaves the address at once and works once.
test.use({ serviceWorkers: 'block' });

/** `node dist-server/admin-link.js` with the e2e shop's settings (its data folder holds the local password). */
function operatorLink(baseURL: string): string {
  const dataDir = process.env.E2E_DATA_DIR;
  if (!dataDir) throw new Error('E2E_DATA_DIR is not set: playwright.config.ts sets it for the server and the tests');
  return execFileSync(process.execPath, [path.join('dist-server', 'admin-link.js')], {
    env: { PATH: process.env.PATH, NODE_ENV: 'test', DATA_DIR: dataDir, PUBLIC_URL: baseURL },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
    timeout: 30_000,
  }).trim();
}

test('the operator’s sign-in link lets a new browser log in, once', async ({ page, browser, baseURL }, testInfo) => {
  const url = operatorLink(baseURL!);
  expect(url).toMatch(new RegExp(`^${baseURL}/admin#sign-in=[\\w-]+\\.\\d+\\.[\\w-]+$`));

  await page.goto(url);
  const notice = page.getByTestId('admin-login-notice');
  await expect(notice).toHaveAttribute('data-kind', 'browser-recognised');
  await expect(notice).toContainText('This browser can now log in');
  // The link is gone from the address (and from the history entry).
  expect(new URL(page.url()).hash).toBe('');
  await page.screenshot({ path: testInfo.outputPath(`sign-in-link-${testInfo.project.name}.png`) });
  await page.getByTestId('admin-password').fill(readAdminPassword());
  await page.getByTestId('admin-login').click();
  await expect(page.getByRole('heading', { name: 'Product Management' })).toBeVisible({ timeout: 15_000 });

  // Someone else opening the same link later: refused, with what to do.
  const other = await browser.newContext({ serviceWorkers: 'block' });
  try {
    const stranger = await other.newPage();
    await stranger.goto(url);
    const refused = stranger.getByTestId('admin-login-notice');
    await expect(refused).toHaveAttribute('data-kind', 'error');
    await expect(refused).toContainText('Sign-in link not accepted — This sign-in link was used already');
    await expect(stranger.getByTestId('admin-password')).toBeEnabled();
  } finally {
    await other.close();
  }
});
