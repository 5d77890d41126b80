import { ExternalLink } from 'lucide-react';
import { CopyButton } from '../../../components/ui/copy-button';
import { explorerUrl, publicExplorerUrl } from '../../../lib/explorer-url';
import { useConfig } from '../../../lib/public-config';
import { shortenAddress } from '../../../../common/shorten-address';
import { cn } from '../../../lib/utils';

/**
 * 'View on BaseScan' for a transaction, in a new tab. Nothing until the config is known. In local
 * mode, whose chain no public explorer knows, nothing either, or with `localFallback` the
 * transaction's hash, shortened, with a copy button (a refund's hash is worth keeping).
 */
export function ExplorerLink({
  transactionHash,
  className,
  label = 'View on BaseScan',
  localFallback = false,
}: {
  transactionHash: string | null | undefined;
  className?: string;
  label?: string;
  localFallback?: boolean;
}) {
  const { data: config } = useConfig();
  if (!config || !transactionHash) return null;
  const href = explorerUrl({ explorerUrl: publicExplorerUrl(config) }, 'tx', transactionHash);
  if (!href) {
    if (!localFallback) return null;
    return (
      <span className={cn('inline-flex min-h-11 items-center gap-1 text-sm', className)} data-testid="transaction-hash">
        <span className="font-mono text-muted-foreground" title={transactionHash}>
          {shortenAddress(transactionHash)}
        </span>
        <CopyButton value={transactionHash} label="Copy transaction hash" copiedLabel="Transaction hash copied" />
      </span>
    );
  }
  return (
    <a
      href={href}
      target="_blank"
      rel="noopener noreferrer"
      className={cn(
        'inline-flex min-h-11 items-center justify-center gap-1.5 text-sm font-semibold text-brand underline-offset-4 hover:underline',
        className,
      )}
      data-testid="explorer-link"
    >
      {label}
      <ExternalLink aria-hidden className="size-4" />
    </a>
  );
}
