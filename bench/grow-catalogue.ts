/**
 * A bigger store for the benches: the emulator's demo products copied (with new titles, handles
 * and ids) until Shopify holds `count` products. Each copy keeps its original's type, vendor,
 * tags, description, images and variants, so pages, search and filters see a realistic mix.
 */
import type { Harness } from '../server/test/harness';

export function growCatalogue(h: Pick<Harness, 'emulator'>, count: number): number {
  // The demo's own 27 products, not copies of copies, however often the store is grown.
  const demo = h.emulator.state.listProducts().slice(0, 27);
  for (let i = h.emulator.state.listProducts().length; i < count; i++) {
    const base = demo[i % demo.length];
    h.emulator.upsertProduct({
      title: `${base.title} #${i}`,
      handle: `${base.handle}-${i}`,
      descriptionHtml: base.descriptionHtml,
      vendor: base.vendor,
      productType: base.productType,
      tags: base.tags,
      status: 'ACTIVE',
      images: base.images.map((img) => ({ alt: img.alt })),
      variants: base.variants.map((v) => ({
        title: v.title,
        price: v.price,
        inventoryQuantity: v.inventoryQuantity + 1,
        selectedOptions: v.selectedOptions,
      })),
    });
  }
  return h.emulator.state.listProducts().length;
}
