/**
 * `npm run admin:hash`: reads the admin password from stdin (typed, without being shown, or piped
 * in) and prints the ADMIN_PASSWORD_HASH line to put in the server's environment. The password is
 * never shown, stored or logged.
 */
import { hashPassword } from '../server/lib/password-hash';

const MIN_LENGTH = 12;

/** Typed at a terminal: read in raw mode, nothing echoed (not even stars: the length is a clue too). */
function readHidden(): Promise<string> {
  process.stderr.write('Admin password (not shown as you type; end with Enter): ');
  const stdin = process.stdin;
  stdin.setRawMode(true);
  stdin.resume();
  return new Promise((resolve) => {
    let typed = '';
    const finish = (value: string | null) => {
      stdin.off('data', onData);
      stdin.setRawMode(false);
      stdin.pause();
      process.stderr.write('\n');
      if (value === null) process.exit(130);
      resolve(value);
    };
    const onData = (chunk: Buffer) => {
      for (const ch of chunk.toString('utf8')) {
        if (ch === '\r' || ch === '\n') return finish(typed);
        if (ch === '\u0003' || ch === '\u0004') return finish(null); // Ctrl-C, Ctrl-D
        if (ch === '\u007f' || ch === '\b') typed = [...typed].slice(0, -1).join('');
        else if (ch >= ' ') typed += ch;
      }
    };
    stdin.on('data', onData);
  });
}

/** Piped in: the first line. */
async function readPiped(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8').split(/\r?\n/)[0] ?? '';
}

const readStdin = () => (process.stdin.isTTY ? readHidden() : readPiped());

const password = await readStdin();
if (password.length < MIN_LENGTH) {
  process.stderr.write(`The admin password must be at least ${MIN_LENGTH} characters.\n`);
  process.exit(1);
}
// Single-quoted: a shell (or a .env file read by one) would expand the `$` parts otherwise.
process.stdout.write(`ADMIN_PASSWORD_HASH='${await hashPassword(password)}'\n`);
