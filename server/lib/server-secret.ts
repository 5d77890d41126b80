/**
 * The server's own secret: 32 random bytes made on first use and kept in the database
 * (`app_state`), so every instance shares it and a restart keeps it. Keys for one purpose each are
 * derived from it (HMAC-SHA256 of the purpose), so no two uses share a key. It signs what the
 * server hands out and must recognise later (the admin's device cookie) and pseudonymises what it
 * keeps but should not store in clear (where a checkout was opened from). Whoever can read the
 * database can read it; that reader has everything it protects already.
 */
import { createHmac, randomBytes } from 'node:crypto';
import type { Db } from '../db';
import { initState } from './app-state';

const STATE_KEY = 'server-secret';

export class ServerSecret {
  private secret: Promise<Buffer> | null = null;

  constructor(private readonly db: Db) {}

  /** The key for `purpose`: the same on every instance, different for every purpose. */
  async key(purpose: string): Promise<Buffer> {
    return createHmac('sha256', await this.read())
      .update(purpose)
      .digest();
  }

  private read(): Promise<Buffer> {
    // A failed read (the database away) is not kept: the next call asks again.
    this.secret ??= initState(this.db, STATE_KEY, () => randomBytes(32).toString('base64url')).then(
      (value) => Buffer.from(value, 'base64url'),
      (err: unknown) => {
        this.secret = null;
        throw err;
      },
    );
    return this.secret;
  }
}
