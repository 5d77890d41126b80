// In-memory shop data behind the emulator. Kept free of GraphQL and HTTP so tests can drive it
// directly; the resolvers only read from it.

export type ProductStatus = 'ACTIVE' | 'DRAFT' | 'ARCHIVED';

interface EmulatorImageInput {
  legacyId?: string;
  alt?: string | null;
  /** Absolute URL of a real picture; omitted → a generated SVG served by the emulator's /cdn. */
  url?: string;
  width?: number;
  height?: number;
}

export interface EmulatorVariantInput {
  legacyId?: string;
  /** Defaults to the option values joined with ' / ', or 'Default Title' without options (as Shopify does). */
  title?: string;
  sku?: string | null;
  barcode?: string | null;
  price?: string;
  compareAtPrice?: string | null;
  /** Shopify's default for a new variant is 0. */
  inventoryQuantity?: number;
  /** Defaults to inventoryQuantity > 0 (inventory tracked, policy DENY). */
  availableForSale?: boolean;
  selectedOptions?: Array<{ name: string; value: string }>;
  /** 1-based position of the product image shown for this variant. */
  imagePosition?: number | null;
  createdAt?: string;
  updatedAt?: string;
}

export interface EmulatorProductInput {
  /** Matches an existing product to update; otherwise an id is allocated. */
  legacyId?: string;
  handle?: string;
  /** Required for a new product; an update may leave it out. */
  title?: string;
  descriptionHtml?: string;
  vendor?: string;
  productType?: string;
  tags?: string[];
  status?: ProductStatus;
  createdAt?: string;
  /** Omitted → bumped to "now" on every upsert, which is what incremental sync relies on. */
  updatedAt?: string;
  images?: EmulatorImageInput[];
  variants?: EmulatorVariantInput[];
}

export interface EmulatorImage {
  legacyId: string;
  alt: string | null;
  url: string | null;
  width: number;
  height: number;
}

export interface EmulatorVariant {
  legacyId: string;
  /** The variant's inventory item (inventory_levels/update webhooks name it). */
  inventoryItemLegacyId: string;
  title: string;
  sku: string | null;
  barcode: string | null;
  price: string;
  compareAtPrice: string | null;
  inventoryQuantity: number;
  availableForSale: boolean;
  selectedOptions: Array<{ name: string; value: string }>;
  imagePosition: number | null;
  createdAt: string;
  updatedAt: string;
}

export interface EmulatorProduct {
  legacyId: string;
  handle: string;
  title: string;
  descriptionHtml: string;
  vendor: string;
  productType: string;
  tags: string[];
  status: ProductStatus;
  createdAt: string;
  updatedAt: string;
  images: EmulatorImage[];
  variants: EmulatorVariant[];
}

const DEFAULT_IMAGE_SIZE = 800;
// Id ranges for allocated ids: 13–14 digits like real Shopify ids, far below 2^53.
const ID_FLOORS = { product: 8_900_000_000_000, variant: 45_900_000_000_000, media: 32_900_000_000_000, inventoryItem: 47_900_000_000_000 };

