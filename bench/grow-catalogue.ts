/**
 * A bigger store for the benches that run the harness: the emulator's demo products copied until
 * Shopify holds `count` products (the emulator's growDemoStore, which `LOCAL_DEMO_PRODUCTS` also
 * uses for the shop as `npm start` runs it).
 */
import { growDemoStore } from '../emulators/shopify/demo-catalogue';
import type { Harness } from '../server/test/harness';

export const growCatalogue = (h: Pick<Harness, 'emulator'>, count: number): number => growDemoStore(h.emulator, count);
