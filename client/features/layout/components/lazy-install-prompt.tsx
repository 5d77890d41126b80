import { useAfterFirstScreen } from '../../../lib/after-first-screen';
import { useOnDemand } from '../../../lib/use-on-demand';

const loadInstallPrompt = () => import('./install-prompt');

/**
 * The install offer (install-prompt.tsx), loaded once the first screen has settled: the browser
 * decides the shop is installable seconds after the page anyway, and the offer it makes before
 * then is kept from the page's first scripts on (lib/install-events.ts).
 */
export function LazyInstallPrompt() {
  const module = useOnDemand(useAfterFirstScreen(), loadInstallPrompt);
  return module ? <module.InstallPrompt /> : null;
}
