import type { OrderItem } from '../../../../common/api';

/** An order's items: title, then price × quantity (`formatPrice` sets the unit the page uses). */
export function OrderItems({
  items,
  formatPrice,
}: {
  items: readonly Pick<OrderItem, 'id' | 'title' | 'price' | 'quantity'>[];
  formatPrice: (price: string) => string;
}) {
  return (
    <ul className="divide-y divide-border" data-testid="order-items">
      {items.map((item) => (
        <li key={item.id} className="flex items-baseline justify-between gap-3 py-2.5" data-testid="order-item">
          <span className="min-w-0 font-semibold break-words">{item.title}</span>
          <span className="shrink-0 text-sm text-muted-foreground tabular-nums">
            {formatPrice(item.price)} × {item.quantity}
          </span>
        </li>
      ))}
    </ul>
  );
}
