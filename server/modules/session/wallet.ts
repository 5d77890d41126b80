/**
 * A session's proven wallet (Sign-In with Ethereum) and the session row's lock, for the modules
 * that act for a session: the sessions table is this module's, so they come here rather than query
 * it. Each function takes the caller's connection or transaction, so it joins the caller's work.
 */
import type { Knex } from 'knex';
import type { Db } from '../../db';

type Conn = Db | Knex.Transaction;

/**
 * Locks the session's row until the caller's transaction ends: what a session does that must not
 * interleave (two adds to one cart line, two checkouts of one cart) waits its turn. False when the
 * session does not exist.
 */
export async function lockSession(trx: Knex.Transaction, sessionId: string): Promise<boolean> {
  return Boolean(await trx('sessions').where({ id: sessionId }).forUpdate().first('id'));
}

/** Records the wallet the session proved, until `expiresAt`; null for both signs it out. */
export async function setSessionWallet(db: Conn, sessionId: string, address: string | null, expiresAt: Date | null): Promise<void> {
  await db('sessions').where({ id: sessionId }).update({ wallet_address: address, wallet_expires_at: expiresAt });
}

/** The wallet the session has proven and until when, or null (none, or its proof has expired at `now`). */
export async function sessionWallet(db: Conn, sessionId: string, now: Date): Promise<{ address: string; expiresAt: Date } | null> {
  const row = await db('sessions').where({ id: sessionId }).first('wallet_address', 'wallet_expires_at');
  if (!row?.wallet_address || !row.wallet_expires_at || new Date(row.wallet_expires_at) <= now) return null;
  return { address: row.wallet_address, expiresAt: new Date(row.wallet_expires_at) };
}

/**
 * The sessions whose proven wallet is `address` at `now`, as a subquery of their ids for the
 * caller's `whereIn` (one query: settlement finds a proven sender's checkouts with it).
 */
export function sessionsProvenBy(db: Conn, address: string, now: Date): Knex.QueryBuilder {
  return db('sessions').where('wallet_address', address).where('wallet_expires_at', '>', now).select('id');
}

/**
 * The sessions that ever proved `address` (the proof may have expired since), as a subquery of
 * their ids: evidence of who a session was, as the admin's attach sheet weighs it.
 */
export function sessionsThatProved(db: Conn, address: string): Knex.QueryBuilder {
  return db('sessions').where('wallet_address', address).select('id');
}

/**
 * The wallet a session last proved (expired or not), as a column named `as` of the caller's
 * query, for the session whose id is in the caller's column `sessionIdColumn` (e.g. 'c.session_id').
 */
export function sessionWalletColumn(db: Conn, sessionIdColumn: string, as: string): Knex.Raw {
  return db.raw('(select s.wallet_address from sessions s where s.id = ??) as ??', [sessionIdColumn, as]);
}
