/**
 * The rules the migrations folder keeps (checked in `npm run lint` by check-migrations.ts):
 *
 * - each file is named `YYYYMMDDHHMMSS_snake_name.ts` with a real date and time, in UTC, that is
 *   not after now: a migration dated ahead sorts after every migration written before that
 *   date, so one written later with a true date would run before it;
 * - migrations/index.ts lists every file once, in the order of their names (knex's order);
 * - a rename (`renamedMigrations`) names a file that exists now, from a name no file has any more.
 */
export interface MigrationSet {
  /** The migration files in the folder (index.ts left out). */
  files: readonly string[];
  /** The names migrations/index.ts lists, in its order. */
  listed: readonly string[];
  renamed: ReadonlyArray<readonly [earlier: string, now: string]>;
}

const NAME = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})_[a-z0-9]+(?:_[a-z0-9]+)*\.ts$/;

/** When a migration's name says it was written, or null when it is not a valid name. */
export function migrationTime(name: string): Date | null {
  const m = NAME.exec(name);
  if (!m) return null;
  const [year, month, day, hour, minute, second] = m.slice(1).map(Number);
  const time = new Date(Date.UTC(year, month - 1, day, hour, minute, second));
  // 20261131… or 24:00:00 would roll over into another day: not a real time.
  const real =
    time.getUTCFullYear() === year &&
    time.getUTCMonth() === month - 1 &&
    time.getUTCDate() === day &&
    time.getUTCHours() === hour &&
    time.getUTCMinutes() === minute &&
    time.getUTCSeconds() === second;
  return real ? time : null;
}

/** What is wrong with the migrations at `now`, one line each (none: all is well). */
export function migrationProblems({ files, listed, renamed }: MigrationSet, now: Date): string[] {
  const problems: string[] = [];
  for (const file of files) {
    const time = migrationTime(file);
    if (!time) problems.push(`${file}: not a YYYYMMDDHHMMSS_snake_name.ts name with a real date and time`);
    else if (time > now) problems.push(`${file}: dated after now (${now.toISOString()}): give it the time it is written at`);
  }
  const inFolder = new Set(files);
  const seen = new Set<string>();
  for (const name of listed) {
    if (!inFolder.has(name)) problems.push(`migrations/index.ts lists ${name}, which is not in the folder`);
    if (seen.has(name)) problems.push(`migrations/index.ts lists ${name} twice`);
    seen.add(name);
  }
  for (const file of files) if (!seen.has(file)) problems.push(`${file} is not listed in migrations/index.ts`);
  const sorted = [...listed].sort();
  if (listed.some((name, i) => name !== sorted[i]))
    problems.push('migrations/index.ts does not list the migrations in the order of their names');
  for (const [earlier, now] of renamed) {
    if (!inFolder.has(now)) problems.push(`a rename names ${now}, which is not in the folder`);
    if (inFolder.has(earlier)) problems.push(`a rename's earlier name ${earlier} is still a file`);
  }
  return problems;
}
