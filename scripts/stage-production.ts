/**
 * The one place that decides what the production image holds: copies exactly the files a live
 * shop runs from into a folder, which the Dockerfile's final stage copies whole.
 *
 *   npx tsx scripts/stage-production.ts <out-dir>     (after `npm run build`)
 *
 * In: the built client (dist/) and its server-rendering entry (dist-ssr/), common/, server/, migrations/, package.json and package-lock.json.
 * Out: every test file, the test harness (server/test/), the local-mode wiring
 * (server/local-shopify.ts, which imports the emulator) and everything outside those folders
 * (emulators/, client sources, e2e/, bench/, scripts/). A live shop never reaches local mode:
 * production refuses to start without real settings, so main.ts's dynamic import of the
 * local-mode wiring never runs there.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const FOLDERS = ['dist', 'dist-ssr', 'common', 'server', 'migrations'];
const FILES = ['package.json', 'package-lock.json'];

/** Paths (relative, '/'-separated) that never go into the image even inside FOLDERS. */
function excluded(relative: string): boolean {
  return (
    /\.test\.tsx?$/.test(relative) ||
    relative.startsWith('server/test/') ||
    relative === 'server/local-shopify.ts' ||
    relative.split('/').includes('node_modules')
  );
}

function walk(root: string, dir: string, out: string[]): void {
  for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const relative = `${dir}/${entry.name}`;
    if (entry.isDirectory()) walk(root, relative, out);
    else if (entry.isFile() && !excluded(relative)) out.push(relative);
  }
}

/** Every file production needs, relative to `root`, sorted. A missing folder (dist before a build) is skipped. */
export function productionFiles(root: string): string[] {
  const files: string[] = [];
  for (const dir of FOLDERS) if (fs.existsSync(path.join(root, dir))) walk(root, dir, files);
  for (const file of FILES) if (fs.existsSync(path.join(root, file))) files.push(file);
  return files.sort();
}

/** Copies productionFiles(root) into `outDir` (made if missing, must be empty); answers the list. */
export function stageProduction(root: string, outDir: string): string[] {
  if (fs.existsSync(outDir) && fs.readdirSync(outDir).length > 0) throw new Error(`${outDir} is not empty`);
  const files = productionFiles(root);
  for (const file of files) {
    const target = path.join(outDir, file);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.copyFileSync(path.join(root, file), target);
  }
  return files;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const outDir = process.argv[2];
  if (!outDir) {
    console.error('usage: tsx scripts/stage-production.ts <out-dir>');
    process.exit(2);
  }
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  // The image serves the built client: staging without it would ship a shop with no pages.
  if (!fs.existsSync(path.join(root, 'dist', 'index.html'))) {
    console.error('stage-production: dist/index.html is missing; run `npm run build` first');
    process.exit(1);
  }
  const files = stageProduction(root, path.resolve(outDir));
  console.log(`stage-production: ${files.length} files in ${outDir}`);
}
