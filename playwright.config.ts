import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';
import { CHROMIUM_ARGS } from './e2e/fixtures/chromium';

// Debian's Chromium (`npx playwright install` cannot download here); Playwright's own browser
// when that is what the machine has.
const debianChromium = '/usr/bin/chromium';
const executablePath = fs.existsSync(debianChromium) ? debianChromium : undefined;
if (!executablePath && !process.env.PLAYWRIGHT_BROWSERS_PATH && !fs.existsSync(path.join(os.homedir(), '.cache/ms-playwright'))) {
  throw new Error('No Chromium found: install Debian\'s "chromium" package (apt-get install chromium).');
}

const PORT = Number(process.env.E2E_PORT ?? 4319);
// The shop's embedded anvil runs on a fixed port so the e2e test wallet can reach it.
const CHAIN_PORT = Number(process.env.E2E_CHAIN_PORT ?? 8547);
process.env.E2E_CHAIN_RPC = `http://127.0.0.1:${CHAIN_PORT}`;
// Made once by the runner and inherited by the workers (which load this file again), so a spec can
// read what the server keeps there (the local-mode admin password: e2e/fixtures/admin.ts).
const dataDir = (process.env.E2E_DATA_DIR ??= fs.mkdtempSync(path.join(os.tmpdir(), 'pogs-e2e-')));

const launchOptions = {
  executablePath,
  args: CHROMIUM_ARGS,
};

export default defineConfig({
  testDir: 'e2e',
  // The live rehearsal has its own world and config (playwright.rehearsal.config.ts).
  testIgnore: '**/rehearsal/**',
  timeout: 30_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  // The list as tests end, then where the run's time went (start-up, fixtures, calls, waits): bench/e2e-costs.ts.
  reporter: [['list'], ['./bench/e2e-costs.ts']],
  use: {
    baseURL: `http://localhost:${PORT}`,
    // The shop as a shopper who asks for reduced motion sees it: no slide-ins, fades, staggered cards or
    // confetti for every click to wait out: the wallet and checkout specs took 0.84x the wall time and 0.78x
    // the CPU of the same specs with motion (docs/test-times.md). The motion itself
    // is tested where it is the subject (catalogue.spec.ts) and in the cart's flows (cart.spec.ts).
    reducedMotion: 'reduce',
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [
    { name: 'phone', use: { ...devices['Pixel 7'], launchOptions } },
    {
      name: 'tablet',
      testMatch: /(layout|admin|payments-desk|admin-sponsored-gas|accessibility|webhooks)\.spec\.ts/,
      use: { viewport: { width: 820, height: 1180 }, hasTouch: true, launchOptions },
    },
  ],
  webServer: {
    // The built shop, compiled server included (npm run test:e2e builds first), on a fresh
    // embedded database each run.
    command: 'node dist-server/main.js',
    url: `http://localhost:${PORT}/api/health`,
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      NODE_ENV: 'test',
      PORT: String(PORT),
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://localhost:${PORT}`,
      DATA_DIR: dataDir,
      // Short, so a test can change Shopify (the emulator) and see the shop follow.
      CATALOGUE_SYNC_INTERVAL_MINUTES: '0.05',
      LOG_LEVEL: 'warn',
      LOCAL_CHAIN_PORT: String(CHAIN_PORT),
      // Every spec signs the admin in from the one address the run has (about 20 sign-ins, several
      // a minute on a fast machine), over the 10 a minute an address may try: the limits are
      // scaled up here, and tested at their real values in server/lib/rate-limit.int.test.ts.
      RATE_LIMIT_SCALE: '4',
    },
  },
});
