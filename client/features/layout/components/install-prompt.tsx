import { Download, Share, X } from 'lucide-react';
import { Button } from '../../../components/ui/button';
import { useInstallOffer } from '../../../lib/install-prompt';

/**
 * The install offer, a small bar under the header (never over the products or the pay button):
 * 'Install' where the browser can prompt (Chromium's `beforeinstallprompt`), the Home Screen
 * hint on iOS Safari. Closing it is remembered; nothing shows once the shop runs installed.
 */
export function InstallPrompt() {
  const { offer, install, dismiss } = useInstallOffer();
  if (!offer) return null;
  return (
    <aside
      aria-label="Install the shop"
      data-testid={offer === 'button' ? 'install-offer' : 'ios-install-hint'}
      className="border-b border-border bg-brand-soft"
    >
      <div className="mx-auto flex max-w-7xl items-center gap-2 py-1 pr-0.5 pl-4 sm:px-6 lg:px-8">
        {offer === 'button' ? (
          <>
            <p className="min-w-0 flex-1 text-xs leading-snug sm:text-sm">Install the shop for quick access, even offline.</p>
            <Button size="sm" data-testid="install-button" onClick={() => void install()}>
              <Download aria-hidden />
              Install
            </Button>
          </>
        ) : (
          <p className="min-w-0 flex-1 text-xs leading-snug sm:text-sm">
            Install the shop: tap <Share aria-hidden className="inline size-4 align-[-2px] text-brand" /> Share, then{' '}
            <span className="font-semibold">Add to Home Screen</span>.
          </p>
        )}
        <Button variant="ghost" size="icon" aria-label="Close" data-testid="install-dismiss" onClick={dismiss}>
          <X aria-hidden />
        </Button>
      </div>
    </aside>
  );
}
