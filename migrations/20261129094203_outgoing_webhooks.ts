import type { Knex } from 'knex';

// The merchant's webhook endpoints (docs/webhooks.md): events sent, signed, to the merchant's own
// systems. Frozen in time: migrations never import models.
//
// - webhook_endpoints: where to send, which events, the signing secret (and the one before the
//   last rotation, until when it still signs), whether it is enabled (and why not), and since
//   when every attempt has failed.
// - webhook_messages: one row per event (`msg_…`, the `webhook-id`), unique by `key` (one change is
//   one event, whichever instance wrote it); `subject` names what it is about for the composer;
//   `payload` is the body, composed when the event is first sent and never changed after.
// - webhook_deliveries: one event to one endpoint (unique), with its retry state; a bigint id for
//   the admin's cursors. webhook_attempts: each attempt of a delivery (the latest 20 are kept).
// - webhook_queue(type, key, subject, at, due): the message and one pending delivery per enabled
//   endpoint that chose the type, nothing when none does; the server calls it in the transaction of
//   each change, and so does the trigger below.
// - payment.needs_attention: the payments desk's queue (payment_desk_items) is kept by the
//   database itself, so the event is queued by a trigger on it, in the same transaction (at its
//   commit): a transfer that is in the queue unresolved as unmatched, underpaid, overpaid or late
//   when the change commits is one event per transfer and kind.

const QUEUE = `
create function webhook_queue(p_type text, p_key text, p_subject text, p_at timestamptz, p_due timestamptz) returns void
language plpgsql as $$
declare
  msg text;
begin
  if not exists (select 1 from webhook_endpoints where enabled and events @> jsonb_build_array(p_type)) then
    return;
  end if;
  insert into webhook_messages (id, type, key, subject, created_at)
  values ('msg_' || replace(gen_random_uuid()::text, '-', ''), p_type, p_key, p_subject, p_at)
  on conflict (key) do nothing
  returning id into msg;
  if msg is null then
    return;
  end if;
  insert into webhook_deliveries (message_id, endpoint_id, status, attempts, next_attempt_at, created_at)
  select msg, e.id, 'pending', 0, p_due, p_at from webhook_endpoints e where e.enabled and e.events @> jsonb_build_array(p_type);
end $$`;

// Deferred to the commit, and reading the item as it is then: a transfer that settlement writes
// first as unmatched and then matches in the same transaction was never in the queue for anyone.
const ON_DESK_ITEMS = `
create function webhook_on_desk_items() returns trigger language plpgsql as $$
declare
  item record;
begin
  select kind, resolved into item from payment_desk_items where transfer_id = new.transfer_id;
  if found and item.kind = new.kind and item.kind in ('unmatched', 'underpaid', 'overpaid', 'late') and not item.resolved then
    perform webhook_queue('payment.needs_attention', 'payment.needs_attention:' || new.transfer_id || ':' || item.kind,
                          new.transfer_id || ':' || item.kind, now(), now());
  end if;
  return null;
end $$`;

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('webhook_endpoints', (t) => {
    t.text('id').primary();
    t.text('url').notNullable();
    t.text('description').notNullable().defaultTo('');
    /** The event types chosen, a JSON array of strings. */
    t.jsonb('events').notNullable();
    t.text('secret').notNullable();
    t.text('previous_secret');
    t.timestamp('previous_secret_until', { useTz: true });
    t.boolean('enabled').notNullable().defaultTo(true);
    /** `admin` or `failing`, while disabled. */
    t.text('disabled_reason');
    t.timestamp('disabled_at', { useTz: true });
    t.timestamp('failing_since', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
  });
  await knex.schema.createTable('webhook_messages', (t) => {
    t.text('id').primary();
    t.text('type').notNullable();
    t.text('key').notNullable().unique();
    t.text('subject').notNullable();
    t.text('payload');
    t.timestamp('created_at', { useTz: true }).notNullable();
  });
  await knex.schema.createTable('webhook_deliveries', (t) => {
    t.bigIncrements('id').primary();
    t.text('message_id').notNullable().references('id').inTable('webhook_messages').onDelete('CASCADE');
    t.text('endpoint_id').notNullable().references('id').inTable('webhook_endpoints').onDelete('CASCADE');
    /** pending, delivered or failed. */
    t.text('status').notNullable();
    t.integer('attempts').notNullable().defaultTo(0);
    /** Attempts in the current retry schedule (a redelivery starts a new one). */
    t.integer('schedule_step').notNullable().defaultTo(0);
    /** When it is tried next (a claimed one: when its lease ends); null once delivered or given up. */
    t.timestamp('next_attempt_at', { useTz: true });
    t.timestamp('last_attempt_at', { useTz: true });
    t.integer('last_response_status');
    t.text('last_error');
    t.timestamp('delivered_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.unique(['message_id', 'endpoint_id']);
    t.index(['endpoint_id', 'id']);
    t.index(['endpoint_id', 'status', 'id']);
  });
  await knex.raw("create index webhook_deliveries_due on webhook_deliveries (next_attempt_at) where status = 'pending'");
  await knex.schema.createTable('webhook_attempts', (t) => {
    t.bigIncrements('id').primary();
    t.bigInteger('delivery_id').notNullable().references('id').inTable('webhook_deliveries').onDelete('CASCADE');
    t.timestamp('at', { useTz: true }).notNullable();
    t.integer('response_status');
    t.integer('duration_ms').notNullable();
    t.text('error');
    t.index(['delivery_id', 'id']);
  });
  await knex.raw(QUEUE);
  await knex.raw(ON_DESK_ITEMS);
  await knex.raw(`create constraint trigger webhook_on_desk_items after insert or update of kind, resolved on payment_desk_items
    deferrable initially deferred for each row execute function webhook_on_desk_items()`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop trigger if exists webhook_on_desk_items on payment_desk_items');
  await knex.raw('drop function if exists webhook_on_desk_items()');
  await knex.raw('drop function if exists webhook_queue(text, text, text, timestamptz, timestamptz)');
  await knex.schema.dropTableIfExists('webhook_attempts');
  await knex.schema.dropTableIfExists('webhook_deliveries');
  await knex.schema.dropTableIfExists('webhook_messages');
  await knex.schema.dropTableIfExists('webhook_endpoints');
}
