import type { Knex } from 'knex';

// Every change to a session's cart lines, whoever makes it (an add, a removal, a paid checkout's
// lines leaving, a swept session's lines going with it), moves that session's cart version
// (cart_versions) in the changing transaction, and is announced at commit on the channel
// 'cart_changed' with the session's id. A process that keeps carts in memory (the cart module's
// answers) compares the version it kept with the database's, or forgets a session's cart on hearing
// it, without every writer having to say so.
//
// Triggers per statement, not per row: a statement's sessions are versioned once, in the order of
// their ids, after its rows are written; no transaction takes a version's lock before a line's, so
// two writers of one cart never wait on each other in opposite orders. A session being deleted
// (its lines going with it) gets no version: its row goes too.

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('cart_versions', (t) => {
    t.text('session_id').primary().references('id').inTable('sessions').onDelete('CASCADE');
    t.bigInteger('version').notNullable();
  });
  // Carts that exist already start at version 1, so a later change only ever updates a version's row:
  // the first row of a session's version is made by its first line's add, which holds the session.
  await knex.raw('insert into cart_versions (session_id, version) select distinct session_id, 1 from cart_items');
  await knex.raw(`create function cart_lines_changed() returns trigger language plpgsql as $$
declare
  changed text[];
  s text;
begin
  if tg_op = 'UPDATE' then
    select array_agg(distinct session_id order by session_id) into changed
      from (select session_id from before_lines union all select session_id from lines) both_sides;
  else
    select array_agg(distinct session_id order by session_id) into changed from lines;
  end if;
  if changed is null then return null; end if;
  insert into cart_versions (session_id, version)
    select id, 1 from sessions where id = any(changed) order by id
    on conflict (session_id) do update set version = cart_versions.version + 1;
  foreach s in array changed loop
    perform pg_notify('cart_changed', s);
  end loop;
  return null;
end $$`);
  await knex.raw(`create trigger cart_lines_inserted after insert on cart_items
    referencing new table as lines for each statement execute function cart_lines_changed()`);
  await knex.raw(`create trigger cart_lines_updated after update on cart_items
    referencing old table as before_lines new table as lines for each statement execute function cart_lines_changed()`);
  await knex.raw(`create trigger cart_lines_deleted after delete on cart_items
    referencing old table as lines for each statement execute function cart_lines_changed()`);
}

export async function down(knex: Knex): Promise<void> {
  for (const name of ['cart_lines_inserted', 'cart_lines_updated', 'cart_lines_deleted']) {
    await knex.raw(`drop trigger if exists ${name} on cart_items`);
  }
  await knex.raw('drop function if exists cart_lines_changed()');
  await knex.schema.dropTableIfExists('cart_versions');
}
