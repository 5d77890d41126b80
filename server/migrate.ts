/** `npm run migrate`: apply pending migrations to the configured database (PGlite or Postgres). */
import { ConfigError, loadConfig } from './config';
import { createDb, migrate } from './db';

try {
  const config = loadConfig();
  const db = createDb(config.database);
  const applied = await migrate(db);
  console.log(applied.length ? `Applied ${applied.length} migration(s): ${applied.join(', ')}` : 'Database is up to date.');
  await db.destroy();
} catch (err) {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
}
