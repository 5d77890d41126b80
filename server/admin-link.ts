/**
 * `npm run admin:link` (in the image: `node dist-server/admin-link.js`): the operator's way in for
 * the admin when wrong passwords from many places have paused logins from new browsers. Prints a
 * one-time link to /admin, usable for 15 minutes: the browser that opens it becomes one that
 * logged in before, and logs in with the admin password while the pause holds for everyone else.
 *
 * It reads the same settings as the shop (the admin password's hash and PUBLIC_URL), never the
 * database, so it runs beside a running shop, on any instance. The link goes to stdout alone (for
 * a pipe); what to do with it goes to stderr. Nothing is logged.
 */
import { ConfigError, loadConfig } from './config';
import { loadLocalAdminPassword, makeSignInLink, signInUrl, SIGN_IN_LINK_TTL_MS } from './modules/admin';

try {
  const config = loadConfig();
  const passwordHash =
    config.adminPassword.kind === 'configured' ? config.adminPassword.hash : (await loadLocalAdminPassword(config.adminPassword.file)).hash;
  const now = new Date();
  const until = new Date(now.getTime() + SIGN_IN_LINK_TTL_MS).toISOString().slice(11, 16);
  process.stderr.write(
    `A sign-in link for the admin, usable once until ${until} UTC. Open it in the browser the admin will use; ` +
      'that browser can then log in with the admin password even while logins from new browsers are paused. ' +
      'Hand it over privately, as you would the password.\n',
  );
  process.stdout.write(`${signInUrl(config.publicUrl, makeSignInLink(passwordHash, now))}\n`);
  if (!config.publicUrlConfigured)
    process.stderr.write(`(PUBLIC_URL is not set: the address above assumes the shop at ${config.publicUrl}.)\n`);
} catch (err) {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
}
