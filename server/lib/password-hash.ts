/**
 * The admin password's hash: scrypt from Node's own crypto, in a self-describing line
 * `scrypt$N$r$p$saltB64$hashB64`, so the cost can rise later without breaking older hashes. Only
 * the hash is configured (ADMIN_PASSWORD_HASH); `npm run admin:hash` makes one.
 */
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

export interface ScryptParams {
  /** CPU/memory cost, a power of two. */
  N: number;
  r: number;
  p: number;
}

/** OWASP's recommended minimum for scrypt (2^17, 8, 1): about 128 MiB and a few hundred ms per check. */
export const DEFAULT_SCRYPT_PARAMS: ScryptParams = { N: 2 ** 17, r: 8, p: 1 };
const KEY_LENGTH = 32;
const SALT_LENGTH = 16;

const FORMAT = /^scrypt\$(\d{1,8})\$(\d{1,3})\$(\d{1,3})\$([A-Za-z0-9+/]{22,}={0,2})\$([A-Za-z0-9+/]{43,}={0,2})$/;

export interface ParsedPasswordHash extends ScryptParams {
  salt: Buffer;
  hash: Buffer;
}

/** The parts of a hash line, or a sentence saying what is wrong with it. */
export function parsePasswordHash(line: string): ParsedPasswordHash | string {
  const m = FORMAT.exec(line.trim());
  if (!m) return 'must be a line made by `npm run admin:hash` (scrypt$N$r$p$salt$hash)';
  const [N, r, p] = [Number(m[1]), Number(m[2]), Number(m[3])];
  // Bounds that keep a configured hash from asking for absurd memory or being trivially cheap.
  if (N < 2 ** 10 || N > 2 ** 20 || (N & (N - 1)) !== 0) return 'scrypt N must be a power of two from 1024 to 1048576';
  if (r < 1 || r > 32 || p < 1 || p > 16) return 'scrypt r must be 1..32 and p 1..16';
  // The pattern asks for at least 16 bytes of salt and 32 of hash.
  return { N, r, p, salt: Buffer.from(m[4]!, 'base64'), hash: Buffer.from(m[5]!, 'base64') };
}

function derive(password: string, salt: Buffer, length: number, { N, r, p }: ScryptParams): Promise<Buffer> {
  // scrypt needs 128·N·r bytes; Node's default ceiling (32 MiB) is below the recommended cost.
  const options: ScryptOptions = { N, r, p, maxmem: 256 * N * r + 1024 * 1024 };
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFC'), salt, length, options, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

/** A new hash line for `password`, with a random salt. */
export async function hashPassword(password: string, params: ScryptParams = DEFAULT_SCRYPT_PARAMS): Promise<string> {
  const salt = randomBytes(SALT_LENGTH);
  const key = await derive(password, salt, KEY_LENGTH, params);
  return `scrypt$${params.N}$${params.r}$${params.p}$${salt.toString('base64')}$${key.toString('base64')}`;
}

/** Whether `password` matches the hash line; compared in constant time. */
export async function verifyPassword(password: string, line: string): Promise<boolean> {
  const parsed = parsePasswordHash(line);
  if (typeof parsed === 'string') throw new Error(`ADMIN_PASSWORD_HASH ${parsed}`);
  const key = await derive(password, parsed.salt, parsed.hash.length, parsed);
  return timingSafeEqual(key, parsed.hash);
}
