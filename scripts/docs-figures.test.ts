// The docs give some files' sizes ("`server/x.ts` (86 lines)", or a table row naming a file with
// its line count): each such figure must be the file's line count today, or the docs tell a
// reader something the code no longer is.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');
const DOCS = [
  'README.md',
  'CONTRIBUTING.md',
  ...readdirSync(path.join(ROOT, 'docs'), { recursive: true }).map((f) => `docs/${String(f)}`),
].filter((f) => f.endsWith('.md'));

interface Figure {
  file: string;
  lines: number;
}

const number = (text: string) => Number(text.replace(/,/g, ''));

/** The files a Markdown text gives a line count for: "`path` (N lines", "`path`, N lines", or a table row "| `path` | N |". */
function citedFigures(markdown: string): Figure[] {
  const figures: Figure[] = [];
  for (const m of markdown.matchAll(/`([\w./-]+\.[a-z]+)`(?: \(|, )(\d[\d,]*) lines\b/g))
    figures.push({ file: m[1]!, lines: number(m[2]!) });
  for (const m of markdown.matchAll(/\|\s*`([\w./-]+\.[a-z]+)`\s*\|\s*(\d[\d,]*)\s*\|\s*$/gm))
    figures.push({ file: m[1]!, lines: number(m[2]!) });
  return figures;
}

const lineCount = (file: string) => readFileSync(file, 'utf8').split('\n').length - 1;

const SOURCE_ROOTS = ['server', 'client', 'common', 'scripts', 'bench', 'e2e', 'emulators', 'migrations'];
/** The project's files by their own name, for a doc that names one without its folder (`handoff.ts`). */
const byName = new Map<string, string[]>();
for (const root of SOURCE_ROOTS) {
  for (const entry of readdirSync(path.join(ROOT, root), { recursive: true })) {
    const file = path.join(ROOT, root, String(entry));
    if (String(entry).includes('node_modules') || !statSync(file).isFile()) continue;
    byName.set(path.basename(file), [...(byName.get(path.basename(file)) ?? []), file]);
  }
}

describe('the file sizes the docs cite', () => {
  it('reads the figures a text gives, and only those', () => {
    expect(
      citedFigures(
        [
          'its validator, `server/a.sol` (86 lines), written by hand; `b.ts`, 18 lines.',
          '| the pages | `server/pages/shop-pages.ts` | 308 |',
          '| a function | `serverRendering()` in `server/app.ts` | 19 |',
          'about 670 lines in 11 files; `server/c.ts` is used by 3 lines of code elsewhere',
        ].join('\n'),
      ),
    ).toEqual([
      { file: 'server/a.sol', lines: 86 },
      { file: 'b.ts', lines: 18 },
      { file: 'server/pages/shop-pages.ts', lines: 308 },
    ]);
  });

  it.each(DOCS)('%s: every cited size is the file’s', (doc) => {
    const dir = path.dirname(path.join(ROOT, doc));
    const wrong = citedFigures(readFileSync(path.join(ROOT, doc), 'utf8')).flatMap(({ file, lines }) => {
      // A path from the project's root or the doc's own folder, or a name only one file has.
      const named = byName.get(file);
      const found = [path.join(ROOT, file), path.join(dir, file), ...(named?.length === 1 ? named : [])].find(
        (p) => existsSync(p) && statSync(p).isFile(),
      );
      if (!found) return [];
      const actual = lineCount(found);
      return actual === lines ? [] : [`${file}: the doc says ${lines} lines, it has ${actual}`];
    });
    expect(wrong).toEqual([]);
  });
});
