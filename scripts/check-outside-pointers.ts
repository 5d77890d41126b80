/**
 * Part of `npm run lint`: fails when a file of the project points to a document outside it (see
 * outside-pointers.ts), naming each place, so the rule gets written where it is used or in docs/.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { findOutsidePointers } from './outside-pointers';

const ROOT = join(import.meta.dirname, '..');
/** Folders that are installed, built or written by runs, not written by hand. */
const SKIPPED = new Set(['.git', 'node_modules', 'dist', 'dist-ssr', 'dist-server', 'data', 'test-results', 'playwright-report', 'tmp']);
const TEXT = /\.(?:[cm]?[jt]sx?|md|json|ya?ml|css|html|sql|sh|toml|txt)$|^(?:Dockerfile|run)$/;
/** Generated, or this check's own patterns and their examples. */
const NOT_CHECKED = new Set(['package-lock.json', 'outside-pointers.ts', 'outside-pointers.test.ts']);

function* files(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      if (!SKIPPED.has(entry.name)) yield* files(join(dir, entry.name));
    } else if (TEXT.test(entry.name) && !NOT_CHECKED.has(entry.name)) {
      yield join(dir, entry.name);
    }
  }
}

const problems: string[] = [];
for (const file of files(ROOT)) {
  for (const { line, text } of findOutsidePointers(readFileSync(file, 'utf8'))) {
    problems.push(`${relative(ROOT, file)}:${line}: ${text}`);
  }
}
if (problems.length > 0) {
  console.error(
    `${problems.length} place(s) point to documents outside the project (a spec section, a design note, an ` +
      `issue number). Write the rule itself, or link the project's docs/:\n${problems.join('\n')}`,
  );
  process.exit(1);
}
console.log('No pointers outside the project.');
