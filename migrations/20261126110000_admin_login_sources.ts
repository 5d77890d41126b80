import type { Knex } from 'knex';

// The admin login lock, counted per source. Frozen in time: migrations never import models.
//
// - admin_login_counters: one row per source of wrong passwords, shared by every server instance:
//   `ip:<address>` (an IPv6 client by its /64), `device:<id>` (a browser that logged in before,
//   named by its signed device cookie) and `global` (every source together: the brake against
//   guessing from many places). A row counts the failures of its window (from the first failure)
//   and, once there were too many, the end of its lock. A login locks the rows it may move, in key
//   order (select … for update), so concurrent attempts on any instances are counted one at a time.
//
// admin_login_state, the one row every source shared, is no longer read. It stays for a previous
// version still serving while instances roll over (migrations are additive within a release).

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('admin_login_counters', (t) => {
    t.text('key').primary();
    t.integer('failures').notNullable().defaultTo(0);
    /** The first failure of the current count; the count lapses a window after it. */
    t.timestamp('window_started_at', { useTz: true });
    t.timestamp('locked_until', { useTz: true });
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['updated_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('admin_login_counters');
}
