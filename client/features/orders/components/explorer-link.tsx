import { ExternalLink } from 'lucide-react';
import { explorerUrl, publicExplorerUrl } from '../../../lib/explorer-url';
import { useConfig } from '../../../lib/public-config';
import { cn } from '../../../lib/utils';

/**
 * 'View on BaseScan' for an order's transaction, in a new tab. Nothing until the config is known,
 * and nothing in local mode, whose chain no public explorer knows.
 */
export function ExplorerLink({ transactionHash, className }: { transactionHash: string | null | undefined; className?: string }) {
  const { data: config } = useConfig();
  const href = config && explorerUrl({ explorerUrl: publicExplorerUrl(config) }, 'tx', transactionHash);
  if (!href) return null;
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
      View on BaseScan
      <ExternalLink aria-hidden className="size-4" />
    </a>
  );
}
