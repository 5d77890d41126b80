/** Any title containing this name is forced into one group of that name. */
export const FORCED_GROUP_NAME = 'Classic Hoodie';

const SIZE = String.raw`(?:XXS|XS|S|M|L|XL|XXL|XXXL|[2-4]XL|One[ -]?Size|OS|\d+)`;
/** ' - Colour / SIZE' (the colour may hold spaces, e.g. 'Heather Grey'). */
const COLOUR_AND_SIZE_SUFFIX = new RegExp(String.raw`\s+-\s+[^/]+?\s*/\s*${SIZE}\s*$`, 'i');
/** ' - SIZE', ' / SIZE', or a bare size word ('One Size', 'OS') at the end. */
const SIZE_SUFFIX = new RegExp(String.raw`\s*[-/]\s*${SIZE}\s*$|\s+(?:One[ -]?Size|OS)\s*$`, 'i');
const TRAILING_DASH = /\s*-\s*$/;

export interface VariantGroup<T> {
  title: string;
  variants: T[];
  /** The group's first variant, used for its image and shared fields. */
  base: T;
}

/** The product name a variant title belongs to, with size/colour suffixes removed. */
export function baseVariantTitle(title: string | null | undefined): string {
  const original = (title ?? '').replace(/\s+/g, ' ').trim();
  if (original.toLowerCase().includes(FORCED_GROUP_NAME.toLowerCase())) return FORCED_GROUP_NAME;
  const stripped = original.replace(COLOUR_AND_SIZE_SUFFIX, '').replace(SIZE_SUFFIX, '').replace(TRAILING_DASH, '').trim();
  // A title that is only a size ('XL', 'One Size') stays as it is rather than becoming empty.
  return stripped || original;
}

/**
 * Groups admin inventory variants into products by their base title (spec §3 "Product group"),
 * keeping first-seen order for groups and for variants within a group. Titles compare
 * case-insensitively; the first variant's spelling names the group. `getTitle` picks the title
 * to group by (default: the variant's `title`; the admin may pass originalTitle instead).
 */
export function groupVariants<T>(
  variants: readonly T[],
  getTitle: (variant: T) => string | null | undefined = (variant) => (variant as { title?: string | null }).title,
): VariantGroup<T>[] {
  const groups = new Map<string, VariantGroup<T>>();
  for (const variant of variants) {
    const title = baseVariantTitle(getTitle(variant));
    const key = title.toLowerCase();
    const group = groups.get(key);
    if (group) group.variants.push(variant);
    else groups.set(key, { title, variants: [variant], base: variant });
  }
  return [...groups.values()];
}
