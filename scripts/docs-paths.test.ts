// The docs name the project's files so a reader can open them: every such name must be a file (or
// folder) that exists, or the docs send the reader nowhere after a move or a rename.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');
const ROOTS = ['server', 'client', 'common', 'scripts', 'bench', 'e2e', 'emulators', 'migrations', 'deploy', 'docs', 'public'];
const DOCS = [
  'README.md',
  'CONTRIBUTING.md',
  ...readdirSync(path.join(ROOT, 'docs'), { recursive: true }).map((f) => `docs/${String(f)}`),
].filter((f) => f.endsWith('.md'));

/** The project paths a Markdown text names in code spans: `server/lib/fast-lane.ts`, `docs/`. */
function namedPaths(markdown: string): string[] {
  const spans = markdown.match(/`[^`\n]+`/g) ?? [];
  return spans
    .map((span) => span.slice(1, -1).replace(/[:#].*$/, ''))
    .filter((name) => /^[\w./-]+$/.test(name) && ROOTS.includes(name.split('/')[0]!) && name.includes('/') && !name.includes('*'));
}

describe('the files the docs name', () => {
  it('finds paths in code spans, and only those', () => {
    expect(namedPaths('see `server/lib/fast-lane.ts`, `docs/`, `npm test`, `server/x.ts:fn`, `client/**/*.tsx`, `GET /api/x`')).toEqual([
      'server/lib/fast-lane.ts',
      'docs/',
      'server/x.ts',
    ]);
  });

  it.each(DOCS)('%s names only files that exist', (doc) => {
    const missing = namedPaths(readFileSync(path.join(ROOT, doc), 'utf8')).filter((name) => !existsSync(path.join(ROOT, name)));
    expect(missing).toEqual([]);
  });
});
