import { Wallet } from 'lucide-react';
import { cn } from '../../../lib/utils';

/**
 * A wallet's EIP-6963 icon (always a data:image URI, checked by the discovery code, drawn with
 * <img> so no markup from a wallet ever reaches the page), or a generic wallet glyph. className
 * gives its size and corners (and must not set its display: use max-*: variants to hide it).
 */
export function WalletIcon({ icon, className }: { icon: string; className?: string }) {
  if (icon) return <img src={icon} alt="" aria-hidden className={cn('shrink-0 object-contain', className)} />;
  return (
    <span aria-hidden className={cn('flex shrink-0 items-center justify-center bg-brand-soft text-brand', className)}>
      <Wallet className="size-[60%]" />
    </span>
  );
}
