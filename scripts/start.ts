/**
 * `npm start`: builds the shop when its sources changed since the last build (quietly: the build's
 * output is shown only when it fails), then runs the compiled server in this terminal. Its last
 * lines are the shop's address and, in the local demo, the admin password. `npm run doctor` and
 * `npm run migrate` and `npm run admin:link` run their compiled entry the same way (`tsx scripts/start.ts doctor`).
 *
 * "Changed" is a hash of every file the build reads (client, server, common, migrations, public,
 * emulators, the build configuration and the lock file), kept beside the build: switching branches
 * or pulling rebuilds, running again does not.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const INPUT_DIRS = ['client', 'common', 'server', 'migrations', 'public', 'emulators'];
const INPUT_FILES = ['package.json', 'package-lock.json', 'vite.config.ts', 'tsconfig.json', 'scripts/build-server.ts'];
/** What the build leaves, and where it records the inputs it was built from. */
const OUTPUTS = ['dist/index.html', 'dist-ssr/entry-server.js', 'dist-server/main.js'];
/** The hash of the inputs of the last complete `npm run build` (written by its last step, scripts/build-server.ts). */
export const BUILD_STAMP = path.join('dist-server', '.inputs-hash');
const STAMP = path.join(ROOT, BUILD_STAMP);

function filesUnder(dir: string, out: string[]): void {
  if (!fs.existsSync(dir)) return;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) filesUnder(full, out);
    else if (entry.isFile()) out.push(full);
  }
}

/** A hash of the build's inputs: their paths and contents. */
export function inputsHash(root = ROOT): string {
  const files: string[] = [];
  for (const dir of INPUT_DIRS) filesUnder(path.join(root, dir), files);
  for (const file of INPUT_FILES) if (fs.existsSync(path.join(root, file))) files.push(path.join(root, file));
  const hash = createHash('sha256');
  for (const file of files.sort()) {
    hash.update(path.relative(root, file));
    hash.update('\0');
    hash.update(fs.readFileSync(file));
    hash.update('\0');
  }
  return hash.digest('hex');
}

function buildIfNeeded(): void {
  const hash = inputsHash();
  const built = OUTPUTS.every((f) => fs.existsSync(path.join(ROOT, f)));
  if (built && fs.existsSync(STAMP) && fs.readFileSync(STAMP, 'utf8').trim() === hash) return;
  process.stdout.write('Building the shop (about a minute the first time)... ');
  const began = Date.now();
  const result = spawnSync('npm', ['run', 'build'], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (result.status !== 0) {
    process.stdout.write('failed.\n');
    process.stderr.write(`${result.stdout}${result.stderr}`);
    process.exit(result.status ?? 1);
  }
  process.stdout.write(`done in ${Math.round((Date.now() - began) / 1000)} s.\n`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const entry = process.argv[2] ?? 'main';
  if (!['main', 'doctor', 'migrate', 'admin-link'].includes(entry)) {
    process.stderr.write(`usage: tsx scripts/start.ts [main|doctor|migrate|admin-link]\n`);
    process.exit(2);
  }
  buildIfNeeded();
  const server = spawn(process.execPath, [path.join(ROOT, 'dist-server', `${entry}.js`)], { cwd: ROOT, stdio: 'inherit' });
  // The server ends itself gracefully on SIGTERM (a second signal at once): pass it on. Ctrl-C's
  // SIGINT reaches the server from the terminal itself; passing it on too would count twice.
  process.on('SIGTERM', () => server.kill('SIGTERM'));
  process.on('SIGINT', () => {});
  server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}
