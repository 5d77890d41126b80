import type { ReactNode } from 'react';
import type { Product } from '../../../../common/api';

/** Most tags listed; the rest are counted as '+N more'. */
export const MAX_TAGS = 5;

interface Row {
  label: string;
  value: ReactNode;
}

/** The level of the tables' headings: one below the title of the page (h1) or of the panel (h2) they are in. */
export type SpecHeading = 'h2' | 'h3';

function SpecTable({ title, rows, testId, heading: Heading }: { title: string; rows: Row[]; testId: string; heading: SpecHeading }) {
  return (
    <section aria-label={title} data-testid={testId} className="rounded-(--radius-cap) border border-border">
      <Heading className="border-b border-border px-4 py-3 text-base font-bold">{title}</Heading>
      <dl className="divide-y divide-border text-sm">
        {rows.map((row) => (
          <div key={row.label} className="grid grid-cols-[8.5rem_1fr] gap-3 px-4 py-2.5">
            <dt className="font-medium text-muted-foreground">{row.label}</dt>
            <dd className="min-w-0 break-words">{row.value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

export function formatUpdatedDate(updatedAt: string): string {
  const date = new Date(updatedAt);
  if (Number.isNaN(date.getTime())) return 'Unknown';
  return date.toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric' });
}

/** The detail panel's Heritage Collection table. */
export function HeritageCollectionTable({
  product,
  productName,
  heading,
}: {
  product: Product;
  productName: string;
  heading: SpecHeading;
}) {
  return (
    <SpecTable
      title="Heritage Collection"
      testId="heritage-table"
      heading={heading}
      rows={[
        { label: 'Payment Method', value: `${productName} Only` },
        { label: 'Network', value: 'Base Blockchain' },
        { label: 'Exclusivity', value: 'Heritage Members' },
        { label: 'Variants', value: product.variants.length },
      ]}
    />
  );
}

/** The detail panel's Product Details table. */
export function ProductDetailsTable({ product, productName, heading }: { product: Product; productName: string; heading: SpecHeading }) {
  const tags = product.tags.filter(Boolean);
  const moreTags = tags.length - MAX_TAGS;
  const variantTitles = product.variants.map((v) => v.title || 'Unknown Variant').join(', ');
  return (
    <SpecTable
      title="Product Details"
      testId="product-details-table"
      heading={heading}
      rows={[
        { label: 'Product ID', value: <span className="font-mono text-xs">{product.id}</span> },
        { label: 'Images', value: product.images.length },
        { label: 'Variants', value: variantTitles || 'None listed' },
        { label: 'Authenticity', value: 'Verified Original' },
        { label: 'Brand', value: product.vendor.trim() || `${productName} Official` },
        { label: 'Category', value: product.productType.trim() || 'Collectibles' },
        {
          label: 'Tags',
          value:
            tags.length === 0 ? (
              'None'
            ) : (
              <span className="flex flex-wrap gap-1.5">
                {tags.slice(0, MAX_TAGS).map((tag) => (
                  <span key={tag} className="rounded-full bg-brand-soft px-2.5 py-0.5 text-xs font-medium text-brand">
                    {tag}
                  </span>
                ))}
                {moreTags > 0 && <span className="px-1 text-xs font-medium text-muted-foreground">+{moreTags} more</span>}
              </span>
            ),
        },
        { label: 'Last Updated', value: formatUpdatedDate(product.updatedAt) },
        { label: 'Shipping', value: 'Worldwide Available' },
      ]}
    />
  );
}
