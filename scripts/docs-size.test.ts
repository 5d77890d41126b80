// The docs stay short enough to read whole and to keep true: every page of docs/, the README and CONTRIBUTING is
// at most 8 KB (a longer text is split into pages, one subject each). And every link between the
// project's Markdown files leads somewhere: to a file that exists and, with a #anchor, to a heading
// of that file, so a page that moves or a heading that is renamed cannot leave a link behind.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');
const MAX_PAGE_BYTES = 8 * 1024;
/** Folders that are installed, built or written by runs, not written by hand. */
const SKIPPED = new Set(['node_modules', 'dist', 'dist-ssr', 'dist-server', 'data', 'test-results', 'playwright-report', 'tmp']);

/** The project's Markdown files, as paths from the root with '/'. */
function markdownFiles(dir = ''): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const name = dir ? `${dir}/${entry.name}` : entry.name;
    if (entry.isDirectory()) return entry.name.startsWith('.') || SKIPPED.has(entry.name) ? [] : markdownFiles(name);
    return entry.isFile() && entry.name.endsWith('.md') ? [name] : [];
  });
}

const MARKDOWN = markdownFiles().sort();
const PAGES = MARKDOWN.filter((file) => file === 'README.md' || file === 'CONTRIBUTING.md' || file.startsWith('docs/'));

/** The lines of a Markdown text outside fenced code blocks, each with code spans blanked out. */
function proseLines(markdown: string): string[] {
  let fence: string | null = null;
  const lines: string[] = [];
  for (const line of markdown.split('\n')) {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (marker && (fence === null || marker.startsWith(fence))) fence = fence === null ? marker : null;
    else if (fence === null) lines.push(line);
  }
  return lines;
}

/** A heading's anchor as GitHub makes it: the text as shown, lowercased, punctuation removed, each space a '-'. */
function slug(heading: string): string {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // a link or an image shows its text
    .replace(/<[^>]+>/g, '') // HTML tags show nothing
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors a Markdown text's headings make, a repeated one numbered as GitHub numbers it (-1, -2, …). */
function anchors(markdown: string): Set<string> {
  const made = new Set<string>();
  for (const line of proseLines(markdown)) {
    const heading = /^ {0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const base = slug(heading);
    let anchor = base;
    for (let n = 1; made.has(anchor); n++) anchor = `${base}-${n}`;
    made.add(anchor);
  }
  return made;
}

/** The relative links of a Markdown text (inline links, images and link definitions), outside code. */
function relativeLinks(markdown: string): string[] {
  const targets: string[] = [];
  for (const line of proseLines(markdown)) {
    const prose = line.replace(/(`+)[^`]*?\1/g, '');
    for (const match of prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) targets.push(match[1]!);
    const definition = /^ {0,3}\[[^\]]+\]:\s*<?([^\s>]+)>?/.exec(prose);
    if (definition) targets.push(definition[1]!);
  }
  return targets.filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target));
}

/** What is wrong with each link of `file` ('target: why'), none when every one leads somewhere. */
function brokenLinks(file: string): string[] {
  const broken: string[] = [];
  for (const target of relativeLinks(readFileSync(path.join(ROOT, file), 'utf8'))) {
    const [pathPart, anchor] = target.split('#', 2) as [string, string | undefined];
    const linked = pathPart === '' ? file : path.posix.normalize(path.posix.join(path.posix.dirname(file), decodeURI(pathPart)));
    if (linked.startsWith('../') || !existsSync(path.join(ROOT, linked))) {
      broken.push(`${target}: no file ${linked} in the project`);
    } else if (anchor !== undefined && linked.endsWith('.md') && statSync(path.join(ROOT, linked)).isFile()) {
      if (!anchors(readFileSync(path.join(ROOT, linked), 'utf8')).has(decodeURIComponent(anchor))) {
        broken.push(`${target}: no heading of ${linked} makes the anchor #${anchor}`);
      }
    }
  }
  return broken;
}

describe('the docs', () => {
  it('makes anchors as GitHub does', () => {
    expect(slug('9. Gas paid by the shop (smart wallets)')).toBe('9-gas-paid-by-the-shop-smart-wallets');
    expect(slug('3. Check before the first start: `npm run doctor`')).toBe('3-check-before-the-first-start-npm-run-doctor');
    expect(slug('sponsored-gas.ts')).toBe('sponsored-gasts');
    expect(slug('Architecture — how it is built here')).toBe('architecture--how-it-is-built-here');
    expect(slug("A shopper's cart, in [the API](api.md) and `GET /api/cart`")).toBe('a-shoppers-cart-in-the-api-and-get-apicart');
    expect(slug('`PAYMASTER_ADDRESS` and Café')).toBe('paymaster_address-and-café');
    expect([...anchors('# Logs\n\n## Logs\n\n```sh\n# not a heading\n```\n\n### Logs ###\n')]).toEqual(['logs', 'logs-1', 'logs-2']);
  });

  it('finds the relative links, outside code, and only those', () => {
    const text = [
      'See [payments](payments.md#2-which-checkout-a-transfer-pays), [the site](https://example.com), [top](#logs),',
      '`[not a link](x.md)` and ![an icon](../public/icon.svg "the icon").',
      '```md',
      '[in a fence](fenced.md)',
      '```',
      '[notes]: <decisions/README.md>',
    ].join('\n');
    expect(relativeLinks(text)).toEqual([
      'payments.md#2-which-checkout-a-transfer-pays',
      '#logs',
      '../public/icon.svg',
      'decisions/README.md',
    ]);
  });

  it('has pages to check', () => {
    expect(PAGES).toContain('README.md');
    expect(PAGES.filter((file) => file.startsWith('docs/')).length).toBeGreaterThan(1);
  });

  it.each(PAGES)('%s is at most 8 KB', (page) => {
    expect(readFileSync(path.join(ROOT, page)).byteLength).toBeLessThanOrEqual(MAX_PAGE_BYTES);
  });

  it.each(MARKDOWN)('%s links only to files and headings that exist', (file) => {
    expect(brokenLinks(file)).toEqual([]);
  });
});
