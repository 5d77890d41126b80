import { useEffect } from 'react';
import { useRegisterSW } from 'virtual:pwa-register/react';
import { toast } from '../components/ui/use-toast';
import { useHydrated } from '../lib/use-hydrated';

const UPDATE_CHECK_INTERVAL_MS = 60 * 60 * 1000;

/**
 * The service worker's registration and update prompt, from the render right after the server's
 * page has hydrated: registering starts in the hook's first render (and downloads workbox-window),
 * which the first screen does not need. A page the browser renders itself registers at once.
 */
export function PwaUpdatePrompt() {
  return useHydrated() ? <RegisteredUpdatePrompt /> : null;
}

/**
 * Registers the service worker (registerType 'prompt') and offers a reload when a new version
 * is waiting, instead of swapping code under a shopper mid-checkout.
 */
function RegisteredUpdatePrompt() {
  const {
    needRefresh: [needRefresh, setNeedRefresh],
    updateServiceWorker,
  } = useRegisterSW({
    onRegisteredSW(_swUrl, registration) {
      if (!registration) return;
      // Long-lived tabs and installed apps otherwise only look for updates on navigation.
      setInterval(() => {
        if (navigator.onLine) void registration.update();
      }, UPDATE_CHECK_INTERVAL_MS);
    },
    onRegisterError(error) {
      console.warn('Service worker registration failed', error);
    },
  });

  useEffect(() => {
    if (!needRefresh) return;
    let cancelled = false;
    // The toast UI (and its action button) is not in the main bundle: load it for this toast.
    void import('../components/ui/toast').then(
      ({ ToastAction }) => {
        if (cancelled) return;
        toast({
          title: 'New version available',
          description: 'Reload to use the latest version of the shop.',
          duration: Number.POSITIVE_INFINITY,
          action: (
            <ToastAction
              altText="Reload to use the new version"
              onClick={() => {
                setNeedRefresh(false);
                // workbox-window reloads on its own only when a worker controlled the page when it
                // loaded; after a first visit (the worker took control, clientsClaim) reload here.
                navigator.serviceWorker.addEventListener('controllerchange', () => window.location.reload(), { once: true });
                void updateServiceWorker(true);
              }}
            >
              Reload
            </ToastAction>
          ),
        });
      },
      (error: unknown) => console.warn('Could not load the update prompt', error),
    );
    return () => {
      cancelled = true;
    };
  }, [needRefresh, setNeedRefresh, updateServiceWorker]);

  return null;
}
