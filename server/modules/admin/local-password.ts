/**
 * Local mode without ADMIN_PASSWORD_HASH: a random admin password, made on first start and kept
 * with its hash in the data folder (file mode 0600), the way the Shopify emulator keeps its
 * secrets. Nobody can log in with a password from the source code, and the demo's admin needs
 * nothing but the line main.ts prints at start.
 */
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { loadDataFolderSecret } from '../../lib/data-folder-secret';
import { hashPassword, parsePasswordHash, verifyPassword } from '../../lib/password-hash';

const fileSchema = z.object({ password: z.string().min(12), hash: z.string().refine((h) => typeof parsePasswordHash(h) !== 'string') });

export interface LocalAdminPassword {
  password: string;
  hash: string;
  /** Made by this call (first start, or the file was not ours). */
  created: boolean;
}

/** The data folder's admin password: read from `file`, or made and written there (0600). A file that is not ours is replaced. */
export async function loadLocalAdminPassword(file: string): Promise<LocalAdminPassword> {
  const { value, created } = await loadDataFolderSecret(file, {
    // Ours only when the password still matches its hash (an edited file would lock the admin out).
    parse: async (json) => {
      const parsed = fileSchema.safeParse(json);
      return parsed.success && (await verifyPassword(parsed.data.password, parsed.data.hash)) ? parsed.data : null;
    },
    make: async () => {
      const password = randomBytes(18).toString('base64url');
      return { password, hash: await hashPassword(password) };
    },
  });
  return { ...value, created };
}
