import type { Knex } from 'knex';

// The payments desk's queue kept as a table of its own, so a page reads the page and not the
// queue. Frozen in time: migrations never import models, so the rule below (payments'
// desk-kinds.ts as it was that day: which transfer needs a person, and as what) is written out;
// a later change of the rule comes with a migration that replaces payment_desk_refresh, and the
// payments module's desk-queue test fails until it does (it checks this table against the rule
// read from scratch after every kind of change).
//
// - payment_desk_items: one row per transfer that is a desk item (its kind is not null), with
//   its time and whether it was resolved: the open tab and the history are index ranges of
//   (resolved, created_at, transfer_id), one kind of (resolved, kind, created_at, transfer_id).
// - payment_desk_counts: how many items of each kind each tab holds, as additions: a change adds
//   a row of its difference, and folds the rows no other transaction holds into one per tab and
//   kind (skip locked), so writers never wait for each other and the table stays a few rows.
// - payment_desk_refresh(ids): computes the kind of transfers `ids` from their facts (the
//   transfer, its checkout's order, its resolution) and brings their rows and the counts in line.
//   It first locks what serialises two changes of one transfer's facts: its checkout (which the
//   order hangs on) or, without one, the transfer itself; so the second change's refresh reads
//   the first's facts once committed, whatever table each changed.
// - Triggers on chain_transfers, orders and payment_desk_resolutions call it in the same
//   statement as the change (statement-level, over the rows changed), for the transfers whose
//   facts changed: nothing else writes these tables.
// - orders_flagged (the desk_volume migration's partial index of the orders whose transfers may
//   be on the desk) is dropped: the desk reads its own table now.

const KIND = `(case when (case when ct.status = 'refunded' then coalesce(ct.status_before_refund, 'unmatched') else ct.status end) = 'matched'
  then (case
    when (o.status_reason = 'payment-reorged') then 'reorged'
    when (o.tx_hash = ct.tx_hash and o.log_index = ct.log_index) and (o.hold_reason is not null) then 'out-of-stock'
    when (o.tx_hash = ct.tx_hash and o.log_index = ct.log_index) and (o.overpaid) then 'overpaid'
    when (o.tx_hash = ct.tx_hash and o.log_index = ct.log_index) and (o.late) then 'late' end)
  else (case (case when ct.status = 'refunded' then coalesce(ct.status_before_refund, 'unmatched') else ct.status end)
    when 'removed' then 'reorged' when 'unmatched' then 'unmatched' when 'underpaid' then 'underpaid'
    when 'extra-payment' then 'overpaid' end) end)`;

const REFRESH = `
create function payment_desk_refresh(ids integer[]) returns void language plpgsql as $$
declare
  changed integer;
begin
  perform 1 from checkout_intents where id in (select intent_id from chain_transfers where id = any(ids)) order by id for no key update;
  perform 1 from chain_transfers where id = any(ids) and intent_id is null order by id for no key update;
  with mine as (select distinct u.id from unnest(ids) as u(id)),
  wanted as (
    select ct.id as transfer_id, ct.created_at, ${KIND} as kind,
           exists (select 1 from payment_desk_resolutions r where r.transfer_id = ct.id) as resolved
      from chain_transfers ct join mine on mine.id = ct.id left join orders o on o.intent_id = ct.intent_id
     where ${KIND} is not null
  ),
  was as (select i.resolved, i.kind from payment_desk_items i join mine on mine.id = i.transfer_id),
  gone as (
    delete from payment_desk_items i using mine
     where i.transfer_id = mine.id and not exists (select 1 from wanted w where w.transfer_id = i.transfer_id)
  ),
  kept as (
    insert into payment_desk_items (transfer_id, kind, created_at, resolved)
    select transfer_id, kind, created_at, resolved from wanted
    on conflict (transfer_id) do update set kind = excluded.kind, created_at = excluded.created_at, resolved = excluded.resolved
     where (payment_desk_items.kind, payment_desk_items.created_at, payment_desk_items.resolved)
           is distinct from (excluded.kind, excluded.created_at, excluded.resolved)
  )
  insert into payment_desk_counts (resolved, kind, n)
  select d.resolved, d.kind, sum(d.n)::integer
    from (select resolved, kind, 1 as n from wanted union all select resolved, kind, -1 from was) d
   group by d.resolved, d.kind having sum(d.n) <> 0;
  get diagnostics changed = row_count;
  if changed > 0 then
    with folded as (
      delete from payment_desk_counts where ctid in (select ctid from payment_desk_counts for update skip locked)
      returning resolved, kind, n
    )
    insert into payment_desk_counts (resolved, kind, n)
    select resolved, kind, sum(n)::integer from folded group by resolved, kind having sum(n) <> 0;
  end if;
end $$`;

