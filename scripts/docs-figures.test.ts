// The docs give some files' sizes: "`server/x.ts` (86 lines)", "`e2e/x.spec.ts` (400 lines, 16
// tests)", a list of files and their total ("`a.ts`, `b.ts`: 230 lines"), a table row naming files
// with their line counts ("| `a.ts`, `b.ts` | 151 + 54 |", a folder as "`dir/` (8 files) | 581"),
// and the total under such a table ("In all 2,109 lines in 24 files"). Each figure must be what the
// files are today, or the docs tell a reader something the code no longer is.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');
const DOCS = [
  'README.md',
  'CONTRIBUTING.md',
  ...readdirSync(path.join(ROOT, 'docs'), { recursive: true }).map((f) => `docs/${String(f)}`),
].filter((f) => f.endsWith('.md'));

/** A figure a doc gives: the files it is about (as named), what it counts, and the number. */
interface Figure {
  files: string[];
  of: 'lines' | 'tests' | 'files';
  value: number;
}

const number = (text: string) => Number(text.replace(/,/g, ''));
const FILE = String.raw`[\w./-]+\.[a-z]+`;
const NUM = String.raw`\d[\d,]*`;
/** The names in a text's code spans that look like a file (`x.ts`) or a folder (`client/x/`). */
const spansNaming = (text: string) =>
  [...text.matchAll(/`([\w./-]+)`/g)].map((m) => m[1]!).filter((name) => new RegExp(`^${FILE}$`).test(name) || name.endsWith('/'));

/** The figures a Markdown text gives about the project's files. */
function citedFigures(markdown: string): Figure[] {
  const figures: Figure[] = [];
  // "`path` (86 lines", "`path` (400 lines, 16 tests)", "`path`, 268 lines", "`path` (10 tests)"
  for (const m of markdown.matchAll(
    new RegExp(`\`(${FILE})\`(?:\\s+\\(|, )(?:(${NUM}) lines(?:, (${NUM}) tests)?|(${NUM}) tests)\\b`, 'g'),
  )) {
    if (m[2]) figures.push({ files: [m[1]!], of: 'lines', value: number(m[2]) });
    if (m[3] ?? m[4]) figures.push({ files: [m[1]!], of: 'tests', value: number((m[3] ?? m[4])!) });
  }
  // "(`a.ts`, `b.ts`, `c.ts`: 720 lines)": the files' total
  for (const m of markdown.matchAll(new RegExp(`\\(((?:\`${FILE}\`,\\s+)+\`${FILE}\`): (${NUM}) lines\\)`, 'g')))
    figures.push({ files: spansNaming(m[1]!), of: 'lines', value: number(m[2]!) });
  figures.push(...tableFigures(markdown));
  return figures;
}

/**
 * A table's rows that name files in their next-to-last cell and give line counts in the last: one
 * figure per file ("151 + 54"), or one for them all; a folder "(8 files)" also gives its count. A
 * name without a folder is in the folder of the table's last file that had one. A paragraph after
 * the table that begins "In all N lines in M files" gives the table's totals.
 */
function tableFigures(markdown: string): Figure[] {
  const figures: Figure[] = [];
  let table: Figure[] = [];
  let folder = '';
  for (const line of markdown.split('\n')) {
    const row = line.trim();
    if (!row.startsWith('|')) {
      const total = new RegExp(`^In all (${NUM}) lines in (${NUM}) files`).exec(row);
      if (total && table.length > 0) {
        const files = table.flatMap((r) => r.files);
        figures.push({ files, of: 'lines', value: number(total[1]!) }, { files, of: 'files', value: number(total[2]!) });
      }
      if (row !== '') [table, folder] = [[], ''];
      continue;
    }
    const cells = row
      .slice(1, -1)
      .split('|')
      .map((c) => c.trim());
    const values = cells
      .at(-1)!
      .match(new RegExp(`^${NUM}(?: \\+ ${NUM})*$`))?.[0]
      .split(' + ')
      .map(number);
    const named = cells.length >= 2 && !/`[\w.]+\(\)`/.test(cells.at(-2)!) ? spansNaming(cells.at(-2)!) : [];
    if (!values || named.length === 0) continue;
    const files = named.map((name) => {
      if (!name.includes('/')) return folder ? `${folder}/${name}` : name;
      if (!name.endsWith('/')) folder = path.posix.dirname(name);
      return name;
    });
    const counted = /\((\d+) files\)/.exec(cells.at(-2)!);
    if (counted) figures.push({ files, of: 'files', value: Number(counted[1]) });
    const rowFigures: Figure[] =
      values.length === files.length
        ? values.map((value, i) => ({ files: [files[i]!], of: 'lines', value }))
        : [{ files, of: 'lines', value: values.reduce((a, b) => a + b, 0) }];
    figures.push(...rowFigures);
    table.push(...rowFigures);
  }
  return figures;
}

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

