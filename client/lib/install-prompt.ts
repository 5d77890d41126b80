import { useCallback, useState, useSyncExternalStore } from 'react';
import { installChanged, installState, subscribeInstall } from './install-events';
import { useHydrated } from './use-hydrated';

/** What the page knows about the browser, for the install offer. */
export interface InstallContext {
  userAgent: string;
  /** navigator.maxTouchPoints (an iPad on iPadOS 13+ says 'Macintosh' but has touch). */
  maxTouchPoints: number;
  /** iOS Safari's navigator.standalone: true when opened from the Home Screen. */
  standalone: boolean | undefined;
  /** matchMedia('(display-mode: standalone)').matches: running as an installed app. */
  displayModeStandalone: boolean;
  /** The shopper closed the offer before. */
  dismissed: boolean;
  /** The browser fired `beforeinstallprompt` and the shop kept it. */
  canPrompt: boolean;
}

/** 'button': the browser's own install prompt; 'ios-hint': Share → 'Add to Home Screen'; null: nothing. */
export type InstallOffer = 'button' | 'ios-hint' | null;

/** Safari on an iPhone, iPod or iPad (other iOS browsers name themselves: CriOS, FxiOS, EdgiOS…). */
export function isIosSafari(userAgent: string, maxTouchPoints: number): boolean {
  const ios = /iPhone|iPad|iPod/.test(userAgent) || (/Macintosh/.test(userAgent) && maxTouchPoints > 1);
  return ios && /Safari\//.test(userAgent) && !/CriOS|FxiOS|EdgiOS|OPiOS|GSA\//.test(userAgent);
}

/** Which install offer to show: none once installed or dismissed; the prompt where the browser has one. */
export function installOffer(context: InstallContext): InstallOffer {
  if (context.standalone === true || context.displayModeStandalone || context.dismissed) return null;
  if (context.canPrompt) return 'button';
  return isIosSafari(context.userAgent, context.maxTouchPoints) ? 'ios-hint' : null;
}

/** localStorage key: the shopper closed the install offer. */
export const INSTALL_DISMISSED_KEY = 'pogs-install-dismissed';

function readDismissed(): boolean {
  try {
    return localStorage.getItem(INSTALL_DISMISSED_KEY) === '1';
  } catch {
    return false;
  }
}

const noPrompt = () => null;

/**
 * The install offer: keeps Chromium's `beforeinstallprompt` (so the shop shows its own button
 * instead of the browser's mini-infobar), prompts on demand, and forgets it after the choice or
 * once `appinstalled` fires. On iOS Safari, which has no prompt, offers the Home Screen hint.
 */
export function useInstallOffer() {
  const promptEvent = useSyncExternalStore(subscribeInstall, () => installState.prompt, noPrompt);
  const installed = useSyncExternalStore(
    subscribeInstall,
    () => installState.installed,
    () => false,
  );
  const [dismissed, setDismissed] = useState(readDismissed);

  // The user agent and display mode are the browser's: nothing to offer in the server's HTML.
  const hydrated = useHydrated();
  const offer =
    installed || !hydrated
      ? null
      : installOffer({
          userAgent: navigator.userAgent,
          maxTouchPoints: navigator.maxTouchPoints ?? 0,
          standalone: (navigator as Navigator & { standalone?: boolean }).standalone,
          displayModeStandalone: window.matchMedia?.('(display-mode: standalone)').matches ?? false,
          dismissed,
          canPrompt: promptEvent !== null,
        });

  const install = useCallback(async () => {
    if (!promptEvent) return;
    // A prompt can be shown once: whatever the shopper chooses, the button goes.
    installChanged({ prompt: null });
    await promptEvent.prompt();
    await promptEvent.userChoice.catch(() => undefined);
  }, [promptEvent]);

  const dismiss = useCallback(() => {
    setDismissed(true);
    try {
      localStorage.setItem(INSTALL_DISMISSED_KEY, '1');
    } catch {
      // private mode: dismissed for this visit only
    }
  }, []);

  return { offer, install, dismiss };
}
