import fs from 'node:fs';
import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS } from './e2e/fixtures/chromium';

// The live rehearsal (e2e/rehearsal): run by `npm run rehearse` and as the last step of `npm test`
// (scripts/rehearse.ts). Its global setup starts the whole world: Postgres, a chain, the Shopify
// emulator's launcher and the production shop; there is no webServer here. The specs run one
// after the other, in one worker: live.spec.ts, then topology.spec.ts (which starts its own two
// instances and proxy on the world's chain and emulator).
const debianChromium = '/usr/bin/chromium';

export default defineConfig({
  testDir: 'e2e/rehearsal',
  globalSetup: './e2e/rehearsal/global-setup.ts',
  timeout: 300_000,
  expect: { timeout: 15_000 },
  workers: 1,
  retries: 0,
  reporter: [['list', { printSteps: true }]],
  use: {
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: { executablePath: fs.existsSync(debianChromium) ? debianChromium : undefined, args: CHROMIUM_ARGS },
  },
  projects: [{ name: 'live' }],
});
