import type { EmulatorProductInput, EmulatorVariantInput, ProductStatus } from './emulator-state';
import type { ShopifyEmulator } from './emulator';

// The POGS demo shop. Besides looking like a real merch store it deliberately covers the awkward
// cases the storefront and sync must handle: colour/size variant titles, 'Default Title' and
// 'One Size' products, more variants than one page (12 > variantsFirst 10), 0 / 1 / 2–5 / >5
// images, sold-out and low-stock variants (and fully sold-out products), HTML descriptions with
// entities, lists, 'Size guide:' lines, pipes and >5 lines, an empty description, empty
// vendor/productType, >5 tags, null SKUs and one DRAFT product.
//
// Ids derive from each product's fixed number `n`, so they stay stable when entries are
// reordered; updatedAt values are fixed 2026 timestamps (two are equal, to exercise tie-breaks).

interface DemoProduct {
  n: number;
  title: string;
  productType: string;
  vendor?: string;
  tags: string[];
  status?: ProductStatus;
  descriptionHtml: string;
  createdAt: string;
  updatedAt: string;
  /** One entry per image: its alt text (null = none). */
  images: Array<string | null>;
  /** Option names; variant titles are their values joined with ' / '. None → a single 'Default Title'. */
  options?: string[];
  /** [title, inventoryQuantity, overrides] */
  variants: Array<[string, number, Partial<EmulatorVariantInput>?]>;
  price: string;
  compareAtPrice?: string;
  /** SKU stem; null → variants have no SKU. */
  sku: string | null;
  /** Image position shown for a variant, keyed by its first option value (its colour). */
  variantImages?: Record<string, number>;
}

const PRODUCT_ID_BASE = 8_642_798_420_000;
const VARIANT_ID_BASE = 43_448_235_300_000;
const MEDIA_ID_BASE = 31_200_000_000_000;

