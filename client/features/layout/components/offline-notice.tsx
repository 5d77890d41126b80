import { CloudOff, WifiOff } from 'lucide-react';
import { useConnection } from '../../../lib/online-status';

/**
 * A slim bar under the header while the shop cannot reach its server: the browser is offline, or
 * the shop's requests get no answer. The catalogue still shows from the last visit; actions that
 * need the server say so themselves. Sticks under the header so it stays in sight while scrolling.
 */
export function OfflineNotice() {
  const connection = useConnection();
  // The live region is always there, so its text is announced when it appears.
  return (
    <div role="status" aria-live="polite" className="sticky top-16 z-30 print:hidden">
      {connection !== 'online' && (
        <p
          data-testid="offline-notice"
          data-connection={connection}
          className="flex items-center justify-center gap-2 border-b border-amber-300 bg-amber-50 px-3 py-1 text-center text-xs leading-snug font-medium sm:px-4 sm:py-1.5 sm:text-sm text-amber-950"
        >
          {connection === 'offline' ? (
            <WifiOff aria-hidden className="size-4 shrink-0" />
          ) : (
            <CloudOff aria-hidden className="size-4 shrink-0" />
          )}
          <span className="text-balance">
            {connection === 'offline' ? "You're offline." : "Can't reach the shop right now."} Showing the catalogue from your last visit.
          </span>
        </p>
      )}
    </div>
  );
}
