import type { Order, PublicConfig } from '../../../../common/api';
import { formatUnits, parseUnits } from '../../../../common/money';
import { formatUsdReference } from '../../../../common/usd-reference';
import { explorerUrl, publicExplorerUrl } from '../../../lib/explorer-url';
import { formatPogAmount } from '../../../lib/format-pog-price';
import { orderStatusStyle } from '../../../lib/order-status';
import { orderPlacedAt } from './order-sections';

/** A line of a receipt: a label and what it says, `mono` for hashes and addresses. */
export interface ReceiptRow {
  label: string;
  value: string;
  href?: string | null;
  mono?: boolean;
}

/** What a receipt shows, in order: the same facts on the page and in the file a shopper keeps. */
export interface Receipt {
  shopName: string;
  orderId: string;
  items: { title: string; quantity: number; unit: string; line: string }[];
  total: string;
  rows: ReceiptRow[];
}

/** A line's price times its quantity, exactly (bigint wei); a price that is not one shows as 0. */
function lineTotal(price: string, quantity: number): string {
  try {
    return formatUnits(parseUnits(price) * BigInt(quantity));
  } catch {
    return '0';
  }
}

/**
 * What the order's payment was worth in dollars when it was made ("≈ $7.50"), as the shop read it
 * at the payment's block: a reference for the shopper's records (what was paid is the POGS
 * amount); null when the shop kept none.
 */
export function usdAtPayment(order: Pick<Order, 'amountPaid' | 'reference'>): string | null {
  if (!order.reference) return null;
  try {
    return formatUsdReference(parseUnits(order.amountPaid), order.reference.usdPerPogs);
  } catch {
    return null;
  }
}

function referenceRows(order: Order): ReceiptRow[] {
  const usd = usdAtPayment(order);
  if (!usd || !order.reference) return [];
  return [{ label: 'Dollar reference at payment', value: `${usd} (at block ${order.reference.block}; ${order.reference.source})` }];
}

/** `2026-11-29 06:12 UTC`: a receipt's time says its zone, whoever reads it later and wherever. */
export function utcTime(iso: string | null): string {
  if (!iso) return '—';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '—';
  return `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** The receipt of `order` as the shop's public config names things (token, chain, explorer, store wallet). */
export function buildReceipt(
  order: Order,
  config: Pick<PublicConfig, 'shopName' | 'tokenSymbol' | 'chainName' | 'explorerUrl' | 'demoWallet' | 'storeWallet'>,
): Receipt {
  const symbol = config.tokenSymbol;
  const explorer = { explorerUrl: publicExplorerUrl(config) };
  const rows: ReceiptRow[] = [
    { label: 'Order number', value: order.id, mono: true },
    { label: 'Placed', value: utcTime(orderPlacedAt(order)) },
    { label: 'Status', value: orderStatusStyle(order.status).label },
    { label: 'Amount paid', value: `${order.amountPaid} ${symbol}`, mono: true },
    ...referenceRows(order),
    ...order.refunds.map((refund) => ({
      label: `Refunded ${utcTime(refund.at)}`,
      value: `${refund.amount} ${symbol}`,
      href: refund.explorerUrl,
      mono: true,
    })),
    {
      label: 'Transaction',
      value: order.blockchain.transactionHash,
      href: explorerUrl(explorer, 'tx', order.blockchain.transactionHash),
      mono: true,
    },
    { label: 'Block', value: `${order.blockchain.blockNumber} on ${config.chainName} (chain ${order.blockchain.chainId})` },
    { label: 'Paid from', value: order.customerWallet, href: explorerUrl(explorer, 'address', order.customerWallet), mono: true },
  ];
  // The carrier's page for the parcel, as Shopify reported it (only http and https links are kept).
  if (order.trackingUrl) rows.push({ label: 'Tracking', value: order.trackingUrl, href: order.trackingUrl });
  if (config.storeWallet)
    rows.push({
      label: 'Paid to (the store)',
      value: config.storeWallet,
      href: explorerUrl(explorer, 'address', config.storeWallet),
      mono: true,
    });
  return {
    shopName: config.shopName,
    orderId: order.id,
    items: order.items.map((item) => ({
      title: item.title,
      quantity: item.quantity,
      unit: `${formatPogAmount(item.price)} ${symbol}`,
      line: `${formatPogAmount(lineTotal(item.price, item.quantity))} ${symbol}`,
    })),
    total: `${formatPogAmount(order.total)} ${symbol}`,
    rows,
  };
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/**
 * The receipt as one HTML file a shopper keeps or sends: no script, no outside resource, its
 * styles inline, every fact escaped (a product's title is the merchant's text, not markup).
 */
export function receiptHtml(receipt: Receipt): string {
  const e = escapeHtml;
  const items = receipt.items
    .map(
      (item) => `<tr><td>${e(item.title)}</td><td class="n">${e(item.unit)} × ${item.quantity}</td><td class="n">${e(item.line)}</td></tr>`,
    )
    .join('');
  const rows = receipt.rows
    .map((row) => {
      const value = row.href ? `<a href="${e(row.href)}">${e(row.value)}</a>` : e(row.value);
      return `<tr><th>${e(row.label)}</th><td${row.mono ? ' class="m"' : ''}>${value}</td></tr>`;
    })
    .join('');
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${e(`Receipt for order ${receipt.orderId} · ${receipt.shopName}`)}</title>`,
    '<style>body{font:15px/1.5 system-ui,sans-serif;color:#111;max-width:40rem;margin:2rem auto;padding:0 1rem}',
    'table{width:100%;border-collapse:collapse;margin:1rem 0}td,th{padding:.4rem 0;border-bottom:1px solid #ddd;text-align:left;vertical-align:top}',
    'th{font-weight:600;padding-right:1rem;white-space:nowrap}.n{text-align:right;white-space:nowrap}.m{font-family:ui-monospace,monospace;word-break:break-all}</style>',
    '</head><body>',
    `<h1>${e(receipt.shopName)}: receipt</h1>`,
    `<table><tbody>${items}<tr><th colspan="2">Total</th><td class="n">${e(receipt.total)}</td></tr></tbody></table>`,
    `<table><tbody>${rows}</tbody></table>`,
    '</body></html>',
    '',
  ].join('\n');
}

/** The file's name: `receipt-<order>.html`, with only characters every system accepts. */
export function receiptFileName(orderId: string): string {
  return `receipt-${orderId.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 80)}.html`;
}
