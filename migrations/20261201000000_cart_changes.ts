import type { Knex } from 'knex';

// Every change to a session's cart lines, whoever makes it (an add, a removal, a paid checkout's
// lines leaving, a swept session's lines going with it), is announced at commit on the channel
// 'cart_changed' with the session's id: a process that keeps carts in memory (the cart module's
// answers) forgets that session's, without every writer having to say so.

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`create function cart_items_changed() returns trigger language plpgsql as $$
begin
  if tg_op <> 'INSERT' then perform pg_notify('cart_changed', old.session_id); end if;
  if tg_op <> 'DELETE' then perform pg_notify('cart_changed', new.session_id); end if;
  return null;
end $$`);
  await knex.raw(`create trigger cart_items_changed after insert or update or delete on cart_items
    for each row execute function cart_items_changed()`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop trigger if exists cart_items_changed on cart_items');
  await knex.raw('drop function if exists cart_items_changed()');
}
