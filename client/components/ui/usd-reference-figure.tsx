import { useUsdReference } from '../../lib/price-reference';
import { cn } from '../../lib/utils';

/**
 * The dollar reference beside a POGS price: "≈ $12.40", secondary, and nothing at all while the
 * shop has none it trusts (usd-reference.tsx loads it once the first screen is up). It is a reference from the market, never what is paid (the price is in
 * POGS), and says so to a screen reader and in its tooltip.
 */
export function UsdReferenceFigure({ pogs, className }: { pogs: string | null | undefined; className?: string }) {
  const text = useUsdReference()(pogs);
  if (!text) return null;
  return (
    <span
      className={cn('text-sm font-medium whitespace-nowrap text-muted-foreground tabular-nums', className)}
      title="A dollar reference from the market. You pay in POGS."
      data-testid="usd-reference"
    >
      {text}
      <span className="sr-only"> (a dollar reference; you pay in POGS)</span>
    </span>
  );
}