export function toIsoSeconds(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function slugify(text: string): string {
  const slug = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return slug || 'product';
}

export class EmulatorState {
  private readonly products = new Map<string, EmulatorProduct>();
  private lastIds = { ...ID_FLOORS };

  constructor(
    private readonly seed: () => EmulatorProductInput[],
    private readonly now: () => number = Date.now,
  ) {
    this.reset();
  }

  /** Back to the seed catalogue; ids allocated afterwards restart, so runs are repeatable. */
  reset(): void {
    this.products.clear();
    this.lastIds = { ...ID_FLOORS };
    for (const input of this.seed()) this.writeProduct(input, input.updatedAt ?? toIsoSeconds(this.now()));
  }

  listProducts(): EmulatorProduct[] {
    return [...this.products.values()];
  }

  getProduct(legacyId: string): EmulatorProduct | undefined {
    return this.products.get(legacyId);
  }

  getProductByHandle(handle: string): EmulatorProduct | undefined {
    for (const p of this.products.values()) if (p.handle === handle) return p;
    return undefined;
  }

  findVariant(legacyId: string): { product: EmulatorProduct; variant: EmulatorVariant } | undefined {
    for (const product of this.products.values()) {
      const variant = product.variants.find((v) => v.legacyId === legacyId);
      if (variant) return { product, variant };
    }
    return undefined;
  }

  upsertProduct(input: EmulatorProductInput): EmulatorProduct {
    return this.writeProduct(input, input.updatedAt ?? this.nextUpdatedAt());
  }

  /** Sets a variant's stock (as an inventory adjustment would); the product's updatedAt stays. */
  setInventory(variantLegacyId: string, quantity: number): { product: EmulatorProduct; variant: EmulatorVariant } {
    const found = this.findVariant(variantLegacyId);
    if (!found) throw new Error(`No variant with legacyId ${variantLegacyId}`);
    found.variant.inventoryQuantity = quantity;
    found.variant.availableForSale = quantity > 0;
    return found;
  }

  findInventoryItem(legacyId: string): { product: EmulatorProduct; variant: EmulatorVariant } | undefined {
    for (const product of this.products.values()) {
      const variant = product.variants.find((v) => v.inventoryItemLegacyId === legacyId);
      if (variant) return { product, variant };
    }
    return undefined;
  }

  deleteProduct(legacyId: string): void {
    if (!this.products.delete(legacyId)) throw new Error(`No product with legacyId ${legacyId}`);
  }

  private matchExisting(input: EmulatorProductInput): EmulatorProduct | undefined {
    if (input.legacyId) return this.products.get(input.legacyId);
    return input.handle ? this.getProductByHandle(input.handle) : undefined;
  }

  // Strictly later than every stored timestamp, so a change is visible as one even when the
  // injected clock lags behind the demo data's fixed 2026 timestamps.
  private nextUpdatedAt(): string {
    let latest = 0;
    for (const p of this.products.values()) latest = Math.max(latest, Date.parse(p.updatedAt));
    const nowMs = Math.floor(this.now() / 1000) * 1000;
    return toIsoSeconds(Math.max(nowMs, latest + 1000));
  }

  private allocate(kind: keyof typeof ID_FLOORS, requested?: string): string {
    if (requested) {
      if (!/^\d{1,16}$/.test(requested) || Number(requested) > Number.MAX_SAFE_INTEGER) {
        throw new Error(`legacyId must be a decimal id below 2^53, got ${requested}`);
      }
      this.lastIds[kind] = Math.max(this.lastIds[kind], Number(requested));
      return requested;
    }
    this.lastIds[kind] += 1;
    return String(this.lastIds[kind]);
  }

  private uniqueHandle(wanted: string, ownId: string | undefined): string {
    let handle = wanted;
    for (let n = 1; ; n++) {
      const holder = this.getProductByHandle(handle);
      if (!holder || holder.legacyId === ownId) return handle;
      handle = `${wanted}-${n}`;
    }
  }

  private writeProduct(input: EmulatorProductInput, updatedAt: string): EmulatorProduct {
    const prev = this.matchExisting(input);
    const title = input.title ?? prev?.title;
    if (!title) throw new Error('A new product needs a title');
    const legacyId = prev?.legacyId ?? this.allocate('product', input.legacyId);
    const handle = this.uniqueHandle(input.handle ?? prev?.handle ?? slugify(title), legacyId);
    const createdAt = input.createdAt ?? prev?.createdAt ?? updatedAt;

    const images: EmulatorImage[] = input.images
      ? input.images.map((img, i) => ({
          legacyId: img.legacyId ?? prev?.images[i]?.legacyId ?? this.allocate('media'),
          alt: img.alt ?? null,
          url: img.url ?? null,
          width: img.width ?? DEFAULT_IMAGE_SIZE,
          height: img.height ?? DEFAULT_IMAGE_SIZE,
        }))
      : (prev?.images ?? []);
    for (const img of images) this.allocate('media', img.legacyId);

    const variantInputs: EmulatorVariantInput[] = input.variants ?? prev?.variants ?? [{}];
    const variants = (variantInputs.length ? variantInputs : [{}]).map((v): EmulatorVariant => {
      const selectedOptions = v.selectedOptions ?? [];
      const variantTitle = v.title ?? (selectedOptions.length ? selectedOptions.map((o) => o.value).join(' / ') : 'Default Title');
      // Keep a variant's id across upserts that omit it, so carts holding it stay valid.
      const before = prev?.variants.find((pv) => (v.legacyId ? pv.legacyId === v.legacyId : pv.title === variantTitle));
      const quantity = v.inventoryQuantity ?? 0;
      return {
        legacyId: before?.legacyId ?? this.allocate('variant', v.legacyId),
        inventoryItemLegacyId: before?.inventoryItemLegacyId ?? this.allocate('inventoryItem'),
        title: variantTitle,
        sku: v.sku === undefined ? null : v.sku,
        barcode: v.barcode === undefined ? null : v.barcode,
        price: v.price ?? '0.00',
        compareAtPrice: v.compareAtPrice ?? null,
        inventoryQuantity: quantity,
        availableForSale: v.availableForSale ?? quantity > 0,
        selectedOptions: selectedOptions.length ? selectedOptions : [{ name: 'Title', value: variantTitle }],
        imagePosition: v.imagePosition ?? null,
        createdAt: v.createdAt ?? before?.createdAt ?? createdAt,
        updatedAt: v.updatedAt ?? updatedAt,
      };
    });
    for (const v of variants) this.allocate('variant', v.legacyId);

    const product: EmulatorProduct = {
      legacyId,
      handle,
      title,
      descriptionHtml: input.descriptionHtml ?? prev?.descriptionHtml ?? '',
      vendor: input.vendor ?? prev?.vendor ?? '',
      productType: input.productType ?? prev?.productType ?? '',
      tags: input.tags ?? prev?.tags ?? [],
      status: input.status ?? prev?.status ?? 'ACTIVE',
      createdAt,
      updatedAt,
      images,
      variants,
    };
    this.products.set(legacyId, product);
    return product;
  }
}
