import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TABLE_OWNERS, TABLE_READERS } from '../eslint.config.js';

const ROOT = join(import.meta.dirname, '..');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** Every table the migrations create, by name. */
function migratedTables(): Set<string> {
  const tables = new Set<string>();
  for (const file of sources(join(ROOT, 'migrations'))) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/createTable\(\s*'([a-z_]+)'|create (?:unlogged )?table ([a-z_]+)/gi)) tables.add(m[1] ?? m[2]);
  }
  return tables;
}

/** The code without its comments: a comment may name a table in prose. */
const withoutComments = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');

/**
 * The tables a piece of code queries: a quoted table name (with an alias or not) as the first
 * argument of a call to the query builder (`db('variants as v')`, `.join('products as p', …)`, `.from('orders')`,
 * `.into('refunds')`), and a table after from / join / into / update / table in raw SQL.
 */
function tablesQueried(code: string, tables: Iterable<string>): string[] {
  const text = withoutComments(code);
  return [...tables].filter((table) =>
    new RegExp(`\\w\\(\\s*['"\`]${table}(?: as \\w+)?['"\`]|\\b(?:from|join|into|update|table)\\s+"?${table}"?\\b`, 'i').test(text),
  );
}

/** The declared reader (TABLE_READERS) a module file (its path under server/modules) is in, if any. */
const readerOf = (file: string) => Object.keys(TABLE_READERS).find((reader) => file.startsWith(`${reader}/`));

/**
 * The tables a piece of code writes: a query-builder chain on the table that inserts, updates,
 * deletes or upserts (within the statement, up to its semicolon), or raw SQL that inserts into,
 * updates or deletes from it.
 */
function tablesWritten(code: string, tables: Iterable<string>): string[] {
  const text = withoutComments(code);
  return [...tables].filter((table) =>
    new RegExp(
      `\\w\\(\\s*['"\`]${table}(?: as \\w+)?['"\`]\\s*\\)[^;]*\\.(?:insert|update|del|delete|increment|decrement|upsert|merge|truncate)\\(|\\b(?:insert\\s+into|update|delete\\s+from)\\s+"?${table}"?\\b`,
      'i',
    ).test(text),
  );
}

describe('table owners', () => {
  const tables = migratedTables();

  it('finds the tables a query names, and not those a comment names', () => {
    const found = tablesQueried(
      [
        '// reads from orders, as the desk does',
        "const rows = await trx('variants as v').join('products as p', 'p.id', 'v.product_id');",
        'await db.raw(`update "cart_items" set quantity = 1`);',
        "const key = 'refunds_total';",
        "const fields = ['orders', 'refunds'];",
      ].join('\n'),
      ['orders', 'variants', 'products', 'cart_items', 'refunds'],
    );
    expect(found).toEqual(['variants', 'products', 'cart_items']);
  });

  it('gives every table of the migrations exactly one owner', () => {
    const owners = new Map<string, string[]>();
    for (const [owner, owned] of Object.entries(TABLE_OWNERS)) for (const t of owned) owners.set(t, [...(owners.get(t) ?? []), owner]);
    expect([...tables].filter((t) => owners.get(t)?.length !== 1).map((t) => `${t}: ${owners.get(t)?.join(', ') ?? 'no owner'}`)).toEqual(
      [],
    );
    expect([...owners.keys()].filter((t) => !tables.has(t))).toEqual([]);
  });

  it("lets each module query only the tables it owns, and a declared reader read the tables it declares; others go through the owner's index", () => {
    const modules = readdirSync(join(ROOT, 'server/modules'), { withFileTypes: true }).filter((d) => d.isDirectory());
    const leaks: string[] = [];
    for (const { name } of modules) {
      expect(TABLE_OWNERS, `server/modules/${name} is missing from TABLE_OWNERS in eslint.config.js`).toHaveProperty(name);
      const own = new Set(TABLE_OWNERS[name]);
      for (const file of sources(join(ROOT, 'server/modules', name))) {
        const reader = readerOf(relative(join(ROOT, 'server/modules'), file));
        const read = new Set(reader ? TABLE_READERS[reader] : []);
        for (const table of tablesQueried(readFileSync(file, 'utf8'), tables)) {
          if (!own.has(table) && !read.has(table)) leaks.push(`${relative(ROOT, file)}: ${table}`);
        }
      }
    }
    expect(leaks).toEqual([]);
  });

  it('lets a declared reader write none of the tables it reads', () => {
    const writes: string[] = [];
    for (const [reader, read] of Object.entries(TABLE_READERS)) {
      expect(existsSync(join(ROOT, 'server/modules', reader)), `TABLE_READERS names server/modules/${reader}, which is not a folder`).toBe(
        true,
      );
      for (const file of sources(join(ROOT, 'server/modules', reader))) {
        for (const table of tablesWritten(readFileSync(file, 'utf8'), read)) writes.push(`${relative(ROOT, file)}: ${table}`);
      }
    }
    expect(writes).toEqual([]);
  });

  it('finds the writes to a table, and not its reads', () => {
    const found = tablesWritten(
      [
        "await trx('refunds').insert({ id: 1 });",
        "await db('orders as o').where({ id }).update({ status });",
        "await db('outbox').where({ id }).del();",
        'await trx.raw(`insert into payment_desk_items (transfer_id) values (?)`, [id]);',
        'await trx.raw(`update chain_transfers set status = ?`, [s]);',
        'await db.raw(`delete from checkout_tx_reports where id = ?`, [id]);',
        "const rows = await db('order_items').where({ order_id: id }).select('*');",
        'await db.raw(`select * from checkout_intents`);',
      ].join('\n'),
      ['refunds', 'orders', 'outbox', 'payment_desk_items', 'chain_transfers', 'checkout_tx_reports', 'order_items', 'checkout_intents'],
    );
    expect(found).toEqual(['refunds', 'orders', 'outbox', 'payment_desk_items', 'chain_transfers', 'checkout_tx_reports']);
  });

  it('lets the server outside its modules query no table: the operations files, the SEO routes and the wiring go through the modules', () => {
    const leaks: string[] = [];
    const own = new Set(TABLE_OWNERS.lib);
    for (const file of sources(join(ROOT, 'server'))) {
      const path = relative(ROOT, file);
      if (path.startsWith('server/modules/') || path.startsWith('server/test/')) continue;
      // server/lib is the shared infrastructure: its own tables (app_state, rate_limits) only.
      const allowed = path.startsWith('server/lib/') ? own : new Set<string>();
      for (const table of tablesQueried(readFileSync(file, 'utf8'), tables)) if (!allowed.has(table)) leaks.push(`${path}: ${table}`);
    }
    expect(leaks).toEqual([]);
  });
});
