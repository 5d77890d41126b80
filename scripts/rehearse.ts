/**
 * `npm run rehearse`: the live rehearsal by hand, each step shown as it runs. It builds the shop,
 * then runs e2e/rehearsal with Playwright (playwright.rehearsal.config.ts): a fresh Postgres
 * database, a chain with a plain ERC-20, the Shopify emulator's launcher with short-lived
 * client-credentials tokens, and the production shop with only live settings; a merchant and a
 * shopper in Chromium (live.spec.ts). Then the deploy topology (topology.spec.ts): two instances
 * on one database behind a proxy, one stopped with SIGTERM and one killed with SIGKILL while
 * shoppers pay.
 *
 *   npm run rehearse                 build, then rehearse
 *   npm run rehearse -- --no-build   rehearse the existing build, if any (`npm test` runs it so, after the e2e build)
 *
 * It needs TEST_DATABASE_URL, a Postgres where it may create (and then drop) a database; without
 * it, it says in one line that it is skipped.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';

if (!process.env.TEST_DATABASE_URL) {
  console.log(
    'live rehearsal skipped: set TEST_DATABASE_URL to a Postgres where it may create a database (e.g. postgres://postgres@127.0.0.1:5432/test)',
  );
  process.exit(0);
}
const run = (command: string, args: string[]) => spawnSync(command, args, { stdio: 'inherit' }).status ?? 1;
// `--no-build` uses the existing build (npm test's e2e layer has just made it), and builds only when there is none.
const hasBuild = ['dist/index.html', 'dist-ssr/entry-server.js', 'dist-server/main.js'].every((file) => fs.existsSync(file));
if (!process.argv.includes('--no-build') || !hasBuild) {
  const built = run('npm', ['run', 'build']);
  if (built !== 0) process.exit(built);
}
console.log(
  'live rehearsal: the production shop with only live settings, a merchant and a shopper; then two instances behind a proxy, one stopped and one killed',
);
process.exit(run('npx', ['playwright', 'test', '-c', 'playwright.rehearsal.config.ts']));
