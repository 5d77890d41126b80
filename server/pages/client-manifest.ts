/**
 * What the client's build manifest (`dist/.vite/manifest.json`, written by `vite build`) says
 * about the pages the server renders: the URLs of each page's own chunk and of every chunk it
 * imports, which the page preloads beside the entry script (server/pages/shop-pages.ts). Without a
 * manifest (a test's bare index.html) pages preload nothing more.
 */
import fs from 'node:fs';
import path from 'node:path';
import { SHOP_PAGE_MODULES, type ShopPageKind } from '../../common/shop-render';
import type { Logger } from '../lib/logger';

interface ManifestChunk {
  file: string;
  imports?: string[];
}

type Manifest = Record<string, ManifestChunk | undefined>;

/** The URLs of `key`'s chunk and of the chunks it imports (statically, at any depth), in order. */
export function chunkUrls(manifest: Manifest, key: string): string[] {
  const urls: string[] = [];
  const seen = new Set<string>();
  const visit = (name: string) => {
    if (seen.has(name)) return;
    seen.add(name);
    const chunk = manifest[name];
    if (!chunk) return;
    urls.push(`/${chunk.file}`);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  visit(key);
  return urls;
}

/** Reads the manifest of the client built into `dir` once; answers each page's script URLs. */
export function pageScriptsOf(dir: string, logger: Logger): (kind: ShopPageKind) => readonly string[] {
  const file = path.join(dir, '.vite', 'manifest.json');
  if (!fs.existsSync(file)) return () => [];
  let manifest: Manifest;
  try {
    manifest = JSON.parse(fs.readFileSync(file, 'utf8')) as Manifest;
  } catch (err) {
    logger.error({ err, file }, 'the client build manifest could not be read: pages preload their entry script only');
    return () => [];
  }
  const byKind = new Map<ShopPageKind, readonly string[]>();
  for (const [kind, key] of Object.entries(SHOP_PAGE_MODULES) as Array<[ShopPageKind, string]>) {
    const urls = chunkUrls(manifest, key);
    if (urls.length === 0) logger.warn({ file, key }, 'the client build manifest has no chunk for a server-rendered page');
    byKind.set(kind, urls);
  }
  return (kind) => byKind.get(kind) ?? [];
}
