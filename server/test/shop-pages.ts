/** What the tests of the shop's pages (the built client served by the server) share. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Harness } from './harness';

/**
 * A folder standing in for the built client (`dist/`), holding `indexHtml` as its index.html and
 * `manifest`, when given, as Vite's build manifest (`.vite/manifest.json`). `remove()` deletes it
 * and its `-ssr` sibling (where a test may build the server-rendering entry).
 */
export function makeClientDir(indexHtml: string, manifest?: object): { dir: string; remove: () => void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pogs-dist-'));
  fs.writeFileSync(path.join(dir, 'index.html'), indexHtml);
  if (manifest) {
    fs.mkdirSync(path.join(dir, '.vite'));
    fs.writeFileSync(path.join(dir, '.vite', 'manifest.json'), JSON.stringify(manifest));
  }
  return {
    dir,
    remove: () => {
      for (const each of [dir, `${dir}-ssr`]) fs.rmSync(each, { recursive: true, force: true });
    },
  };
}

/**
 * Renames an active product in Shopify (the emulator) to `title`, clears any title an admin set,
 * and syncs: the shop then lists it under exactly that title. Returns the product's id.
 */
export async function renameFirstActiveProduct(h: Harness, title: string): Promise<string> {
  const source = h.emulator.state.listProducts().find((p) => p.status === 'ACTIVE' && p.variants.length > 0)!;
  h.emulator.upsertProduct({
    legacyId: source.legacyId,
    title,
    handle: source.handle,
    status: 'ACTIVE',
    variants: source.variants.map((v) => ({
      legacyId: v.legacyId,
      title: v.title,
      price: v.price,
      inventoryQuantity: v.inventoryQuantity,
      selectedOptions: v.selectedOptions,
    })),
  });
  await h.database.db('products').where({ shopify_id: source.legacyId }).update({ custom_title: null });
  await h.catalogue.sync();
  return source.legacyId;
}
