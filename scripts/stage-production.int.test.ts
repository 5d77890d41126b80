// What the production image holds (scripts/stage-production.ts, run by the Dockerfile): the
// compiled server as a live shop runs it, the built client and its server-rendering entry; no
// local-mode code, test, harness or emulator; nothing in it that imports a file it does not have
// or a package that `npm install --omit=dev` leaves out; and that install as large as
// docs/operations.md says, without TypeScript or another development tool.
import fs from 'node:fs';
import { builtinModules } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build as esbuild } from 'esbuild';
import { build as viteBuild } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer, SERVER_OUT_DIR } from './build-server';
import { installProductionSet, measureProductionSet, megabytes } from './production-size';
import { readServerMetafile, stageProduction } from './stage-production';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * The loads allowed to point outside the image, each taken only in a mode production refuses:
 * main.js imports local-mode.js only in local mode (and says "a production build" when it is
 * missing), and db.ts requires knex-pglite and local-database.ts imports @electric-sql/pglite
 * (development dependencies) only for an embedded PGlite database, which production, always given
 * DATABASE_URL, never opens.
 */
const ALLOWED_MISSING_FILES = [{ file: 'dist-server/main.js', specifier: './local-mode.js', how: 'dynamic' }];
const ALLOWED_DEV_PACKAGES = [
  { specifier: '@electric-sql/pglite', how: 'dynamic' },
  { specifier: 'knex-pglite', how: 'require' },
];

interface LoadRef {
  file: string;
  specifier: string;
  how: 'static' | 'dynamic' | 'require';
}

/**
 * `require("x")`, a bundler's `__require("x")` and `createRequire(import.meta.url)("x")`: loads
 * through a require function made at run time, which no parser can tell from another call. Read
 * from the text, so a string that looks like one shows up too (a false alarm, never a miss).
 */
const REQUIRE = /(?:\b_*require|createRequire\w*\([^()]*\))\(\s*['"]([^'"]+)['"]\s*\)/g;

/**
 * Every load in `files` (relative to `dir`): the imports, static and dynamic, as esbuild's parser
 * sees them (each answered "external", so nothing is followed or bundled), and the require calls.
 */
async function loadsOf(dir: string, files: string[]): Promise<LoadRef[]> {
  const refs: LoadRef[] = [];
  await esbuild({
    absWorkingDir: dir,
    entryPoints: files,
    outdir: 'unused',
    write: false,
    bundle: true,
    platform: 'node',
    format: 'esm',
    logLevel: 'silent',
    plugins: [
      {
        name: 'record-loads',
        setup(build) {
          build.onResolve({ filter: /.*/ }, (args) => {
            if (args.kind === 'entry-point') return undefined;
            const how = args.kind === 'dynamic-import' ? 'dynamic' : args.kind.startsWith('require') ? 'require' : 'static';
            refs.push({ file: path.relative(dir, args.importer).split(path.sep).join('/'), specifier: args.path, how });
            return { path: args.path, external: true };
          });
        },
      },
    ],
  });
  for (const file of files) {
    for (const m of fs.readFileSync(path.join(dir, file), 'utf8').matchAll(REQUIRE)) refs.push({ file, specifier: m[1], how: 'require' });
  }
  return refs;
}

function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

function listFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (rel: string) => {
    for (const entry of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const child = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(child);
      else out.push(child);
    }
  };
  walk('');
  return out.sort();
}

