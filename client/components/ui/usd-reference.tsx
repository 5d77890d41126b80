import { lazy, Suspense } from 'react';
import { useAfterFirstScreen } from '../../lib/after-first-screen';

const Figure = lazy(async () => ({ default: (await import('./usd-reference-figure')).UsdReferenceFigure }));

/**
 * "≈ $12.40" beside a POGS price, once the page's first screen is up: the figure's code and its
 * reading load then, so a price never waits for them and the first screen's script budget does
 * not carry them. For the home's cards; a page that is not the home's first screen shows
 * UsdReferenceFigure itself. Nothing shows while the shop has no reference it trusts.
 */
export function UsdReference(props: { pogs: string | null | undefined; className?: string }) {
  const ready = useAfterFirstScreen();
  if (!ready) return null;
  return (
    <Suspense fallback={null}>
      <Figure {...props} />
    </Suspense>
  );
}
