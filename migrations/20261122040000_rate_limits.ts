import type { Knex } from 'knex';

// Rate-limit counters (server/lib/rate-limit.ts), shared by every server instance: one row per
// key (route, client IP or session, window length), counting the requests in a fixed window that
// ends at resets_at. Unlogged: a counter is worth nothing after a crash, and it is written on
// every limited request, so it skips the write-ahead log (and a crash or a failover merely
// forgets who was counted).

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create unlogged table rate_limits (
      key text primary key,
      hits integer not null,
      resets_at timestamptz not null
    )`);
  // The hourly sweep deletes finished windows.
  await knex.raw('create index rate_limits_resets_at_index on rate_limits (resets_at)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('rate_limits');
}
