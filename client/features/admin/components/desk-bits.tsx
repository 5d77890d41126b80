import { ExternalLink } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from '../../../components/ui/button';
import { CopyButton } from '../../../components/ui/copy-button';
import { formatPogAmount } from '../../../lib/format-pog-price';
import { relativeTime } from '../../../lib/relative-time';
import { shortenAddress } from '../../../../common/shorten-address';
import { cn } from '../../../lib/utils';
import { adminErrorText } from '../api/admin-errors';

/** '12.50 POG', rounded to the cent for reading; the exact amount in the tooltip. */
export function Pog({ amount, className, testId }: { amount: string; className?: string; testId?: string }) {
  return (
    <span className={cn('tabular-nums', className)} title={`${amount} POG`} data-testid={testId} data-amount={amount}>
      {formatPogAmount(amount)} POG
    </span>
  );
}

/** '2 hours ago', with the date and time in the tooltip. */
export function When({ at, className }: { at: string; className?: string }) {
  const date = new Date(at);
  return (
    <time dateTime={at} title={Number.isFinite(date.getTime()) ? date.toLocaleString() : undefined} className={className}>
      {relativeTime(at)}
    </time>
  );
}

/** A shortened address or hash (the whole one in the tooltip) and a button that copies it whole. */
export function Copyable({ value, what, testId }: { value: string; what: string; testId?: string }) {
  return (
    <span className="inline-flex min-w-0 items-center gap-0.5">
      <span className="font-mono text-sm" title={value} data-testid={testId} data-value={value}>
        {shortenAddress(value)}
      </span>
      <CopyButton
        value={value}
        label={`Copy ${what}`}
        copiedLabel={`${what.charAt(0).toUpperCase()}${what.slice(1)} copied`}
        className="-my-2"
      />
    </span>
  );
}

/** A transaction: its explorer page, or on the local chain (no explorer) the hash with a copy button. */
export function TxReference({ txHash, explorerUrl }: { txHash: string; explorerUrl: string | null }) {
  if (!explorerUrl) return <Copyable value={txHash} what="transaction hash" testId="tx-hash" />;
  return (
    <a
      href={explorerUrl}
      target="_blank"
      rel="noopener noreferrer"
      className="inline-flex min-h-11 items-center gap-1.5 font-mono text-sm font-semibold text-brand underline-offset-4 hover:underline"
      title={txHash}
      data-testid="explorer-link"
    >
      {shortenAddress(txHash)}
      <ExternalLink aria-hidden className="size-4" />
      <span className="sr-only">(view on the explorer, opens in a new tab)</span>
    </a>
  );
}

/** Label / value pairs: one column on a phone, two from 640 px. */
export function Facts({ children, className }: { children: ReactNode; className?: string }) {
  return <dl className={cn('grid grid-cols-1 gap-x-6 gap-y-1 sm:grid-cols-2', className)}>{children}</dl>;
}

export function Fact({ label, children, testId, className }: { label: string; children: ReactNode; testId?: string; className?: string }) {
  return (
    <div
      className={cn('flex min-h-11 min-w-0 items-center justify-between gap-3 border-b border-border/60 py-1', className)}
      data-testid={testId}
    >
      <dt className="shrink-0 text-sm text-muted-foreground">{label}</dt>
      <dd className="min-w-0 text-right font-semibold break-words">{children}</dd>
    </div>
  );
}

/** What 'Load more' reads of an admin list's infinite query. */
interface MorePages {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  isFetchNextPageError: boolean;
  error: unknown;
  fetchNextPage: () => Promise<unknown>;
}

/** An admin list's 'Load more' while the server has more, and what went wrong when the next page failed. */
export function LoadMore({ pages, failText, testId }: { pages: MorePages; failText: string; testId: string }) {
  return (
    <>
      {pages.hasNextPage && (
        <Button
          variant="outline"
          className="justify-self-center"
          onClick={() => void pages.fetchNextPage()}
          disabled={pages.isFetchingNextPage}
          data-testid={testId}
        >
          {pages.isFetchingNextPage ? 'Loading...' : 'Load more'}
        </Button>
      )}
      {pages.isFetchNextPageError && (
        <p role="alert" className="text-center text-sm text-red-800">
          {adminErrorText(pages.error, failText)}
        </p>
      )}
    </>
  );
}
