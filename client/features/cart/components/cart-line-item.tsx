import { CircleAlert, LoaderCircle, Trash2 } from 'lucide-react';
import { Button } from '../../../components/ui/button';
import { cn } from '../../../lib/utils';
import { useRemoveFromCart } from '../api/remove-from-cart';
import type { CartItem } from '../types';
import { CartItemImage } from './cart-item-image';

interface CartLineItemProps {
  item: CartItem;
  /** The unit price as this place shows it ('25.00 POG' in the drawer, '25.00 $POGS' on the page). */
  formatPrice: (price: string) => string;
  /**
   * Drawer: the remove button appears on hover on devices that hover, and is always shown on
   * touch screens and while it or the line has keyboard focus.
   */
  revealRemoveOnHover?: boolean;
  size?: 'compact' | 'comfortable';
  /** False for lines already paid for (the drawer after a payment): no remove button. */
  removable?: boolean;
}

/** One cart line: image, title, price × quantity, the line's problem if any, remove. */
export function CartLineItem({ item, formatPrice, revealRemoveOnHover = false, size = 'compact', removable = true }: CartLineItemProps) {
  const remove = useRemoveFromCart();
  const pending = remove.isPending;
  return (
    <li
      data-testid="cart-item"
      data-item-id={item.id}
      data-problem={item.problem ? 'true' : undefined}
      className={cn('group flex items-start gap-3', size === 'compact' ? 'py-3' : 'py-4')}
    >
      <CartItemImage src={item.image} title={item.title} className={size === 'compact' ? 'size-16' : 'size-20 sm:size-24'} />
      <div className="grid min-w-0 flex-1 gap-0.5">
        <p
          className={cn('line-clamp-2 font-semibold break-words', size === 'comfortable' ? 'text-base sm:text-lg' : 'leading-snug')}
          data-testid="cart-item-title"
        >
          {item.title}
        </p>
        <p className="text-sm text-muted-foreground tabular-nums" data-testid="cart-item-price">
          <span className="font-semibold text-foreground">{formatPrice(item.price)}</span>
          {' × '}
          {item.quantity}
        </p>
        {item.problem && (
          <p className="flex items-start gap-1 text-sm font-medium text-destructive" data-testid="cart-item-problem">
            <CircleAlert aria-hidden className="mt-0.5 size-4 shrink-0" />
            {item.problem}
          </p>
        )}
      </div>
      {removable && (
        <Button
          variant="ghost-destructive"
          size="icon"
          data-testid="cart-item-remove"
          aria-label={`Remove ${item.title} from cart`}
          aria-busy={pending || undefined}
          disabled={pending}
          onClick={() => remove.mutate({ id: item.id, title: item.title })}
          className={cn(
            '-my-1 -mr-2',
            revealRemoveOnHover &&
              !pending &&
              'motion-safe:transition-opacity [@media(hover:hover)]:opacity-0 [@media(hover:hover)]:group-focus-within:opacity-100 [@media(hover:hover)]:group-hover:opacity-100 [@media(hover:hover)]:focus-visible:opacity-100',
          )}
        >
          {pending ? <LoaderCircle aria-hidden className="motion-safe:animate-spin" /> : <Trash2 aria-hidden />}
        </Button>
      )}
    </li>
  );
}
