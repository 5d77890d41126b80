import { defineConfig } from 'vitest/config';

// Two layers, run separately by `npm test`:
//  unit        *.test.ts(x) beside the code: pure logic, no I/O
//  integration *.int.test.ts: the Koa app over HTTP against a real database (PGlite, and Postgres
//              when TEST_DATABASE_URL is set) and the Shopify emulator
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['{client,common,server,emulators,scripts}/**/*.test.{ts,tsx}'],
          exclude: ['**/*.int.test.ts', 'node_modules/**'],
          environment: 'node',
          // Pure functions: the files share one module graph per worker instead of each importing
          // it afresh (the imports were most of the layer's time).
          isolate: false,
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          name: 'integration',
          include: ['{server,emulators,scripts}/**/*.int.test.ts'],
          environment: 'node',
          // one migrated PGlite database, dumped once, that each file's PGlite database starts from
          globalSetup: ['server/test/pglite-template.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // two cores: files run in parallel, each with its own database
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
