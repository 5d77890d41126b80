import { Gem } from 'lucide-react';

export function ExclusiveNotice({ productName, currencyLabel }: { productName: string; currencyLabel: string }) {
  return (
    <div
      data-testid="exclusive-notice"
      className="flex items-start gap-3 rounded-(--radius-cap) border border-brand/20 bg-brand-soft p-4 text-sm"
    >
      <Gem aria-hidden className="mt-0.5 size-5 shrink-0 text-brand" />
      <p>
        <strong className="font-bold">Exclusive {productName} collection.</strong> Every item here is sold only for {currencyLabel}, paid
        from your wallet on the Base network.
      </p>
    </div>
  );
}
