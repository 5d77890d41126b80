import { Award } from 'lucide-react';
import type { SpecHeading } from './product-spec-tables';

/** The cultural heritage note shown with a product's details. */
export function HeritageNote({ productName, heading: Heading }: { productName: string; heading: SpecHeading }) {
  return (
    <aside className="flex gap-3 rounded-(--radius-cap) bg-brand-soft p-4 text-sm leading-relaxed">
      <Award aria-hidden className="mt-0.5 size-5 shrink-0 text-brand" />
      <div>
        <Heading className="font-bold">Cultural Heritage</Heading>
        <p className="mt-1">
          The milk-cap game was played in Hawaii from the 1920s, and caps from POG juice (passion fruit, orange and guava) made it a
          worldwide playground craze in the 1990s. Every piece in the {productName} collection carries that story forward for today&apos;s
          holders.
        </p>
      </div>
    </aside>
  );
}
