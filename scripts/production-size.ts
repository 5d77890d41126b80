/**
 * The production set's dependencies as the image installs them, measured:
 *
 *   npx tsx scripts/production-size.ts
 *
 * The Dockerfile's final stage runs `npm install --omit=dev` on the staged package.json and
 * package-lock.json (scripts/stage-production.ts copies them unchanged), so those two files alone
 * decide what it holds: this copies them into a temporary folder, installs the same way, and
 * prints the package count, the size of the files and their size on disk, and the largest
 * packages. docs/operations.md gives these figures; scripts/stage-production.int.test.ts keeps
 * them true.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export interface ProductionSize {
  /** Packages installed (node_modules/.package-lock.json's entries, as npm counts them in "added N packages"). */
  packages: number;
  /** Their names (nested ones too, once each), sorted. */
  names: string[];
  /** The size of every file in node_modules, in bytes. */
  bytes: number;
  /** What those files take on this disk (its blocks), in bytes. */
  diskBytes: number;
  /** The largest top-level packages (or scopes), by the size of their files, largest first. */
  largest: { name: string; bytes: number }[];
}

/**
 * Installs the production dependencies in `dir` (which holds package.json and package-lock.json)
 * as the image does. `--prefer-offline`: the checkout's own install has cached every tarball.
 */
export function installProductionSet(dir: string): void {
  execFileSync('npm', ['install', '--omit=dev', '--no-audit', '--no-fund', '--prefer-offline'], {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NODE_ENV: 'production' },
  });
}

function sizeOf(target: string): { bytes: number; diskBytes: number } {
  let bytes = 0;
  let diskBytes = 0;
  const visit = (p: string) => {
    const stat = fs.lstatSync(p);
    bytes += stat.isDirectory() ? 0 : stat.size;
    diskBytes += stat.blocks * 512;
    if (stat.isDirectory()) for (const entry of fs.readdirSync(p)) visit(path.join(p, entry));
  };
  visit(target);
  return { bytes, diskBytes };
}

/** Measures `dir`/node_modules, installed by npm (its hidden lockfile lists what it installed). */
export function measureProductionSet(dir: string): ProductionSize {
  const modules = path.join(dir, 'node_modules');
  const lock = JSON.parse(fs.readFileSync(path.join(modules, '.package-lock.json'), 'utf8')) as { packages: Record<string, unknown> };
  const installed = Object.keys(lock.packages).filter((key) => key.startsWith('node_modules/'));
  const names = [...new Set(installed.map((key) => key.slice(key.lastIndexOf('node_modules/') + 'node_modules/'.length)))].sort();
  const { bytes, diskBytes } = sizeOf(modules);
  const largest = fs
    .readdirSync(modules)
    .filter((entry) => !entry.startsWith('.'))
    .map((name) => ({ name, bytes: sizeOf(path.join(modules, name)).bytes }))
    .sort((a, b) => b.bytes - a.bytes)
    .slice(0, 8);
  return { packages: installed.length, names, bytes, diskBytes, largest };
}

/** Bytes in MB (10^6), as npm and `du --si` count them. */
export const megabytes = (bytes: number) => bytes / 1e6;

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pogs-production-size-'));
  try {
    for (const file of ['package.json', 'package-lock.json']) fs.copyFileSync(path.join(root, file), path.join(dir, file));
    installProductionSet(dir);
    const size = measureProductionSet(dir);
    console.log(
      `production set: ${size.packages} packages, ${megabytes(size.bytes).toFixed(1)} MB of files (${megabytes(size.diskBytes).toFixed(1)} MB on this disk)`,
    );
    for (const { name, bytes } of size.largest) console.log(`  ${name.padEnd(24)} ${megabytes(bytes).toFixed(1)} MB`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
