/**
 * What a start that failed says: for the failures an operator can fix, one plain sentence that
 * names the setting to check, without a stack and never with a password (a database URL is never
 * quoted); anything else is a bug, logged with its stack.
 */
import { isLostDatabaseConnection } from '../lib/db-errors';
import { reasonOf } from '../lib/outages';

/** A failure whose message is already the sentence to show (e.g. the local database's set-up). */
export class StartError extends Error {
  override name = 'StartError';
}

const codeOf = (err: unknown): string | undefined => {
  for (let e = err as { code?: unknown; nativeError?: unknown; cause?: unknown } | null, depth = 0; e && depth < 6; depth++) {
    if (typeof e.code === 'string') return e.code;
    e = (e.nativeError ?? e.cause) as typeof e;
  }
  return undefined;
};

export function startFailureSentence(err: unknown): string | null {
  if (err instanceof StartError) return err.message;
  const code = codeOf(err);
  if (code === '28P01' || code === '28000') {
    return 'the database refused the shop’s login: check the user and password in DATABASE_URL (or PGPASSWORD)';
  }
  if (code === '3D000') return 'the database named in DATABASE_URL does not exist: create it, or correct the name';
  if (isLostDatabaseConnection(err)) {
    const reason = (err as { name?: unknown }).name === 'KnexTimeoutError' ? 'no connection within 10 s' : reasonOf(err);
    return `the database does not answer (${reason}): check that Postgres runs and that DATABASE_URL names its host and port`;
  }
  return null;
}
