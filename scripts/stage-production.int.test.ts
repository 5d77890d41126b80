// What the production image holds (scripts/stage-production.ts, run by the Dockerfile): no test,
// no harness, no emulator, and nothing in it that imports a file or a package it does not have.
import fs from 'node:fs';
import { builtinModules } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stageProduction } from './stage-production';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * The one import allowed to point outside the image: main.ts loads the local-mode wiring (and
 * through it the emulator) with a dynamic import only in local mode, which production never is.
 */
const ALLOWED_MISSING = [{ file: 'server/main.ts', specifier: './local-shopify', dynamic: true }];

interface ImportRef {
  file: string;
  specifier: string;
  dynamic: boolean;
  /** `import type` / `export type`: erased when the TypeScript runs, so it needs no package. */
  typeOnly: boolean;
}

const STATIC_IMPORT =
  /^\s*(?:import|export)\s+(type\s+)?(?:[\w$]+\s*,\s*)?(?:\{[^}]*\}|\*(?:\s+as\s+[\w$]+)?|[\w$]+)\s+from\s+['"]([^'"]+)['"]/gm;
const SIDE_EFFECT_IMPORT = /^\s*import\s+['"]([^'"]+)['"]/gm;
const DYNAMIC_IMPORT = /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;

function importsOf(file: string, source: string): ImportRef[] {
  const refs: ImportRef[] = [];
  for (const m of source.matchAll(STATIC_IMPORT)) refs.push({ file, specifier: m[2], dynamic: false, typeOnly: Boolean(m[1]) });
  for (const m of source.matchAll(SIDE_EFFECT_IMPORT)) refs.push({ file, specifier: m[1], dynamic: false, typeOnly: false });
  for (const m of source.matchAll(DYNAMIC_IMPORT)) refs.push({ file, specifier: m[1], dynamic: true, typeOnly: false });
  return refs;
}

/** How tsx resolves a relative specifier: as given, with a TypeScript/JSON extension, or a folder's index. */
function resolvesIn(dir: string, ref: ImportRef): boolean {
  const base = path.resolve(dir, path.dirname(ref.file), ref.specifier);
  const candidates = [base, `${base}.ts`, `${base}.tsx`, `${base}.json`, base.replace(/\.js$/, '.ts'), path.join(base, 'index.ts')];
  return candidates.some((c) => fs.existsSync(c) && fs.statSync(c).isFile());
}

function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

describe('the production file set', () => {
  let dir: string;
  let files: string[];
  let refs: ImportRef[];

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pogs-stage-'));
    stageProduction(ROOT, dir);
    const staged: string[] = [];
    const walk = (rel: string) => {
      for (const entry of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
        const child = rel ? `${rel}/${entry.name}` : entry.name;
        if (entry.isDirectory()) walk(child);
        else staged.push(child);
      }
    };
    walk('');
    files = staged.sort();
    refs = files.filter((f) => /\.tsx?$/.test(f)).flatMap((f) => importsOf(f, fs.readFileSync(path.join(dir, f), 'utf8')));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('holds the server, the shared code, the migrations and the package manifests', () => {
    for (const needed of ['server/main.ts', 'server/app.ts', 'common/api.ts', 'migrations/index.ts', 'package.json', 'package-lock.json']) {
      expect(files, needed).toContain(needed);
    }
  });

  it('holds no test, no test harness, no emulator and nothing of the dev tooling', () => {
    expect(files.filter((f) => /\.test\.tsx?$/.test(f))).toEqual([]);
    expect(files.filter((f) => /^(server\/test|emulators|e2e|bench|client|scripts)\//.test(f))).toEqual([]);
    expect(files).not.toContain('server/local-shopify.ts');
  });

  it('finds the imports it checks (a parser that sees none would pass anything)', () => {
    const mainImports = refs.filter((r) => r.file === 'server/main.ts').map((r) => r.specifier);
    expect(mainImports).toEqual(expect.arrayContaining(['./config', './app', 'node:path', './local-shopify']));
    expect(refs.some((r) => r.file === 'server/app.ts' && r.specifier.startsWith('../common/'))).toBe(true);
  });

  it('resolves every relative import inside the image, except main.ts’s dynamic import of the local-mode wiring', () => {
    const unresolved = refs
      .filter((r) => r.specifier.startsWith('.') && !resolvesIn(dir, r))
      .map(({ file, specifier, dynamic }) => ({ file, specifier, dynamic }));
    // A static import of the wiring or of the emulator from production code shows up here.
    expect(unresolved).toEqual(ALLOWED_MISSING);
  });

  it('imports at run time only Node built-ins and production dependencies (npm install --omit=dev)', () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    const builtins = new Set(builtinModules);
    const missing = refs
      .filter((r) => !r.specifier.startsWith('.') && !r.typeOnly)
      .filter((r) => !r.specifier.startsWith('node:') && !builtins.has(r.specifier))
      .filter((r) => !(packageName(r.specifier) in manifest.dependencies))
      .map((r) => `${r.file}: ${r.specifier}`);
    expect(missing).toEqual([]);
  });
});
