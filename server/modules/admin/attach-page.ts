/**
 * The attach sheet's search and pages (attach.ts): what the admin's `q` asks for, and the cursor
 * that continues a page after the last candidate it listed.
 *
 * `q` is read by its form: a wallet address (0x and 40 hex), an amount of POG (digits with an
 * optional fraction, at most 18 decimals, exact: parsed to wei, never a float) or the start of a
 * checkout id (at least 4 of its characters, hex and dashes, with a letter or a dash: digits alone
 * are an amount). Anything else is refused with `bad-request` and the forms it may take.
 *
 * A cursor names the last candidate's place (RankKey) and is bound to the transfer and the search:
 * the next page lists the candidates placed after it, so one that leaves the list between pages (it
 * was paid) moves nobody else out of sight. Another list's cursor is refused (`invalid-cursor`).
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { ErrorCode } from '../../../common/errors';
import { parseUnits } from '../../../common/money';
import { AppError } from '../../lib/errors';
import type { AttachSearch } from './desk/attach-reads';
import { compareKeys, type Placed, type RankKey } from './attach-rank';

const SEARCH_FORMS =
  'search by a wallet address (0x and 40 hex), an amount of POG ("76.5") or the start of a checkout id (4 characters or more)';

/** The search `q` asks for (null for none); 400 `bad-request` when it has none of the forms. */
export function parseSearch(q: string | undefined): AttachSearch | null {
  const text = (q ?? '').trim();
  if (!text) return null;
  if (/^0x[0-9a-fA-F]{40}$/.test(text)) return { kind: 'address', address: text.toLowerCase() };
  if (/^\d{1,30}(\.\d+)?$/.test(text)) {
    const fraction = text.split('.')[1] ?? '';
    if (fraction.length > 18) throw new AppError(ErrorCode.badRequest, `An amount of POG has at most 18 decimals: ${SEARCH_FORMS}.`);
    const wei = parseUnits(text);
    if (wei === 0n) throw new AppError(ErrorCode.badRequest, `An amount to search for must be more than 0: ${SEARCH_FORMS}.`);
    return { kind: 'amount', wei };
  }
  if (/^[0-9a-fA-F-]{4,36}$/.test(text) && /[a-fA-F-]/.test(text)) return { kind: 'checkout', prefix: text.toLowerCase() };
  throw new AppError(ErrorCode.badRequest, `Nothing to search for in "${text.slice(0, 40)}": ${SEARCH_FORMS}.`);
}

/** What a cursor is bound to: the transfer and the search (another list's cursor is refused). */
export function listKey(transferId: string, search: AttachSearch | null): string {
  const what = search ? { ...search, wei: search.kind === 'amount' ? search.wei.toString() : undefined } : null;
  return createHash('sha256')
    .update(JSON.stringify([transferId, what]))
    .digest('base64url')
    .slice(0, 12);
}

const cursorSchema = z.tuple([
  z.string().length(12),
  z.union([z.literal(0), z.literal(1)]),
  z.union([z.literal(0), z.literal(1)]),
  z.union([z.literal(0), z.literal(1)]),
  z.number().int().min(0),
  z.string().regex(/^\d{1,80}$/),
  z.number().int().min(0),
  z.string().min(1).max(64),
]);

/** The cursor after the candidate placed at `key`, for the list `list`; opaque to the client. */
export function encodeCursor(list: string, key: RankKey): string {
  const fields = [list, key.sender, key.reported, key.after, key.round, key.distance.toString(), key.gap, key.id];
  return Buffer.from(JSON.stringify(fields), 'utf8').toString('base64url');
}

/** The place a cursor continues after; 400 `invalid-cursor` when it is not this list's. */
export function decodeCursor(cursor: string, list: string): RankKey {
  let fields: unknown = null;
  try {
    if (/^[A-Za-z0-9_-]{1,300}$/.test(cursor)) fields = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    fields = null;
  }
  const parsed = cursorSchema.safeParse(fields);
  if (!parsed.success)
    throw new AppError(
      ErrorCode.invalidCursor,
      'cursor must be the nextCursor of the previous page, as it was given (or leave it out for the first page)',
    );
  const [bound, sender, reported, after, round, distance, gap, id] = parsed.data;
  if (bound !== list)
    throw new AppError(
      ErrorCode.invalidCursor,
      'This cursor belongs to another transfer or search: start again from the first page (leave cursor out) for this one',
    );
  return { sender, reported, after, round, distance: BigInt(distance), gap, id };
}

/** The `limit` candidates placed after `after` (from the first without it), and the next page's cursor. */
export function pageOf(placed: readonly Placed[], after: RankKey | null, limit: number, list: string) {
  const from = after ? placed.findIndex((p) => compareKeys(p.key, after) > 0) : 0;
  const page = from < 0 ? [] : placed.slice(from, from + limit);
  const more = from >= 0 && from + limit < placed.length;
  return { page, nextCursor: more ? encodeCursor(list, page.at(-1)!.key) : null };
}
