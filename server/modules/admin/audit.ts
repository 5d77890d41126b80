/**
 * The admin audit trail: every login (success, failure, lock), logout, sync and change, with what
 * changed (old → new), when and from which session. Written in the transaction of the change it
 * records, so an entry exists exactly when the change does.
 */
import type { AuditAction, AuditEntry } from '../../../common/admin';
import type { Db } from '../../db';

export interface AuditChange {
  field: string;
  from: unknown;
  to: unknown;
}

export interface AuditRecord {
  at: Date;
  action: AuditAction;
  /** The acting session's label (sessionLabel), or null for a refused login. */
  session: string | null;
  target: string | null;
  changes: readonly AuditChange[];
}

export const AUDIT_DEFAULT_LIMIT = 50;
export const AUDIT_MAX_LIMIT = 200;

export async function recordAudit(db: Db, entry: AuditRecord): Promise<void> {
  await db('admin_audit_log').insert({
    at: entry.at,
    action: entry.action,
    session_label: entry.session,
    target: entry.target,
    // As text: knex would send a JS array as a Postgres array, not JSON.
    changes: JSON.stringify(entry.changes),
  });
}

/** The newest `limit` entries, newest first (by id: entries written in the same instant keep their order). */
export async function listAudit(db: Db, limit: number): Promise<AuditEntry[]> {
  const rows = await db('admin_audit_log').orderBy('id', 'desc').limit(limit);
  return rows.map((r) => ({
    id: String(r.id),
    at: new Date(r.at).toISOString(),
    action: r.action,
    session: r.session_label ?? null,
    target: r.target ?? null,
    changes: typeof r.changes === 'string' ? JSON.parse(r.changes) : r.changes,
  }));
}
