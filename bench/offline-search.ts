/**
 * The home's search offline (`npm run bench:offline-search`): what a keystroke costs while the
 * home searches the products the device saved with the plain scan (common/catalogue-scan.ts), at
 * the most a device saves (about 3,500 products within the 4 MiB budget, client/app/offline-keep.ts):
 *  1. preparing the saved products (every text folded once; the home does it when what is saved
 *     changes, not at each keystroke);
 *  2. the scan of one view (each keystroke, filter or sort), per view, against preparing and
 *     scanning at each keystroke, in the same run.
 * Medians of ROUNDS. Node on this machine, not a phone: a mid-range phone runs such code a few
 * times slower. Printed as a Markdown table to paste into bench/README.md.
 */
import { performance } from 'node:perf_hooks';
import { prepareScan, scanCatalogue } from '../common/catalogue-scan';
import { DEFAULT_CATALOGUE_FILTER, type CatalogueFilter } from '../common/catalogue-view';
import { generateCatalogue } from '../server/test/generated-catalogue';

const PRODUCTS = Number(process.env.BENCH_PRODUCTS ?? 3500);
const ROUNDS = 21;

const VIEWS: [string, Partial<CatalogueFilter>][] = [
  ['no search (featured)', {}],
  ['one letter "c"', { q: 'c' }],
  ['a word "cafe"', { q: 'cafe' }],
  ['two words "slammer gold"', { q: 'slammer gold' }],
  ['no match "zzqx"', { q: 'zzqx' }],
  ['a type, price low to high', { type: 'pogs', sort: 'price-asc' }],
  ['a word and a tag, newest', { q: 'pog', tag: 'rare', sort: 'newest' }],
];

function median(run: () => unknown): number {
  const times: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const t0 = performance.now();
    run();
    times.push(performance.now() - t0);
  }
  return times.sort((a, b) => a - b)[Math.floor(ROUNDS / 2)];
}

function main() {
  // Descriptions of up to 60 words: about 1 KB of JSON a product, as the shop's are.
  const { products, rowIds } = generateCatalogue(PRODUCTS, { descriptionWords: 60 });
  const placeOf = (p: (typeof products)[number]) => rowIds.get(p.id)!;
  const kb = Math.round(JSON.stringify(products).length / 1024);
  const prepareMs = median(() => prepareScan(products, placeOf));
  const scanned = prepareScan(products, placeOf);

  const ms = (n: number) => `${n.toFixed(2)} ms`;
  console.log(`\n${PRODUCTS} products (${kb} KB of JSON); preparing them for the scan: ${ms(prepareMs)}\n`);
  console.log('| view | matches | scan (prepared once) | prepare and scan | saved by preparing once |');
  console.log('|---|---:|---:|---:|---:|');
  for (const [name, view] of VIEWS) {
    const filter = { ...DEFAULT_CATALOGUE_FILTER, ...view };
    const matches = scanCatalogue(scanned, filter).length;
    const scanMs = median(() => scanCatalogue(scanned, filter));
    const bothMs = median(() => scanCatalogue(prepareScan(products, placeOf), filter));
    console.log(`| ${name} | ${matches} | ${ms(scanMs)} | ${ms(bothMs)} | ${(bothMs / scanMs).toFixed(1)}× |`);
  }
}

main();
