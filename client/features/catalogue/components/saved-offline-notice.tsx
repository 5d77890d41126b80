import { useIsRestoring } from '@tanstack/react-query';
import { HardDriveDownload } from 'lucide-react';
import { useOfflineSave } from '../../../lib/offline-save';
import { useConnection } from '../../../lib/online-status';
import { useSavedProductCount } from '../hooks/use-saved-products';
import { savedOfflineText } from '../lib/saved-offline-text';

/**
 * On the home while the shop cannot reach its server: how many products this device saved for
 * offline browsing (the home's pages and the products opened), so a short grid is not a mystery.
 * Not shown while `saidBelow`: a search or filter's own line says where its results come from.
 */
export function SavedOfflineNotice({ saidBelow = false }: { saidBelow?: boolean }) {
  const connection = useConnection();
  const restoring = useIsRestoring();
  const active = connection !== 'online' && !restoring;
  const products = useSavedProductCount(active);
  const save = useOfflineSave();
  if (connection === 'online' || restoring || saidBelow) return null;
  return (
    <p
      data-testid="saved-offline-notice"
      data-products={products}
      className="flex items-start gap-3 rounded-(--radius-cap) border border-amber-300 bg-amber-50 p-4 text-sm text-amber-950"
    >
      <HardDriveDownload aria-hidden className="mt-0.5 size-5 shrink-0" />
      <span>{savedOfflineText(connection, products, Boolean(save?.error))}</span>
    </p>
  );
}
