import type { Knex } from 'knex';

// The admin area. Frozen in time: migrations never import models.
//
// - admin_sessions: one row per login; the cookie carries a random token and only its SHA-256 is
//   stored. A session ends at expires_at (4 hours after login) or when ended_at is set (logout).
// - admin_login_state: the one row of the login lock, shared by every server instance. A login
//   updates it under a row lock (select … for update), so two processes cannot both count the
//   5th failure, nor let a login through a lock the other just set.
// - admin_audit_log: every admin login, logout, sync and change, with what changed (old → new).

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('admin_sessions', (t) => {
    t.text('id').primary(); // sha256(token), hex
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('ended_at', { useTz: true });
    t.index(['expires_at']);
  });

  await knex.schema.createTable('admin_login_state', (t) => {
    t.integer('id').primary();
    t.integer('failures').notNullable().defaultTo(0);
    t.timestamp('locked_until', { useTz: true });
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw('alter table admin_login_state add constraint admin_login_state_one_row check (id = 1)');
  await knex('admin_login_state').insert({ id: 1, failures: 0 });

  await knex.schema.createTable('admin_audit_log', (t) => {
    t.bigIncrements('id').primary();
    t.timestamp('at', { useTz: true }).notNullable();
    t.text('action').notNullable();
    // A short label of the admin session (a hash of its id, never the token); null for a refused login.
    t.text('session_label');
    t.text('target');
    t.jsonb('changes').notNullable().defaultTo('[]');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('admin_audit_log');
  await knex.schema.dropTableIfExists('admin_login_state');
  await knex.schema.dropTableIfExists('admin_sessions');
}
