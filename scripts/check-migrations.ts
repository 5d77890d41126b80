/**
 * Part of `npm run lint`: the migrations folder keeps its rules (migration-rules.ts): real dates,
 * none after now, each listed once in order in migrations/index.ts, renames that add up.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { migrations, renamedMigrations } from '../migrations';
import { migrationProblems } from './migration-rules';

const folder = join(import.meta.dirname, '..', 'migrations');
const problems = migrationProblems(
  {
    files: readdirSync(folder).filter((f) => f.endsWith('.ts') && f !== 'index.ts'),
    listed: migrations.map(([name]) => name),
    renamed: renamedMigrations,
  },
  new Date(),
);
if (problems.length > 0) {
  console.error(`The migrations break their rules (scripts/migration-rules.ts):\n${problems.join('\n')}`);
  process.exit(1);
}
console.log(`${migrations.length} migrations, each dated, listed and ordered.`);
