import { Download, Share, X } from 'lucide-react';
import { Button } from '../../../components/ui/button';
import { useInstallOffer } from '../../../lib/install-prompt';
import { useScreenEdge } from '../../../lib/screen-edges';

/**
 * The install offer: 'Install' where the browser can prompt (Chromium's `beforeinstallprompt`),
 * the Home Screen hint on iOS Safari (whose Share button is at the bottom too). Closing it is
 * remembered; nothing shows once the shop runs installed.
 *
 * It arrives seconds after the page (when the browser decides the shop is installable), so it is
 * a bar fixed to the bottom of the screen, not a row under the header: pushing the page down
 * under a shopper's finger would be a layout shift, and a mis-tap. A spacer at the end of the page
 * as tall as the bar is (measured: its text may wrap, an iPhone adds its home indicator's safe
 * area) keeps the page's end reachable above it, and toasts show above it (lib/screen-edges.ts);
 * dialogs and the cart drawer sit above it.
 */
export function InstallPrompt() {
  const { offer, install, dismiss } = useInstallOffer();
  const edgeRef = useScreenEdge('bottom');
  if (!offer) return null;
  return (
    <>
      <div aria-hidden data-testid="install-spacer" className="h-[var(--edge-bottom,3.5rem)]" />
      <aside
        ref={edgeRef}
        aria-label="Install the shop"
        data-testid={offer === 'button' ? 'install-offer' : 'ios-install-hint'}
        className="fixed inset-x-0 bottom-0 z-30 border-t border-border bg-brand-soft pb-[env(safe-area-inset-bottom)] shadow-[0_-4px_12px_rgb(0_0_0/0.08)]"
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
    </>
  );
}
