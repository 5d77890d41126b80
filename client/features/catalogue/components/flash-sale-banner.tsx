import { Zap } from 'lucide-react';

export function FlashSaleBanner() {
  return (
    <div
      data-testid="flash-sale-banner"
      className="flex items-center justify-center gap-2 rounded-full bg-sale px-4 py-3 text-center text-sm font-extrabold text-sale-foreground sm:text-base"
    >
      <Zap aria-hidden className="size-5 shrink-0 fill-current" />
      <span>FLASH SALES: Will be open for 42 hours each</span>
    </div>
  );
}
