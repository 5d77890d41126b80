import { Check, Copy, ExternalLink, LogOut } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '../../../components/ui/dialog';
import { useWallet } from '../context/wallet-provider';
import { WalletIcon } from './wallet-icon';

/** The connected wallet: its full address (copyable), the explorer link, and 'Disconnect'. */
export function WalletAccountDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const wallet = useWallet();
  const [copied, setCopied] = useState(false);
  const address = wallet.address;

  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), 2000);
    return () => clearTimeout(timer);
  }, [copied]);

  const copy = async () => {
    if (!address) return;
    try {
      await navigator.clipboard.writeText(address);
      setCopied(true);
    } catch {
      // Clipboard blocked: the address is on screen and selectable.
    }
  };

  return (
    <Dialog open={open && wallet.status === 'connected'} onOpenChange={onOpenChange}>
      <DialogContent data-testid="wallet-menu">
        <header className="px-5 pt-5 pr-14">
          <DialogTitle>Your Wallet</DialogTitle>
          <DialogDescription className="mt-1">Connected with {wallet.walletName ?? 'your wallet'} on the Base network.</DialogDescription>
        </header>
        <div className="grid gap-3 px-5 pt-4">
          <div className="flex items-center gap-3 rounded-2xl border border-border bg-surface p-3">
            <WalletIcon icon={wallet.walletIcon} className="size-10" />
            <p className="min-w-0 flex-1 font-mono text-sm break-all select-all" data-testid="wallet-full-address">
              {address}
            </p>
            <Button variant="ghost" size="icon" onClick={() => void copy()} aria-label={copied ? 'Address copied' : 'Copy address'}>
              {copied ? <Check aria-hidden className="text-brand" /> : <Copy aria-hidden />}
            </Button>
          </div>
          {wallet.explorerUrl && address && (
            <a
              href={`${wallet.explorerUrl.replace(/\/+$/, '')}/address/${address}`}
              target="_blank"
              rel="noopener noreferrer"
              className="inline-flex min-h-11 items-center gap-1.5 text-sm font-semibold text-brand underline-offset-4 hover:underline"
            >
              View on block explorer
              <ExternalLink aria-hidden className="size-4" />
            </a>
          )}
          <Button
            variant="outline"
            className="w-full border-destructive/50 text-destructive hover:bg-destructive hover:text-destructive-foreground"
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
