import { useAfterFirstScreen } from '../lib/after-first-screen';
import { useOnDemand } from '../lib/use-on-demand';

const loadPrompt = () => import('./pwa-update-prompt');

/**
 * The service worker's registration and update prompt (pwa-update-prompt.tsx), loaded and run once
 * the first screen has settled: workbox-window, the registration and the worker's precache
 * downloads then never compete with the page's own code for the network or the main thread.
 */
export function LazyPwaUpdatePrompt() {
  const prompt = useOnDemand(useAfterFirstScreen(), loadPrompt);
  return prompt ? <prompt.PwaUpdatePrompt /> : null;
}