/** The files a name stands for: a file from the root or the doc's folder, a name only one file has, or a folder's files but its tests. */
function resolve(name: string, docDir: string): string[] {
  if (name.endsWith('/')) {
    const dir = path.join(ROOT, name);
    if (!existsSync(dir)) return [];
    return readdirSync(dir, { recursive: true })
      .map((entry) => path.join(dir, String(entry)))
      .filter((file) => statSync(file).isFile() && !/\.test\.tsx?$/.test(file));
  }
  const named = byName.get(name);
  const found = [path.join(ROOT, name), path.join(docDir, name), ...(named?.length === 1 ? named : [])].find(
    (p) => existsSync(p) && statSync(p).isFile(),
  );
  return found ? [found] : [];
}

const lineCount = (file: string) => readFileSync(file, 'utf8').split('\n').length - 1;
/** Test declarations: `it(`, `test(`, and their `.each(…)(`, `.skip(`, `.only(`, `.fixme(` forms. */
const testCount = (file: string) =>
  readFileSync(file, 'utf8').match(/^\s*(?:it|test)(?:\.(?:each\(.*\)|skip|only|fixme))?\(/gm)?.length ?? 0;

/** What the files a figure names are today, or why that cannot be told. */
function actual(figure: Figure, docDir: string): number | string {
  const files: string[] = [];
  for (const name of figure.files) {
    const found = resolve(name, docDir);
    if (found.length === 0) return `\`${name}\` names no file (or more than one)`;
    files.push(...found);
  }
  if (figure.of === 'files') return files.length;
  return files.reduce((sum, file) => sum + (figure.of === 'lines' ? lineCount(file) : testCount(file)), 0);
}

describe('the file sizes the docs cite', () => {
  it('reads the figures a text gives, and only those', () => {
    const text = [
      'its validator, `server/a.sol` (86 lines), written by hand; `b.ts`, 18 lines; `e2e/c.spec.ts` (400 lines, 16 tests);',
      '`d.int.test.ts` (10 tests); the loop (`e.ts`, `f.ts`: 720 lines); `server/app.ts`',
      '(19 lines) on the next line.',
      '',
      '| Piece | File | Lines |',
      '|---|---|---|',
      '| the pages | `server/pages/shop-pages.ts` | 308 |',
      '| a function | `serverRendering()` in `server/app.ts` | 19 |',
      '| errors, `wallet_sendCalls` | `client/web3/x.ts`, `y.ts` | 151 + 54 |',
      '| the rest | `z.ts`, `w.ts` | 216 |',
      '| React | `client/features/wallet/` (8 files) | 581 |',
      '',
      'In all 1,310 lines in 13 files. About 670 lines in 11 files; `server/c.ts` is used by 3 lines of code elsewhere.',
    ].join('\n');
    const tableFiles = [
      'server/pages/shop-pages.ts',
      'client/web3/x.ts',
      'client/web3/y.ts',
      'client/web3/z.ts',
      'client/web3/w.ts',
      'client/features/wallet/',
    ];
    expect(citedFigures(text)).toEqual([
      { files: ['server/a.sol'], of: 'lines', value: 86 },
      { files: ['b.ts'], of: 'lines', value: 18 },
      { files: ['e2e/c.spec.ts'], of: 'lines', value: 400 },
      { files: ['e2e/c.spec.ts'], of: 'tests', value: 16 },
      { files: ['d.int.test.ts'], of: 'tests', value: 10 },
      { files: ['server/app.ts'], of: 'lines', value: 19 },
      { files: ['e.ts', 'f.ts'], of: 'lines', value: 720 },
      { files: ['server/pages/shop-pages.ts'], of: 'lines', value: 308 },
      { files: ['client/web3/x.ts'], of: 'lines', value: 151 },
      { files: ['client/web3/y.ts'], of: 'lines', value: 54 },
      { files: ['client/web3/z.ts', 'client/web3/w.ts'], of: 'lines', value: 216 },
      { files: ['client/features/wallet/'], of: 'files', value: 8 },
      { files: ['client/features/wallet/'], of: 'lines', value: 581 },
      {
        files: tableFiles,
        of: 'lines',
        value: 1310,
      },
      {
        files: tableFiles,
        of: 'files',
        value: 13,
      },
    ]);
  });

  it('counts a file’s tests as its declarations', () => {
    expect(testCount(path.join(ROOT, 'scripts/docs-figures.test.ts'))).toBe(3);
  });

  it.each(DOCS)('%s: every cited figure is the files’', (doc) => {
    const docDir = path.dirname(path.join(ROOT, doc));
    const wrong = citedFigures(readFileSync(path.join(ROOT, doc), 'utf8')).flatMap((figure) => {
      const today = actual(figure, docDir);
      return today === figure.value
        ? []
        : [
            `${figure.files.join(', ')}: the doc says ${figure.value} ${figure.of}, ${typeof today === 'number' ? `they are ${today}` : today}`,
          ];
    });
    expect(wrong).toEqual([]);
  });
});
