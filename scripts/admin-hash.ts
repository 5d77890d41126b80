/**
 * `npm run admin:hash`: reads the admin password from stdin (a line typed, or piped in) and prints
 * the ADMIN_PASSWORD_HASH line to put in the server's environment. The password is not echoed
 * back and never stored.
 */
import { hashPassword } from '../server/lib/password-hash';

const MIN_LENGTH = 12;

async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) process.stderr.write('Admin password (the input is shown as typed; end with Enter): ');
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) {
    chunks.push(chunk as Buffer);
    // Typed at a terminal: the first line is the password.
    if (process.stdin.isTTY && chunk.includes(10)) break;
  }
  return Buffer.concat(chunks).toString('utf8').split(/\r?\n/)[0] ?? '';
}

const password = await readStdin();
if (password.length < MIN_LENGTH) {
  process.stderr.write(`The admin password must be at least ${MIN_LENGTH} characters.\n`);
  process.exit(1);
}
// Single-quoted: a shell (or a .env file read by one) would expand the `$` parts otherwise.
process.stdout.write(`ADMIN_PASSWORD_HASH='${await hashPassword(password)}'\n`);
