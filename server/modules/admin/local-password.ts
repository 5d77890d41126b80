/**
 * Local mode without ADMIN_PASSWORD_HASH: a random admin password, made on first start and kept
 * with its hash in the data folder (file mode 0600), the way the Shopify emulator keeps its
 * secrets. Nobody can log in with a password from the source code, and the demo's admin needs
 * nothing but the line main.ts prints at start.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { hashPassword, parsePasswordHash, verifyPassword } from '../../lib/password-hash';

const fileSchema = z.object({ password: z.string().min(12), hash: z.string().refine((h) => typeof parsePasswordHash(h) !== 'string') });

export interface LocalAdminPassword {
  password: string;
  hash: string;
  /** Made by this call (first start, or the file was not ours). */
  created: boolean;
}

async function read(file: string): Promise<{ password: string; hash: string } | 'missing' | 'invalid'> {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
    throw err;
  }
  try {
    const parsed = fileSchema.safeParse(JSON.parse(text));
    return parsed.success && (await verifyPassword(parsed.data.password, parsed.data.hash)) ? parsed.data : 'invalid';
  } catch {
    return 'invalid';
  }
}

/** The data folder's admin password: read from `file`, or made and written there (0600). A file that is not ours is replaced. */
export async function loadLocalAdminPassword(file: string): Promise<LocalAdminPassword> {
  const found = await read(file);
  if (typeof found === 'object') {
    if (process.platform !== 'win32' && (fs.statSync(file).mode & 0o077) !== 0) fs.chmodSync(file, 0o600);
    return { ...found, created: false };
  }
  if (found === 'invalid') fs.rmSync(file, { force: true });
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const password = randomBytes(18).toString('base64url');
  const hash = await hashPassword(password);
  try {
    // 'wx': create only; the mode applies on creation.
    fs.writeFileSync(file, `${JSON.stringify({ password, hash }, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
  } catch (err) {
    // Another process made it first: use that one.
    const theirs = (err as NodeJS.ErrnoException).code === 'EEXIST' ? await read(file) : undefined;
    if (typeof theirs === 'object') return { ...theirs, created: false };
    throw err;
  }
  return { password, hash, created: true };
}
