import { ChevronRight, ExternalLink, LoaderCircle, QrCode, RefreshCw, Smartphone } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '../../../components/ui/dialog';
import { cn } from '../../../lib/utils';
import { coinbaseDappLink, currentDeviceHints, isMobileDevice, metamaskDappLink } from '../../../web3/deep-links';
import { MOBILE_WALLET_REQUIRED, NO_WALLET_MESSAGE } from '../../../web3/wallet-errors';
import { DEMO_WALLET_RDNS, INJECTED_WALLET_ID, WALLETCONNECT_WALLET_ID } from '../../../web3/wallet-ids';
import { useWallet } from '../context/wallet-provider';
import { WalletIcon } from './wallet-icon';

const row =
  'flex min-h-14 w-full items-center gap-3 rounded-2xl border border-border bg-card px-3 py-2 text-left ' +
  'hover:border-brand/40 hover:bg-brand-soft focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring';

function RowText({ name, note }: { name: string; note?: string }) {
  return (
    <span className="grid min-w-0 flex-1">
      <span className="truncate font-semibold">{name}</span>
      {note && <span className="text-xs text-muted-foreground">{note}</span>}
    </span>
  );
}

function walletNote(id: string, rdns: string): string | undefined {
  if (rdns === DEMO_WALLET_RDNS) return 'Test account with demo funds (local mode only)';
  if (id === INJECTED_WALLET_ID) return 'The wallet built into this browser';
  return undefined;
}

function DeepLink({ testId, href, name, children }: { testId: string; href: string; name: string; children?: ReactNode }) {
  return (
    <a data-testid={testId} href={href} rel="noopener" className={row}>
      <span aria-hidden className="flex size-9 shrink-0 items-center justify-center rounded-lg bg-muted text-foreground">
        <Smartphone className="size-5" />
      </span>
      <RowText name={name} note="Opens this shop in the app’s browser" />
      {children}
      <ExternalLink aria-hidden className="size-4 shrink-0 text-muted-foreground" />
    </a>
  );
}

/**
 * The wallet chooser (a bottom sheet on phones): every wallet that announced itself, WalletConnect
 * when configured, and on a phone with no wallet in the browser a 'Mobile Wallet Required' note
 * with links that reopen this page inside MetaMask or Coinbase Wallet.
 */
export function WalletChooser() {
  const wallet = useWallet();
  const [mobile] = useState(() => isMobileDevice(currentDeviceHints()));
  const open = wallet.chooserOpen && wallet.status === 'disconnected';
  const realWallets = wallet.wallets.filter((w) => w.rdns !== DEMO_WALLET_RDNS);
  const searching = wallet.discovering && wallet.wallets.length === 0 && !wallet.loadFailed;
  const showDeepLinks = mobile && !searching && realWallets.length === 0;
  const noWalletAtAll = !searching && wallet.wallets.length === 0;
  const pageUrl = typeof window === 'undefined' ? 'http://localhost/' : window.location.href;

  const choose = (walletId: string) => {
    wallet.setChooserOpen(false);
    void wallet.connect(walletId);
  };

  return (
    <Dialog open={open} onOpenChange={wallet.setChooserOpen}>
      <DialogContent data-testid="wallet-chooser" data-searching={searching || undefined}>
        <header className="px-5 pt-5 pr-14">
          <DialogTitle>Connect Wallet</DialogTitle>
          <DialogDescription className="mt-1">Choose the wallet you will pay with, in POG on the Base network.</DialogDescription>
        </header>

        <div className="grid gap-2 px-5 pt-4" aria-busy={searching || undefined}>
          {searching && (
            <p role="status" className="flex items-center gap-2 py-4 text-sm text-muted-foreground">
              <LoaderCircle aria-hidden className="size-5 motion-safe:animate-spin" />
              Looking for wallets…
            </p>
          )}

          {wallet.loadFailed && (
            <div role="alert" className="grid justify-items-start gap-2 rounded-2xl border border-destructive/40 p-4 text-sm">
              <p>The wallet options could not be loaded. Check your connection and try again.</p>
              <Button variant="outline" size="sm" onClick={wallet.prepare}>
                <RefreshCw aria-hidden />
                Try Again
              </Button>
            </div>
          )}

          {wallet.wallets.length > 0 && (
            <ul className="grid gap-2" aria-label="Wallets found in this browser">
              {wallet.wallets.map((w) => (
                <li key={w.id}>
                  <button
                    type="button"
                    data-testid="wallet-option"
                    data-rdns={w.rdns}
                    data-wallet-name={w.name}
                    className={row}
                    onClick={() => choose(w.id)}
                  >
                    <WalletIcon icon={w.icon} className="size-9 rounded-lg" />
                    <RowText name={w.name} note={walletNote(w.id, w.rdns)} />
                    <ChevronRight aria-hidden className="size-5 shrink-0 text-muted-foreground" />
                  </button>
                </li>
              ))}
            </ul>
          )}

          {showDeepLinks && (
            <section aria-labelledby="mobile-wallet-required" className="grid gap-2">
              {noWalletAtAll ? (
                <div data-testid="mobile-wallet-required" className="rounded-2xl bg-brand-soft p-4">
                  <h3 id="mobile-wallet-required" className="font-bold">
                    {MOBILE_WALLET_REQUIRED.title}
                  </h3>
                  <p className="text-sm text-muted-foreground">{MOBILE_WALLET_REQUIRED.description}</p>
                </div>
              ) : (
                <h3 id="mobile-wallet-required" className="pt-2 text-sm font-semibold text-muted-foreground">
                  Have a wallet app? Open this shop in it:
                </h3>
              )}
              <DeepLink testId="deep-link-metamask" href={metamaskDappLink(pageUrl)} name="Open in MetaMask" />
              <DeepLink testId="deep-link-coinbase" href={coinbaseDappLink(pageUrl)} name="Open in Coinbase Wallet" />
            </section>
          )}

          {noWalletAtAll && !mobile && !wallet.loadFailed && (
            <div data-testid="no-wallet" className="grid gap-1 rounded-2xl bg-brand-soft p-4 text-sm">
              <p className="font-semibold">{NO_WALLET_MESSAGE}</p>
              <a
                href="https://metamask.io/download/"
                target="_blank"
                rel="noopener noreferrer"
                className="inline-flex min-h-11 items-center gap-1 font-semibold text-brand underline-offset-4 hover:underline"
              >
                Get MetaMask
                <ExternalLink aria-hidden className="size-4" />
              </a>
            </div>
          )}

          {wallet.walletConnectAvailable && !searching && (
            <button
              type="button"
              data-testid="wallet-connect-option"
              className={cn(row, 'mt-1')}
              onClick={() => choose(WALLETCONNECT_WALLET_ID)}
            >
              <span aria-hidden className="flex size-9 shrink-0 items-center justify-center rounded-lg bg-[#3b99fc] text-white">
                <QrCode className="size-5" />
              </span>
              <RowText
                name="WalletConnect"
                note={mobile ? 'Connect a wallet app on this phone' : 'Scan a QR code with your phone wallet'}
              />
              <ChevronRight aria-hidden className="size-5 shrink-0 text-muted-foreground" />
            </button>
          )}
        </div>
      </DialogContent>
    </Dialog>
  );
}
