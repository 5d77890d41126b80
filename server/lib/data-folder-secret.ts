/**
 * A small secret kept as JSON in the data folder, readable by its owner only (mode 0600): made
 * once, then read on every start. Local mode keeps the Shopify emulator's keys and the generated
 * admin password this way. A file that is not ours any more (unreadable, wrong shape) is replaced:
 * such secrets guard only the local demo.
 */
import fs from 'node:fs';
import path from 'node:path';

export interface DataFolderSecretOptions<T> {
  /** The secret from the file's JSON, or null when it is not one of ours. */
  parse: (value: unknown) => T | null | Promise<T | null>;
  /** A new secret, when there is none (or the file was not ours). */
  make: () => T | Promise<T>;
  /** Told before a file that is not ours is replaced. */
  onReplace?: () => void;
}

export async function loadDataFolderSecret<T>(file: string, opts: DataFolderSecretOptions<T>): Promise<{ value: T; created: boolean }> {
  const found = await read(file, opts.parse);
  if (found !== 'missing' && found !== 'invalid') {
    // Copied around with looser permissions: only this user should read it.
    if (process.platform !== 'win32' && (fs.statSync(file).mode & 0o077) !== 0) fs.chmodSync(file, 0o600);
    return { value: found.value, created: false };
  }
  if (found === 'invalid') {
    opts.onReplace?.();
    fs.rmSync(file, { force: true });
  }
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const value = await opts.make();
  try {
    // 'wx': create only; the mode applies on creation.
    fs.writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
  } catch (err) {
    // Another process made it first: use that one.
    const theirs = (err as NodeJS.ErrnoException).code === 'EEXIST' ? await read(file, opts.parse) : undefined;
    if (typeof theirs === 'object') return { value: theirs.value, created: false };
    throw err;
  }
  return { value, created: true };
}

async function read<T>(file: string, parse: DataFolderSecretOptions<T>['parse']): Promise<{ value: T } | 'missing' | 'invalid'> {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
    throw err;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return 'invalid';
  }
  const value = await parse(json);
  return value === null ? 'invalid' : { value };
}
