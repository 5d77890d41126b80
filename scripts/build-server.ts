/**
 * Compiles the server to plain JavaScript for Node (the last step of `npm run build`):
 *
 *   npx tsx scripts/build-server.ts
 *
 * esbuild bundles the server's own code (server/, common/, migrations/ and, for local mode only,
 * emulators/) into dist-server/, ESM, one file per entry point plus shared chunks beside them;
 * every package stays an `import` of node_modules, so each one the server loads is in
 * `dependencies` and installed in the image. The entries:
 *
 *  - main.js, doctor.js, migrate.js, admin-link.js: `npm start`, `npm run doctor`, `npm run
 *    migrate`, `npm run admin:link`, and all a live shop runs;
 *  - local-mode.js: the full local demo (anvil, the demo token, the Demo Wallet, the Shopify
 *    emulator), which main.js imports dynamically in local mode only;
 *  - anvil-guard.mjs: the local chain's guard, a process of its own (built separately, whole).
 *
 * The metafile (dist-server/metafile.json) says which output files each entry reaches:
 * scripts/stage-production.ts stages exactly those of the production entries.
 *
 * Every file lands in dist-server/ itself (no subfolders), one folder below the root as server/
 * is, so the paths the code resolves from `import.meta.url` (main.ts's dist/, the guard beside
 * local-chain.ts, createRequire) mean the same in the source and in the build.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type BuildOptions, type Metafile } from 'esbuild';
import { BUILD_STAMP, inputsHash } from './start';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const SERVER_OUT_DIR = 'dist-server';
export const METAFILE_NAME = 'metafile.json';

/** What a live shop runs: the production set is these entries and what they reach. */
export const PRODUCTION_ENTRIES = {
  main: 'server/main.ts',
  doctor: 'server/doctor.ts',
  migrate: 'server/migrate.ts',
  'admin-link': 'server/admin-link.ts',
};
/** Local mode only: built so that `npm start` runs compiled, never staged. */
export const LOCAL_ENTRIES = { 'local-mode': 'server/local/local-mode.ts' };
const GUARD_SOURCE = 'server/chain/anvil-guard.mjs';

const common: BuildOptions = {
  absWorkingDir: ROOT,
  bundle: true,
  platform: 'node',
  format: 'esm',
  // The oldest Node package.json allows; nothing here is newer than Node 24 understands.
  target: 'node20',
  packages: 'external',
  // Error names and class names in logs stay the source's.
  keepNames: true,
  sourcemap: 'linked',
  sourcesContent: false,
  logLevel: 'warning',
};

/**
 * Builds into `outDir` (emptied first; by default dist-server/, a test builds elsewhere) and writes
 * esbuild's metafile there, its output paths made relative to `outDir` (`main.js`, `chunk-….js`)
 * so it reads the same wherever the folder is; input paths stay relative to the root (`server/…`).
 */
export async function buildServer(outDir = path.join(ROOT, SERVER_OUT_DIR)): Promise<Metafile> {
  fs.rmSync(outDir, { recursive: true, force: true });
  const result = await build({
    ...common,
    entryPoints: { ...PRODUCTION_ENTRIES, ...LOCAL_ENTRIES },
    outdir: outDir,
    splitting: true,
    chunkNames: 'chunk-[hash]',
    metafile: true,
  });
  // The guard runs as `node anvil-guard.mjs` (its name is how a later start recognises it,
  // server/chain/leftover-chain.ts), so it is one file of its own, not an entry sharing chunks.
  await build({ ...common, entryPoints: [GUARD_SOURCE], outfile: path.join(outDir, 'anvil-guard.mjs') });
  const inOutDir = (file: string) => {
    const relative = path.relative(outDir, path.resolve(ROOT, file));
    if (relative.startsWith('..') || relative.includes(path.sep)) throw new Error(`build-server: ${file} is not directly in ${outDir}`);
    return relative;
  };
  const metafile: Metafile = {
    inputs: result.metafile.inputs,
    outputs: Object.fromEntries(
      Object.entries(result.metafile.outputs).map(([file, output]) => [
        inOutDir(file),
        { ...output, imports: output.imports.map((i) => (i.external ? i : { ...i, path: inOutDir(i.path) })) },
      ]),
    ),
  };
  fs.writeFileSync(path.join(outDir, METAFILE_NAME), JSON.stringify(metafile));
  return metafile;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const metafile = await buildServer();
  const outputs = Object.keys(metafile.outputs).filter((f) => f.endsWith('.js'));
  const entries = Object.keys({ ...PRODUCTION_ENTRIES, ...LOCAL_ENTRIES }).join(', ');
  console.log(`build-server: ${outputs.length} files in ${SERVER_OUT_DIR}/ (entries ${entries}) and anvil-guard.mjs`);
  // The last step of `npm run build`: what it was built from, so `npm start` knows it is current.
  fs.writeFileSync(path.join(ROOT, BUILD_STAMP), inputsHash());
}