describe('the production file set', () => {
  // A build of this checkout, made here (not the shared dist-server/ and dist-ssr/), then staged.
  let work: string;
  let built: string;
  let staged: string;
  let files: string[];
  let refs: LoadRef[];
  let manifest: { dependencies: Record<string, string>; devDependencies: Record<string, string> };

  beforeAll(async () => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'pogs-stage-'));
    built = path.join(work, 'root');
    await buildServer(path.join(built, SERVER_OUT_DIR));
    await viteBuild({
      configFile: path.join(ROOT, 'vite.config.ts'),
      logLevel: 'silent',
      build: { ssr: 'entry-server.tsx', outDir: path.join(built, 'dist-ssr'), emptyOutDir: true },
    });
    // The client build is the browser's and imports nothing on the server: a stand-in suffices.
    fs.mkdirSync(path.join(built, 'dist'));
    fs.writeFileSync(path.join(built, 'dist', 'index.html'), '<!doctype html><title>POGS Shop</title>');
    for (const file of ['package.json', 'package-lock.json']) fs.copyFileSync(path.join(ROOT, file), path.join(built, file));

    staged = path.join(work, 'stage');
    stageProduction(built, staged);
    files = listFiles(staged);
    refs = await loadsOf(
      staged,
      files.filter((f) => /^(dist-server|dist-ssr)\/.*\.m?js$/.test(f)),
    );
    manifest = JSON.parse(fs.readFileSync(path.join(staged, 'package.json'), 'utf8'));
  });
  afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

  it('holds the compiled entries, the client, its server-rendering entry and the package manifests', () => {
    for (const needed of [
      'dist-server/main.js',
      'dist-server/doctor.js',
      'dist-server/migrate.js',
      'dist-server/admin-link.js',
      'dist-ssr/entry-server.js',
      'dist/index.html',
      'package.json',
      'package-lock.json',
    ]) {
      expect(files, needed).toContain(needed);
    }
    expect(files.filter((f) => !/^(dist|dist-ssr|dist-server)\//.test(f))).toEqual(['package-lock.json', 'package.json']);
  });

  it('holds no local-mode, test, harness or emulator code, and no source', () => {
    expect(files).not.toContain('dist-server/local/local-mode.js');
    expect(files).not.toContain('dist-server/anvil-guard.mjs');
    expect(files).not.toContain('dist-server/metafile.json');
    expect(files.filter((f) => /\.tsx?$/.test(f))).toEqual([]);
    // What each staged server file was compiled from (the build's metafile, made in this test).
    const metafile = readServerMetafile(built);
    const stagedServer = files.filter((f) => f.startsWith('dist-server/') && f.endsWith('.js')).map((f) => f.slice('dist-server/'.length));
    const sources = stagedServer.flatMap((f) => Object.keys(metafile.outputs[f].inputs));
    expect(sources).toContain('server/main.ts');
    expect(sources).toContain('server/app.ts');
    expect(sources).toContain('migrations/index.ts');
    const notForProduction = sources.filter(
      (s) =>
        /^(emulators|client|e2e|bench|scripts|server\/test|server\/chain)\//.test(s) ||
        /\.test\.tsx?$/.test(s) ||
        /^server\/local-(mode|shopify)\.ts$/.test(s),
    );
    expect(notForProduction).toEqual([]);
    // ...while the build did compile them, into what stays out.
    expect(Object.keys(metafile.outputs['local-mode.js'].inputs)).toEqual(
      expect.arrayContaining([
        'server/local/local-mode.ts',
        'server/local/local-shopify.ts',
        'server/chain/local-chain.ts',
        'emulators/shopify/index.ts',
      ]),
    );
  });

  it('finds the loads it checks (a parser that sees none would pass anything)', () => {
    const of = (file: string) => refs.filter((r) => r.file === file).map((r) => `${r.how} ${r.specifier}`);
    expect(of('dist-server/main.js')).toEqual(expect.arrayContaining(['static node:path', 'dynamic ./local-mode.js']));
    expect(of('dist-server/main.js').some((r) => /^static \.\/chunk-\w+\.js$/.test(r))).toBe(true);
    // Where a package's import lands (main.js or a chunk) is the bundler's choice.
    expect(refs.some((r) => r.specifier === 'koa' && r.how === 'static')).toBe(true);
    expect(refs.some((r) => r.specifier === 'knex' && r.how === 'static')).toBe(true);
    expect(refs.some((r) => r.specifier === 'knex-pglite' && r.how === 'require')).toBe(true);
    expect(refs.some((r) => r.file === 'dist-ssr/entry-server.js' && r.specifier.startsWith('./assets/'))).toBe(true);
  });

  it('resolves every relative load inside the image, except main.js’s dynamic import of local-mode.js', () => {
    const unresolved = refs
      .filter((r) => r.specifier.startsWith('.'))
      .filter((r) => !fs.existsSync(path.resolve(staged, path.dirname(r.file), r.specifier)))
      .map(({ file, specifier, how }) => ({ file, specifier, how }));
    expect(unresolved).toEqual(ALLOWED_MISSING_FILES);
  });

  it('loads at run time only Node built-ins and production dependencies (npm install --omit=dev)', () => {
    const builtins = new Set(builtinModules);
    const bare = refs.filter((r) => !r.specifier.startsWith('.') && !r.specifier.startsWith('/'));
    const notInstalled = bare
      .filter((r) => !r.specifier.startsWith('node:') && !builtins.has(r.specifier))
      .filter((r) => !(packageName(r.specifier) in manifest.dependencies))
      .map(({ specifier, how }) => ({ specifier, how }));
    expect([...new Map(notInstalled.map((r) => [`${r.how} ${r.specifier}`, r])).values()]).toEqual(ALLOWED_DEV_PACKAGES);
    // The server-rendering entry carries its libraries (vite.config.ts: ssr.noExternal): React is
    // not a run-time dependency.
    const ssrPackages = bare.filter(
      (r) => r.file.startsWith('dist-ssr/') && !r.specifier.startsWith('node:') && !builtins.has(r.specifier),
    );
    expect(ssrPackages).toEqual([]);
  });

  it('compiles no package into the server: every one it uses is loaded from node_modules, and none is viem', () => {
    // So each is in `dependencies` (the test above), installed by the image and counted in its size.
    const metafile = readServerMetafile(built);
    const stagedServer = files.filter((f) => f.startsWith('dist-server/') && f.endsWith('.js'));
    const bundled = stagedServer
      .flatMap((f) => Object.keys(metafile.outputs[f.slice('dist-server/'.length)].inputs))
      .filter((i) => i.includes('node_modules/'));
    expect(bundled).toEqual([]);
    // The sign-in's smart-account check is the shop's own validator, sent with ethers.
    expect(manifest.dependencies).not.toHaveProperty('viem');
    for (const file of stagedServer) expect(fs.readFileSync(path.join(staged, file), 'utf8'), file).not.toMatch(/viem/i);
  });

  // The figures docs/operations.md gives ("The image"), kept true: each within a tenth of what an
  // install of the staged manifests measures, as the image's final stage makes it.
  it(
    'installs (npm install --omit=dev) to the size docs/operations.md gives, with no TypeScript or development tool',
    { timeout: 180_000 },
    () => {
      const doc = fs.readFileSync(path.join(ROOT, 'docs', 'operations.md'), 'utf8');
      const figures = /(\d+) packages, (\d+) MB of files in `node_modules` \((\d+) MB on disk\)/.exec(doc);
      expect(figures, 'docs/operations.md names the production set’s figures').not.toBeNull();
      const [packages, mb, diskMb] = figures!.slice(1).map(Number);

      installProductionSet(staged);
      const size = measureProductionSet(staged);
      const near = (measured: number, documented: number) => Math.abs(measured - documented) <= documented / 10;
      const measured = `${size.packages} packages, ${megabytes(size.bytes).toFixed(0)} MB of files (${megabytes(size.diskBytes).toFixed(0)} MB on disk)`;
      expect(near(size.packages, packages), measured).toBe(true);
      expect(near(megabytes(size.bytes), mb), measured).toBe(true);
      expect(near(megabytes(size.diskBytes), diskMb), measured).toBe(true);

      expect(size.names).not.toContain('typescript');
      // A development dependency of the shop is installed only when a production package depends on
      // it outright (ethers lists @types/node); an optional peer of one (as TypeScript is of some
      // Ethereum libraries) is installed by npm whenever the project has it, and is what this catches.
      const lock = JSON.parse(fs.readFileSync(path.join(staged, 'node_modules', '.package-lock.json'), 'utf8')) as {
        packages: Record<string, { dependencies?: Record<string, string> }>;
      };
      const required = new Set([
        ...Object.keys(manifest.dependencies),
        ...Object.values(lock.packages).flatMap((p) => Object.keys(p.dependencies ?? {})),
      ]);
      expect(size.names.filter((name) => name in manifest.devDependencies && !required.has(name))).toEqual([]);
    },
  );

  it('lists as dependencies only what the compiled server loads (or a peer of what it loads needs)', () => {
    const loaded = new Set(refs.filter((r) => r.how !== 'require').map((r) => packageName(r.specifier)));
    const peers = new Set(
      [...loaded].flatMap((name) => {
        const file = path.join(ROOT, 'node_modules', name, 'package.json');
        if (!fs.existsSync(file)) return [];
        const pkg = JSON.parse(fs.readFileSync(file, 'utf8')) as { peerDependencies?: object; peerDependenciesMeta?: object };
        return [...Object.keys(pkg.peerDependencies ?? {}), ...Object.keys(pkg.peerDependenciesMeta ?? {})];
      }),
    );
    expect(Object.keys(manifest.dependencies).filter((name) => !loaded.has(name) && !peers.has(name))).toEqual([]);
    for (const name of ['react', 'react-dom', '@electric-sql/pglite', 'knex-pglite', '@foundry-rs/anvil', 'tsx', 'graphql', 'esbuild']) {
      expect(manifest.dependencies, name).not.toHaveProperty(name);
    }
  });
});
