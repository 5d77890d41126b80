/**
 * The one place that decides what the production image holds: copies exactly the files a live
 * shop runs from into a folder, which the Dockerfile's final stage copies whole.
 *
 *   npx tsx scripts/stage-production.ts <out-dir>     (after `npm run build`)
 *
 * In: the compiled server files that the production entries (dist-server/main.js, doctor.js,
 * migrate.js, admin-link.js) reach, as esbuild's metafile lists them (scripts/build-server.ts), with their source
 * maps; the built client (dist/) and its server-rendering entry (dist-ssr/); package.json and
 * package-lock.json.
 * Out: dist-server/local/local-mode.js and every file only it reaches (the local chain and its guard, the
 * demo token, the Demo Wallet, the Shopify emulator), the metafile, and all source. A live shop
 * never reaches local mode: production refuses to start without real settings, so main.js's
 * dynamic import of local-mode.js never runs there (and says "a production build" if it did).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Metafile } from 'esbuild';
import { LOCAL_ENTRIES, METAFILE_NAME, PRODUCTION_ENTRIES, SERVER_OUT_DIR } from './build-server';

const FOLDERS = ['dist', 'dist-ssr'];
const FILES = ['package.json', 'package-lock.json'];

function walk(root: string, dir: string, out: string[]): void {
  for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const relative = `${dir}/${entry.name}`;
    if (entry.isDirectory()) walk(root, relative, out);
    else if (entry.isFile()) out.push(relative);
  }
}

/** The server's metafile under `root` (written by scripts/build-server.ts). */
export function readServerMetafile(root: string): Metafile {
  const file = path.join(root, SERVER_OUT_DIR, METAFILE_NAME);
  if (!fs.existsSync(file)) throw new Error(`stage-production: ${SERVER_OUT_DIR}/${METAFILE_NAME} is missing; run \`npm run build\` first`);
  return JSON.parse(fs.readFileSync(file, 'utf8')) as Metafile;
}

/**
 * The compiled server files (names in dist-server/) the production entries reach through their
 * imports, static or dynamic, stopping at the local-mode entry. A static import of it would make
 * production need local mode's code: refused.
 */
export function productionServerFiles(metafile: Metafile): string[] {
  const outputs = metafile.outputs;
  const entryOf = (source: string) => {
    const found = Object.keys(outputs).filter((file) => outputs[file].entryPoint === source);
    if (found.length !== 1) throw new Error(`stage-production: the metafile has ${found.length} outputs for ${source}`);
    return found[0];
  };
  const localOnly = new Set(Object.values(LOCAL_ENTRIES).map(entryOf));
  const reached = new Set<string>();
  const queue = Object.values(PRODUCTION_ENTRIES).map(entryOf);
  while (queue.length) {
    const file = queue.pop()!;
    if (reached.has(file)) continue;
    reached.add(file);
    for (const ref of outputs[file].imports) {
      if (ref.external) continue;
      if (localOnly.has(ref.path)) {
        if (ref.kind !== 'dynamic-import')
          throw new Error(`stage-production: ${file} imports ${ref.path} statically; reach local mode by a dynamic import only`);
        continue;
      }
      queue.push(ref.path);
    }
  }
  const files = [...reached];
  for (const file of reached) if (outputs[`${file}.map`]) files.push(`${file}.map`);
  return files.sort();
}

/** Every file production needs, relative to `root`, sorted. A missing dist/ or dist-ssr/ is skipped (the CLI refuses it). */
export function productionFiles(root: string): string[] {
  const files = productionServerFiles(readServerMetafile(root)).map((file) => `${SERVER_OUT_DIR}/${file}`);
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
  // The image serves the built client and renders its first pages: staging without them would
  // ship a shop with no pages.
  for (const needed of ['dist/index.html', 'dist-ssr/entry-server.js', `${SERVER_OUT_DIR}/${METAFILE_NAME}`]) {
    if (!fs.existsSync(path.join(root, needed))) {
      console.error(`stage-production: ${needed} is missing; run \`npm run build\` first`);
      process.exit(1);
    }
  }
  const files = stageProduction(root, path.resolve(outDir));
  console.log(`stage-production: ${files.length} files in ${outDir}`);
}
