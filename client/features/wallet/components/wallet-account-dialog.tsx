import { ExternalLink, LogOut } from 'lucide-react';
import { Button } from '../../../components/ui/button';
import { CopyButton } from '../../../components/ui/copy-button';
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '../../../components/ui/dialog';
import { explorerUrl } from '../../../lib/explorer-url';
import { useWallet } from '../context/wallet-provider';
import { WalletIcon } from './wallet-icon';

/** The connected wallet: its full address (copyable), the explorer link, and 'Disconnect'. */
export function WalletAccountDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const wallet = useWallet();
  const address = wallet.address;
  const addressPage = explorerUrl({ explorerUrl: wallet.explorerUrl }, 'address', address);

  return (
    <Dialog open={open && wallet.status === 'connected'} onOpenChange={onOpenChange}>
      <DialogContent data-testid="wallet-menu">
        <header className="px-5 pt-5 pr-14">
          <DialogTitle>Your Wallet</DialogTitle>
          <DialogDescription className="mt-1">Connected with {wallet.walletName ?? 'your wallet'} on the Base network.</DialogDescription>
        </header>
        <div className="grid gap-3 px-5 pt-4">
          <div className="flex items-center gap-3 rounded-2xl border border-border bg-surface p-3">
            <WalletIcon icon={wallet.walletIcon} className="size-10 rounded-lg" />
            <p className="min-w-0 flex-1 font-mono text-sm break-all select-all" data-testid="wallet-full-address">
              {address}
            </p>
            {address && <CopyButton value={address} label="Copy address" copiedLabel="Address copied" />}
          </div>
          {addressPage && (
            <a
              href={addressPage}
              target="_blank"
              rel="noopener noreferrer"
              className="inline-flex min-h-11 items-center gap-1.5 text-sm font-semibold text-brand underline-offset-4 hover:underline"
            >
              View on block explorer
              <ExternalLink aria-hidden className="size-4" />
            </a>
          )}
          <Button
            variant="outline-destructive"
            className="w-full"
            data-testid="wallet-disconnect"
            onClick={() => {
              onOpenChange(false);
              void wallet.disconnect();
            }}
          >
            <LogOut aria-hidden />
            Disconnect
          </Button>
        </div>
      </DialogContent>
    </Dialog>
  );
}