// The transfers whose facts changed: the rows written, or (an update) those whose kind's facts differ.
const ON_TRANSFERS = `
create function payment_desk_on_transfers() returns trigger language plpgsql as $$
begin
  if tg_op = 'INSERT' then
    perform payment_desk_refresh(array(select id from new_rows));
  elsif tg_op = 'DELETE' then
    perform payment_desk_refresh(array(select id from old_rows));
  else
    perform payment_desk_refresh(array(
      select n.id from new_rows n join old_rows p on p.id = n.id
       where (n.status, n.status_before_refund, n.intent_id, n.tx_hash, n.log_index, n.created_at)
             is distinct from (p.status, p.status_before_refund, p.intent_id, p.tx_hash, p.log_index, p.created_at)));
  end if;
  return null;
end $$`;

// The transfers of the checkouts whose order changed a fact, found once their checkouts are
// locked (so a transfer written meanwhile to one of them is found too).
const ON_ORDERS = `
create function payment_desk_on_orders() returns trigger language plpgsql as $$
declare
  intents text[];
begin
  if tg_op = 'INSERT' then
    intents := array(select intent_id from new_rows);
  elsif tg_op = 'DELETE' then
    intents := array(select intent_id from old_rows);
  else
    intents := array(
      select x.intent_id from new_rows n join old_rows p on p.id = n.id,
             lateral (values (n.intent_id), (p.intent_id)) as x(intent_id)
       where (n.intent_id, n.status_reason = 'payment-reorged', n.hold_reason is not null, n.overpaid, n.late, n.tx_hash, n.log_index)
             is distinct from (p.intent_id, p.status_reason = 'payment-reorged', p.hold_reason is not null, p.overpaid, p.late, p.tx_hash, p.log_index));
  end if;
  if cardinality(intents) = 0 then
    return null;
  end if;
  perform 1 from checkout_intents where id = any(intents) order by id for no key update;
  perform payment_desk_refresh(array(select id from chain_transfers where intent_id = any(intents)));
  return null;
end $$`;

const ON_RESOLUTIONS = `
create function payment_desk_on_resolutions() returns trigger language plpgsql as $$
begin
  if tg_op = 'INSERT' then
    perform payment_desk_refresh(array(select transfer_id from new_rows));
  elsif tg_op = 'DELETE' then
    perform payment_desk_refresh(array(select transfer_id from old_rows));
  else
    perform payment_desk_refresh(array(select transfer_id from new_rows union select transfer_id from old_rows));
  end if;
  return null;
end $$`;

const TRIGGERS: Array<[table: string, fn: string]> = [
  ['chain_transfers', 'payment_desk_on_transfers'],
  ['orders', 'payment_desk_on_orders'],
  ['payment_desk_resolutions', 'payment_desk_on_resolutions'],
];

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table payment_desk_items (
      transfer_id integer primary key,
      kind text not null,
      created_at timestamptz not null,
      resolved boolean not null
    )`);
  await knex.raw('create index payment_desk_items_tab on payment_desk_items (resolved, created_at, transfer_id)');
  await knex.raw('create index payment_desk_items_tab_kind on payment_desk_items (resolved, kind, created_at, transfer_id)');
  await knex.raw('create table payment_desk_counts (resolved boolean not null, kind text not null, n integer not null)');
  await knex.raw(REFRESH);
  await knex.raw(ON_TRANSFERS);
  await knex.raw(ON_ORDERS);
  await knex.raw(ON_RESOLUTIONS);
  for (const [table, fn] of TRIGGERS) {
    await knex.raw(`create trigger ${fn}_insert after insert on ${table} referencing new table as new_rows
      for each statement execute function ${fn}()`);
    await knex.raw(`create trigger ${fn}_update after update on ${table} referencing old table as old_rows new table as new_rows
      for each statement execute function ${fn}()`);
    await knex.raw(`create trigger ${fn}_delete after delete on ${table} referencing old table as old_rows
      for each statement execute function ${fn}()`);
  }
  await knex.raw('drop index if exists orders_flagged');
  // The items there are already, and their counts.
  await knex.raw(`
    insert into payment_desk_items (transfer_id, kind, created_at, resolved)
    select ct.id, ${KIND}, ct.created_at, exists (select 1 from payment_desk_resolutions r where r.transfer_id = ct.id)
      from chain_transfers ct left join orders o on o.intent_id = ct.intent_id
     where ${KIND} is not null`);
  await knex.raw(`
    insert into payment_desk_counts (resolved, kind, n)
    select resolved, kind, count(*)::integer from payment_desk_items group by resolved, kind`);
}

export async function down(knex: Knex): Promise<void> {
  for (const [table, fn] of TRIGGERS)
    for (const op of ['insert', 'update', 'delete']) await knex.raw(`drop trigger if exists ${fn}_${op} on ${table}`);
  for (const [, fn] of TRIGGERS) await knex.raw(`drop function if exists ${fn}()`);
  await knex.raw('drop function if exists payment_desk_refresh(integer[])');
  await knex.raw('drop table if exists payment_desk_counts');
  await knex.raw('drop table if exists payment_desk_items');
  await knex.raw(
    `create index if not exists orders_flagged on orders (intent_id)
       where status_reason = 'payment-reorged' or hold_reason is not null or overpaid or late`,
  );
}