const DEMO: DemoProduct[] = [
  {
    n: 1,
    title: 'Classic Hoodie',
    productType: 'Hoodies',
    tags: ['apparel', 'heritage', 'hoodie', 'bestseller', 'winter', 'unisex', 'fleece'],
    descriptionHtml:
      '<p><strong>The Classic Hoodie</strong> &mdash; heavyweight fleece with the original 1993 POGS slammer logo.</p>' +
      '<ul><li>400 gsm brushed-back fleece</li><li>Double-lined hood &amp; kangaroo pocket</li><li>Ribbed cuffs and hem</li></ul>' +
      '<p>Cotton | Polyester | Elastane</p>' +
      '<p>Size guide: S 51 cm chest, M 54 cm, L 57 cm, XL 60 cm</p>' +
      '<p>Machine wash cold.<br>Tumble dry low.<br>Don&#39;t iron the print.</p>',
    createdAt: '2025-09-02T10:00:00Z',
    updatedAt: '2026-03-14T09:30:00Z',
    images: ['Classic Hoodie in black, front', 'Classic Hoodie in black, back print', 'Heather Grey colourway', 'Forest Green colourway'],
    options: ['Color', 'Size'],
    variants: [
      ['Black / S', 8],
      ['Black / M', 0],
      ['Black / L', 9],
      ['Black / XL', 2],
      ['Heather Grey / S', 6],
      ['Heather Grey / M', 11],
      ['Heather Grey / L', 0],
      ['Heather Grey / XL', 3],
      ['Forest Green / M', 5],
      ['Forest Green / L', 7],
      ['Forest Green / XL', 1],
      ['Navy / L', 4],
    ],
    price: '64.99',
    sku: 'PG-HOOD-CLS',
    variantImages: { Black: 1, 'Heather Grey': 3, 'Forest Green': 4 },
  },
  {
    n: 2,
    title: 'Heritage Logo Tee',
    productType: 'T-Shirts',
    tags: ['apparel', 'heritage', 'tee'],
    descriptionHtml:
      '<p>Soft ringspun tee with the &quot;Heritage&quot; POGS crest on the chest.</p><p>100% cotton&nbsp;&middot;&nbsp;Regular fit</p>',
    createdAt: '2025-09-02T10:05:00Z',
    updatedAt: '2026-02-01T12:00:00Z',
    images: ['Heritage Logo Tee, front', 'Crest detail', 'Worn on model'],
    options: ['Size'],
    variants: [
      ['S', 2],
      ['M', 25],
      ['L', 18],
      ['XL', 8],
      ['XXL', 0],
    ],
    price: '29.99',
    sku: 'PG-TEE-HER',
  },
  {
    n: 3,
    title: 'Vintage Wash Slammer Tee',
    productType: 'T-Shirts',
    tags: ['apparel', 'vintage', 'tee', 'sale'],
    descriptionHtml:
      '<p>Garment-dyed and stone-washed for that 1994 schoolyard look.</p>' +
      '<p>Size guide: runs small &mdash; size up for a relaxed fit.</p>',
    createdAt: '2025-10-11T08:00:00Z',
    updatedAt: '2026-04-20T16:45:00Z',
    images: ['White vintage wash tee', 'Sand vintage wash tee'],
    options: ['Color', 'Size'],
    variants: [
      ['White / M', 12],
      ['White / L', 6],
      ['Sand / M', 3],
      ['Sand / L', 0],
    ],
    price: '34.99',
    compareAtPrice: '39.99',
    sku: 'PG-TEE-VWS',
    variantImages: { White: 1, Sand: 2 },
  },
  {
    n: 4,
    title: 'OG Milk Caps Starter Pack',
    productType: 'Pogs',
    tags: ['pogs', 'milk caps', 'starter', 'collectible', 'heritage', 'gift', 'bestseller'],
    descriptionHtml:
      '<p>Everything you need to start playing: <strong>40 original-art milk caps</strong>, 2 slammers and a rules card.</p>' +
      '<ul><li>40 caps, 41 mm, 1.2 mm board</li><li>2 plastic slammers</li><li>Rules card &amp; score pad</li></ul>' +
      '<p>Ages 6+ &mdash; small parts.</p>',
    createdAt: '2025-06-15T09:00:00Z',
    updatedAt: '2026-05-02T07:15:00Z',
    images: ['Starter pack box', 'Caps fanned out', 'Slammers', 'Rules card', 'Cap art close-up', 'Back of box', 'Game in progress'],
    variants: [['Default Title', 140]],
    price: '14.99',
    sku: 'PG-CAP-START',
  },
  {
    n: 5,
    title: 'Series 1 Milk Caps - 50 Pack',
    productType: 'Pogs',
    tags: ['pogs', 'milk caps', 'series 1'],
    descriptionHtml: '<p>Fifty caps from the Series&nbsp;1 reissue, randomly assorted.</p><p>Includes 3 foil chase caps.</p>',
    createdAt: '2025-06-15T09:10:00Z',
    updatedAt: '2026-05-10T10:00:00Z',
    images: ['50 pack sleeve', 'Assorted caps', 'Foil chase cap', 'Cap backs', null],
    variants: [['Default Title', 3]],
    price: '24.99',
    compareAtPrice: '29.99',
    sku: 'PG-CAP-S1-50',
  },
  {
    n: 6,
    title: 'Chrome Skull Slammer',
    productType: 'Slammers',
    tags: ['slammer', 'metal', 'collectible'],
    descriptionHtml:
      '<p>Die-cast slammer with the skull emblem. Heavy enough to flip a full stack.</p>' + '<p>Zinc alloy | Chrome plate | 45 mm</p>',
    createdAt: '2025-07-01T11:00:00Z',
    // Same instant as n=5 on purpose: UPDATED_AT paging must break the tie by id.
    updatedAt: '2026-05-10T10:00:00Z',
    images: ['Chrome finish', 'Gold finish', 'Black Nickel finish'],
    options: ['Finish'],
    variants: [
      ['Chrome', 30],
      ['Gold', 1, { price: '12.99' }],
      ['Black Nickel', 8],
    ],
    price: '9.99',
    sku: 'PG-SLM-SKL',
    variantImages: { Chrome: 1, Gold: 2, 'Black Nickel': 3 },
  },
  {
    n: 7,
    title: 'Yin-Yang Slammer',
    productType: 'Slammers',
    tags: ['slammer', 'sold out'],
    descriptionHtml: '<p>The balance slammer. Back soon &mdash; every weight is sold out.</p>',
    createdAt: '2025-07-01T11:05:00Z',
    updatedAt: '2026-01-22T18:00:00Z',
    images: ['Yin-Yang slammer'],
    options: ['Weight'],
    variants: [
      ['Standard', 0],
      ['Heavyweight', 0, { price: '11.99' }],
    ],
    price: '8.99',
    sku: 'PG-SLM-YY',
  },
  {
    n: 8,
    title: 'Pog Tube',
    productType: 'Accessories',
    tags: ['accessories', 'storage'],
    descriptionHtml: '<p>Screw-top tube that holds 30 caps.</p><p>Clear | Smoke | Neon Green</p>',
    createdAt: '2025-07-20T13:00:00Z',
    updatedAt: '2026-03-03T08:00:00Z',
    images: ['Tubes in three colours', 'Tube with caps inside'],
    options: ['Color'],
    variants: [
      ['Clear', 45],
      ['Smoke', 0],
      ['Neon Green', 12],
    ],
    price: '6.99',
    sku: 'PG-TUBE',
  },
  {
    n: 9,
    title: 'Collector Binder',
    productType: 'Accessories',
    tags: ['accessories', 'storage', 'collector'],
    descriptionHtml:
      '<p>Padded 3-ring binder with 10 sleeve pages (12 caps per page).</p>' +
      '<ul><li>Holds 120 caps</li><li>Acid-free sleeves</li><li>Embossed POGS logo</li></ul>',
    createdAt: '2025-08-05T09:00:00Z',
    updatedAt: '2026-06-11T14:20:00Z',
    images: ['Binder cover', 'Open binder', 'Sleeve page', 'Spine', 'Back cover', 'Binder full of caps'],
    options: ['Size'],
    variants: [['One Size', 25]],
    price: '19.99',
    sku: 'PG-BINDER',
  },
  {
    n: 10,
    title: 'Sticker Sheet Vol. 1',
    productType: 'Stickers',
    vendor: '',
    tags: ['stickers'],
    descriptionHtml: '<p>12 die-cut vinyl stickers of classic cap art.</p>',
    createdAt: '2025-08-20T10:00:00Z',
    updatedAt: '2026-02-14T11:11:00Z',
    images: [],
    variants: [['Default Title', 60]],
    price: '4.99',
    sku: null,
  },
  {
    n: 11,
    title: 'Holo Sticker Pack',
    productType: '',
    tags: ['stickers', 'holographic'],
    descriptionHtml: '<p>Five holographic stickers.<br>Waterproof &amp; UV-safe.</p>',
    createdAt: '2025-08-20T10:10:00Z',
    updatedAt: '2026-07-01T09:00:00Z',
    images: ['Holo stickers'],
    variants: [['Default Title', 2]],
    price: '7.50',
    sku: 'PG-STK-HOLO',
  },
  {
    n: 12,
    title: 'Kini Art Poster',
    productType: 'Posters',
    tags: ['poster', 'art', 'wall'],
    descriptionHtml:
      '<p>Giclée print of the &quot;Kini&quot; cap artwork on 200 gsm matte paper.</p><p>Size guide: 18×24 in fits an A2 frame.</p>',
    createdAt: '2025-09-15T12:00:00Z',
    updatedAt: '2026-04-02T13:00:00Z',
    images: ['Poster, full view', 'Poster framed on a wall'],
    options: ['Size'],
    variants: [
      ['18×24', 10, { sku: 'PG-PST-KINI-18X24' }],
      ['24×36', 4, { price: '29.00', sku: 'PG-PST-KINI-24X36' }],
    ],
    price: '19.00',
    sku: 'PG-PST-KINI',
  },
  {
    n: 13,
    title: 'Tournament Poster 1994',
    productType: 'Posters',
    tags: ['poster', 'tournament'],
    descriptionHtml: '',
    createdAt: '2025-09-15T12:10:00Z',
    updatedAt: '2026-01-05T08:00:00Z',
    images: [],
    variants: [['Default Title', 15]],
    price: '15.00',
    sku: 'PG-PST-T94',
  },
  {
    n: 14,
    title: 'Heritage Mug',
    productType: 'Mugs',
    tags: ['mug', 'kitchen', 'gift'],
    descriptionHtml: '<p>Ceramic mug with a wrap-around cap collage.</p><p>Dishwasher &amp; microwave safe.</p>',
    createdAt: '2025-10-01T09:00:00Z',
    updatedAt: '2026-06-30T17:00:00Z',
    images: ['Mug, front', 'Mug, handle side', 'Mug with coffee'],
    options: ['Size'],
    variants: [
      ['11 oz', 20],
      ['15 oz', 2, { price: '18.99' }],
    ],
    price: '16.99',
    sku: 'PG-MUG',
  },
  {
    n: 15,
    title: 'Logo Crew Socks',
    productType: 'Socks',
    tags: ['apparel', 'socks'],
    descriptionHtml: '<p>Cushioned crew socks with a jacquard slammer.</p><p>Cotton | Nylon | Elastane</p>',
    createdAt: '2025-10-03T09:00:00Z',
    updatedAt: '2026-03-28T10:30:00Z',
    images: ['Socks pair', 'Jacquard detail'],
    options: ['Size'],
    variants: [
      ['S/M', 16],
      ['L/XL', 1],
    ],
    price: '12.00',
    sku: 'PG-SOCK',
  },
  {
    n: 16,
    title: 'Canvas Tote Bag',
    productType: 'Bags',
    tags: ['bag', 'tote', 'canvas', 'eco', 'gift', 'accessories', 'heritage', 'everyday'],
    descriptionHtml: '<p>12 oz natural canvas tote with inner pocket.</p><p>38 × 42 cm &mdash; long handles.</p>',
    createdAt: '2025-10-10T09:00:00Z',
    updatedAt: '2026-08-08T08:08:00Z',
    images: ['Canvas tote bag'],
    options: ['Size'],
    variants: [['One Size', 40]],
    price: '22.00',
    sku: 'PG-TOTE',
  },
  {
    n: 17,
    title: 'Snapback Cap',
    productType: 'Hats',
    tags: ['hat', 'snapback', 'apparel'],
    descriptionHtml: '<p>Six-panel snapback with a 3D-embroidered cap badge.</p><p>One size fits most.</p>',
    createdAt: '2025-10-20T09:00:00Z',
    updatedAt: '2026-05-25T15:00:00Z',
    images: ['Black snapback', 'Cream snapback', 'Royal Blue snapback'],
    options: ['Color'],
    variants: [
      ['Black', 9],
      ['Cream', 3],
      ['Royal Blue', 0],
    ],
    price: '27.99',
    sku: 'PG-HAT-SNP',
    variantImages: { Black: 1, Cream: 2, 'Royal Blue': 3 },
  },
  {
    n: 18,
    title: 'Dad Cap',
    productType: 'Hats',
    tags: ['hat', 'apparel'],
    descriptionHtml: '<p>Washed cotton dad cap with a small embroidered slammer.</p>',
    createdAt: '2025-10-20T09:10:00Z',
    updatedAt: '2026-02-27T12:00:00Z',
    images: ['Dad cap'],
    options: ['Size'],
    variants: [['One Size', 0]],
    price: '24.99',
    sku: 'PG-HAT-DAD',
  },
  {
    n: 19,
    title: 'Bucket Hat',
    productType: 'Hats',
    tags: ['hat', 'summer'],
    descriptionHtml: '<p>Reversible bucket hat: solid on one side, cap print on the other.</p><p>Size guide: S/M 56 cm, L/XL 59 cm</p>',
    createdAt: '2025-11-01T09:00:00Z',
    updatedAt: '2026-06-01T06:00:00Z',
    images: [],
    options: ['Size'],
    variants: [
      ['S/M', 7],
      ['L/XL', 5],
    ],
    price: '26.00',
    sku: 'PG-HAT-BKT',
  },
  {
    n: 20,
    title: 'Kids Logo Tee',
    productType: 'T-Shirts',
    tags: ['apparel', 'kids', 'tee'],
    descriptionHtml: '<p>The Heritage tee, sized for the next generation of players.</p>',
    createdAt: '2025-11-05T09:00:00Z',
    updatedAt: '2026-03-09T09:00:00Z',
    images: ['Kids tee'],
    options: ['Size'],
    variants: [
      ['XS', 4],
      ['S', 10],
      ['M', 0],
    ],
    price: '19.99',
    sku: 'PG-TEE-KID',
  },
  {
    n: 21,
    title: 'Long Sleeve Tee',
    productType: 'T-Shirts',
    tags: ['apparel', 'tee', 'long sleeve'],
    descriptionHtml:
      '<p>Long sleeve tee with sleeve hits.</p>' +
      '<ul><li>Left sleeve: &quot;SLAM&quot;</li><li>Right sleeve: &quot;FLIP&quot;</li></ul>' +
      '<p>Size guide: fits true to size.</p><p>Cotton | Modal</p>',
    createdAt: '2025-11-12T09:00:00Z',
    updatedAt: '2026-07-19T19:00:00Z',
    images: ['Black long sleeve, front', 'Black long sleeve, sleeve', 'White long sleeve, front', 'White long sleeve, sleeve', 'Lifestyle'],
    options: ['Color', 'Size'],
    variants: [
      ['Black / M', 8],
      ['Black / L', 2],
      ['White / M', 5],
      ['White / L', 0],
      ['White / XL', 6],
    ],
    price: '39.99',
    sku: 'PG-TEE-LS',
    variantImages: { Black: 1, White: 3 },
  },
  {
    n: 22,
    title: 'Limited Pullover Hoodie',
    productType: 'Hoodies',
    tags: ['apparel', 'hoodie', 'limited'],
    status: 'DRAFT',
    descriptionHtml: '<p>Numbered limited run &mdash; not yet released.</p>',
    createdAt: '2026-01-10T09:00:00Z',
    updatedAt: '2026-08-20T09:00:00Z',
    images: ['Limited hoodie, front', 'Numbered label'],
    options: ['Size'],
    variants: [
      ['S', 10],
      ['M', 10],
      ['L', 10],
    ],
    price: '79.99',
    sku: 'PG-HOOD-LTD',
  },
  {
    n: 23,
    title: 'Zip Hoodie',
    productType: 'Hoodies',
    tags: ['apparel', 'hoodie', 'zip'],
    descriptionHtml:
      '<p><strong>Full-zip hoodie</strong> with metal YKK zip and embroidered cap on the chest.</p>' +
      '<p>Cotton | Polyester</p>' +
      '<p>Size guide: S 50 cm, M 53 cm, L 56 cm (half chest)</p>' +
      '<ul><li>Split kangaroo pocket</li><li>Flat drawcords</li></ul>' +
      '<p>Wash inside out.</p><p>Do not tumble dry.</p>',
    createdAt: '2025-12-01T09:00:00Z',
    updatedAt: '2026-09-01T10:00:00Z',
    images: [
      'Charcoal zip hoodie, front',
      'Charcoal zip hoodie, back',
      'Charcoal, hood up',
      'Oatmeal zip hoodie, front',
      'Oatmeal zip hoodie, back',
      'Zip pull detail',
      'Embroidery detail',
      null,
    ],
    options: ['Color', 'Size'],
    variants: [
      ['Charcoal / S', 3],
      ['Charcoal / M', 12],
      ['Charcoal / L', 9],
      ['Oatmeal / M', 0],
      ['Oatmeal / L', 4],
    ],
    price: '69.99',
    sku: 'PG-HOOD-ZIP',
    variantImages: { Charcoal: 1, Oatmeal: 4 },
  },
  {
    n: 24,
    title: 'Enamel Pin Set',
    productType: 'Accessories',
    tags: ['pins', 'accessories', 'gift'],
    descriptionHtml: '<p>Set of 3 hard-enamel pins: cap, slammer &amp; tube.</p>',
    createdAt: '2025-12-05T09:00:00Z',
    updatedAt: '2026-04-14T09:00:00Z',
    images: ['Pin set on card', 'Pins on a denim jacket'],
    variants: [['Default Title', 33]],
    price: '11.99',
    sku: null,
  },
  {
    n: 25,
    title: 'Slammer Playmat',
    productType: 'Accessories',
    vendor: '',
    tags: ['playmat', 'accessories'],
    descriptionHtml: 'Neoprene playmat with printed target rings. 60 × 60 cm.',
    createdAt: '2025-12-10T09:00:00Z',
    updatedAt: '2026-08-30T21:00:00Z',
    images: ['Playmat from above'],
    variants: [['Default Title', 18]],
    price: '17.50',
    sku: 'PG-MAT',
  },
  {
    n: 26,
    title: 'Mystery Slammer Bundle',
    productType: '',
    vendor: '',
    tags: ['mystery', 'bundle'],
    descriptionHtml: '<p>Three random slammers. No peeking!</p>',
    createdAt: '2026-01-15T09:00:00Z',
    updatedAt: '2026-09-10T12:00:00Z',
    images: [],
    variants: [['Default Title', 50]],
    price: '9.99',
    sku: 'PG-SLM-MYST',
  },
  {
    n: 27,
    title: 'Heritage Crewneck',
    productType: 'Sweatshirts',
    tags: ['apparel', 'crewneck', 'heritage', 'sale'],
    descriptionHtml:
      '<p>Loopback crewneck with a puff-print crest.</p><p>Size guide: boxy fit &mdash; take your usual size.</p><p>Cotton | Polyester</p>',
    createdAt: '2026-02-01T09:00:00Z',
    updatedAt: '2026-09-15T09:45:00Z',
    images: ['Crewneck, front', 'Puff-print detail', 'Crewneck, back'],
    options: ['Size'],
    variants: [
      ['S', 5],
      ['M', 0],
      ['L', 11],
      ['XL', 6],
      ['XXL', 2],
    ],
    price: '54.99',
    compareAtPrice: '64.99',
    sku: 'PG-CREW',
  },
];

