import { CloudOff } from 'lucide-react';
import { Card } from '../../../components/ui/card';
import type { Connection } from '../../../lib/online-status';
import { notSavedText } from '../lib/saved-offline-text';
import { BackToShop } from './product-not-found';

/** A product page the device has not saved, opened while the shop cannot reach its server. */
export function ProductNotSaved({ connection }: { connection: Exclude<Connection, 'online'> }) {
  return (
    <Card className="mx-auto grid max-w-md justify-items-center gap-3 p-8 text-center" data-testid="product-not-saved">
      <CloudOff aria-hidden className="size-10 text-muted-foreground" />
      <h1 className="text-xl font-bold">Not saved for offline browsing</h1>
      <p className="text-sm text-muted-foreground">{notSavedText(connection)}</p>
      <BackToShop />
    </Card>
  );
}
