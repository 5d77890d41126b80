import { ArrowLeft, LoaderCircle, Printer, Share2 } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { Link, useParams } from 'react-router-dom';
import type { Order, PublicConfig } from '../../../../common/api';
import { Button, buttonVariants } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { useConfig } from '../../../lib/public-config';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { isOrderNotFound, useOrder } from '../api/get-order';
import { OrderLoadError, OrderNotFound } from '../components/order-not-found';
import { buildReceipt, receiptFileName, receiptHtml, type Receipt } from '../lib/receipt';

/**
 * /orders/<id>/receipt: what was bought, what was paid and where it went on chain, for the
 * buyer's browser or their signed-in wallet (the same rule as the order itself). Printable (the
 * shop's frame and the buttons are left off paper), and kept or sent as one HTML file.
 */
export function OrderReceiptPage() {
  const { id = '' } = useParams();
  const { data: config } = useConfig();
  useDocumentTitle('Receipt', config?.shopName ?? 'POGS Shop');
  const { data: order, error, isPending, isFetching, refetch } = useOrder(id.trim());

  let content: ReactNode;
  if (error && isOrderNotFound(error)) content = <OrderNotFound />;
  else if (order && config) content = <ReceiptCard order={order} config={config} />;
  else if (error) content = <OrderLoadError error={error} onRetry={() => void refetch()} retrying={isFetching} />;
  else if (isPending || !config)
    content = (
      <p role="status" className="flex items-center justify-center gap-2 py-16 text-lg text-muted-foreground">
        <LoaderCircle aria-hidden className="size-6 motion-safe:animate-spin" />
        Loading your receipt...
      </p>
    );

  return (
    <div className="min-h-[calc(100dvh-4rem)] bg-surface print:min-h-0 print:bg-white">
      <div className="mx-auto grid max-w-2xl grid-cols-[minmax(0,1fr)] gap-5 px-4 py-6 sm:px-6 sm:py-10 print:p-0">{content}</div>
    </div>
  );
}

function ReceiptCard({ order, config }: { order: Order; config: PublicConfig }) {
  const receipt = buildReceipt(order, config);
  return (
    <Card className="grid gap-5 p-4 sm:p-8 print:border-0 print:p-0 print:shadow-none" data-testid="receipt" data-order-id={order.id}>
      <header className="grid gap-1">
        <p className="text-sm font-semibold text-muted-foreground">{receipt.shopName}</p>
        <h1 className="text-2xl font-black tracking-tight sm:text-3xl">Receipt</h1>
      </header>

      <section aria-labelledby="receipt-items" className="grid gap-2">
        <h2 id="receipt-items" className="text-lg font-bold">
          Items
        </h2>
        <ul className="divide-y divide-border border-y border-border" data-testid="receipt-items">
          {receipt.items.map((item, i) => (
            <li key={i} className="flex items-baseline justify-between gap-3 py-2.5">
              <span className="min-w-0">
                <span className="block font-semibold break-words">{item.title}</span>
                <span className="text-sm text-muted-foreground tabular-nums">
                  {item.unit} × {item.quantity}
                </span>
              </span>
              <span className="shrink-0 font-semibold tabular-nums">{item.line}</span>
            </li>
          ))}
        </ul>
        <p className="flex items-baseline justify-between gap-3">
          <span className="font-semibold">Total</span>
          <span className="text-lg font-extrabold text-brand tabular-nums" data-testid="receipt-total">
            {receipt.total}
          </span>
        </p>
      </section>

      <dl className="grid gap-3 text-sm" data-testid="receipt-facts">
        {receipt.rows.map((row, i) => (
          <div key={i} className="grid gap-0.5 sm:grid-cols-[10rem_minmax(0,1fr)] sm:gap-3">
            <dt className="text-muted-foreground">{row.label}</dt>
            <dd className={row.mono ? 'font-mono text-xs break-all sm:text-sm' : undefined}>
              {row.href ? (
                <a href={row.href} target="_blank" rel="noopener noreferrer" className="text-brand underline-offset-4 hover:underline">
                  {row.value}
                </a>
              ) : (
                row.value
              )}
            </dd>
          </div>
        ))}
      </dl>

      <ReceiptActions receipt={receipt} />
      <Link to="/orders" className={buttonVariants({ variant: 'ghost', className: 'justify-self-start print:hidden' })}>
        <ArrowLeft aria-hidden />
        Your orders
      </Link>
    </Card>
  );
}

/** Print, and Share: the phone's share sheet with the receipt's file where it can take files, else a download. */
function ReceiptActions({ receipt }: { receipt: Receipt }) {
  const [shared, setShared] = useState<'saved' | null>(null);
  const share = async () => {
    const name = receiptFileName(receipt.orderId);
    const file = new File([receiptHtml(receipt)], name, { type: 'text/html' });
    if (navigator.canShare?.({ files: [file] })) {
      try {
        await navigator.share({ files: [file], title: `Receipt for order ${receipt.orderId}` });
        return;
      } catch (err) {
        // Closed without sharing: nothing to say. Refused for another reason: save it instead.
        if ((err as DOMException).name === 'AbortError') return;
      }
    }
    const url = URL.createObjectURL(file);
    const link = Object.assign(document.createElement('a'), { href: url, download: name });
    link.click();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
    setShared('saved');
  };
  return (
    <div className="grid gap-2 sm:grid-cols-2 print:hidden">
      <Button size="block" onClick={() => window.print()}>
        <Printer aria-hidden />
        Print
      </Button>
      <Button size="block" variant="outline" onClick={() => void share()}>
        <Share2 aria-hidden />
        Share or save
      </Button>
      {shared === 'saved' && (
        <p role="status" className="text-sm text-muted-foreground sm:col-span-2">
          Saved as {receiptFileName(receipt.orderId)}
        </p>
      )}
    </div>
  );
}

export { OrderReceiptPage as Component };
