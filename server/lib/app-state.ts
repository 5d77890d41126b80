/**
 * The `app_state` table: small named values (JSON) the server keeps across restarts and shares
 * between instances, such as the catalogue version, the last sync's result, the chain watcher's
 * cursor and the local demo token's address. Each value belongs to the code that names its key;
 * this is the one place that reads or writes the table.
 */
import type { Db } from '../db';

export async function setState(db: Db, key: string, value: unknown): Promise<void> {
  await db('app_state')
    .insert({ key, value: JSON.stringify(value), updated_at: db.fn.now() })
    .onConflict('key')
    .merge(['value', 'updated_at']);
}

export async function getState<T>(db: Db, key: string): Promise<T | undefined> {
  const row = await db('app_state').where({ key }).first('value');
  return row ? (row.value as T) : undefined;
}

/**
 * Adds one to the integer under `key` (1 when there is none) in one statement, so concurrent writers
 * never lose a count; answers the new value.
 */
export async function incrementState(db: Db, key: string): Promise<number> {
  const result = await db.raw(
    `insert into app_state (key, value, updated_at) values (?, '1'::jsonb, now())
     on conflict (key) do update set value = to_jsonb((app_state.value)::text::bigint + 1), updated_at = now()
     returning value`,
    [key],
  );
  return Number(result.rows[0].value);
}

/**
 * The value under `key`, made by `make` and stored when there is none. Concurrent first calls (on
 * any instances) all answer the one value that was stored first.
 */
export async function initState<T>(db: Db, key: string, make: () => T): Promise<T> {
  const found = await getState<T>(db, key);
  if (found !== undefined) return found;
  await db('app_state')
    .insert({ key, value: JSON.stringify(make()), updated_at: db.fn.now() })
    .onConflict('key')
    .ignore();
  return (await getState<T>(db, key))!;
}