const SKU_CODES: Record<string, string> = {
  Black: 'BLK',
  'Heather Grey': 'HGRY',
  'Forest Green': 'FGRN',
  Navy: 'NVY',
  White: 'WHT',
  Sand: 'SND',
  Chrome: 'CHR',
  Gold: 'GLD',
  'Black Nickel': 'BKNI',
  Standard: 'STD',
  Heavyweight: 'HVY',
  Clear: 'CLR',
  Smoke: 'SMK',
  'Neon Green': 'NGRN',
  Cream: 'CRM',
  'Royal Blue': 'RBLU',
  Charcoal: 'CHAR',
  Oatmeal: 'OAT',
  'One Size': 'OS',
};

function skuPart(value: string): string {
  return SKU_CODES[value] ?? value.toUpperCase().replace(/[^A-Z0-9]+/g, '');
}

function toInput(d: DemoProduct): EmulatorProductInput {
  return {
    legacyId: String(PRODUCT_ID_BASE + d.n * 1_000),
    title: d.title,
    descriptionHtml: d.descriptionHtml,
    vendor: d.vendor ?? 'POGS',
    productType: d.productType,
    tags: [...d.tags],
    status: d.status ?? 'ACTIVE',
    createdAt: d.createdAt,
    updatedAt: d.updatedAt,
    images: d.images.map((alt, i) => ({ legacyId: String(MEDIA_ID_BASE + d.n * 100 + i + 1), alt })),
    variants: d.variants.map(([title, quantity, overrides], i): EmulatorVariantInput => {
      const values = title.split(' / ');
      const hasOptions = d.options && title !== 'Default Title';
      return {
        legacyId: String(VARIANT_ID_BASE + d.n * 100 + i + 1),
        title,
        sku: d.sku === null ? null : title === 'Default Title' ? d.sku : `${d.sku}-${values.map(skuPart).join('-')}`,
        barcode: d.n % 4 === 0 ? `0840${String(d.n * 100 + i + 1).padStart(8, '0')}` : null,
        price: d.price,
        compareAtPrice: d.compareAtPrice ?? null,
        inventoryQuantity: quantity,
        selectedOptions: hasOptions ? values.map((value, k) => ({ name: d.options![k], value })) : undefined,
        imagePosition: d.variantImages?.[values[0]] ?? null,
        createdAt: d.createdAt,
        updatedAt: d.updatedAt,
        ...overrides,
      };
    }),
  };
}

/** Fresh copies each call, so a reset never sees objects a previous run mutated. */
export function demoCatalogue(): EmulatorProductInput[] {
  return DEMO.map(toInput);
}

/** How many products the demo store has as it comes. */
export const DEMO_PRODUCT_COUNT = 27;

/**
 * A bigger demo store: the demo's own products copied (with new titles, handles and ids) until the
 * emulator holds `count` products. Each copy keeps its original's type, vendor, tags, description,
 * images and variants, so pages, search and filters see a realistic mix. Deterministic: the same
 * count makes the same store (ids follow the order of creation), on every start. Answers how many
 * products the store holds.
 */
export function growDemoStore(emulator: Pick<ShopifyEmulator, 'state' | 'upsertProduct'>, count: number): number {
  // The demo's own products, not copies of copies, however often the store is grown.
  const demo = emulator.state.listProducts().slice(0, DEMO_PRODUCT_COUNT);
  for (let i = emulator.state.listProducts().length; i < count; i++) {
    const base = demo[i % demo.length]!;
    emulator.upsertProduct({
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
  return emulator.state.listProducts().length;
}
