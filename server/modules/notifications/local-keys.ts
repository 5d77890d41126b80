/**
 * Local mode's own VAPID key pair (server/push-config.ts): made on first start, kept in the data
 * folder (mode 0600) and read on every start after, so the browsers subscribed to the demo keep
 * getting its order updates across restarts. Never logged.
 */
import webpush from 'web-push';
import { z } from 'zod';
import { loadDataFolderSecret } from '../../lib/data-folder-secret';
import { LOCAL_VAPID_SUBJECT, vapidPairMatches, type VapidKeys } from '../../push-config';

const fileSchema = z.object({ publicKey: z.string(), privateKey: z.string() });

export async function loadLocalPushKeys(file: string): Promise<VapidKeys> {
  const { value } = await loadDataFolderSecret(file, {
    // Ours only while the pair still matches (an edited file would sign what no browser accepts).
    parse: (json) => {
      const parsed = fileSchema.safeParse(json);
      return parsed.success && vapidPairMatches(parsed.data.publicKey, parsed.data.privateKey) ? parsed.data : null;
    },
    make: () => webpush.generateVAPIDKeys(),
  });
  return { ...value, subject: LOCAL_VAPID_SUBJECT };
}
