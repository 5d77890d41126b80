import { cleanDescription } from '../../../../common/clean-description';

export const MISSING_DESCRIPTION =
  'Detailed product information will be available soon. In the meantime, ask about this item in our community chat.';

/** The cleaned description as paragraphs, or the fixed "available soon" note. */
export function ProductDescription({ description }: { description: string }) {
  const lines = cleanDescription(description);
  if (lines.length === 0) return <p className="text-muted-foreground italic">{MISSING_DESCRIPTION}</p>;
  return (
    <div className="grid gap-2 leading-relaxed" data-testid="product-description">
      {lines.map((line, i) => (
        <p key={i}>{line}</p>
      ))}
    </div>
  );
}
