/** `npm run migrate`: apply pending migrations to the configured database (PGlite or Postgres). */
import { ConfigError, loadConfig } from './config';
import { createDb, migrate } from './db';

try {
  const config = loadConfig();
  const db = createDb(config.database);
  const { applied, newer } = await migrate(db);
  console.log(applied.length ? `Applied ${applied.length} migration(s): ${applied.join(', ')}` : 'Database is up to date.');
  if (newer.length)
    console.log(`The database also has migrations of a newer version (${newer.join(', ')}); this version serves on it as it is.`);
  await db.destroy();
} catch (err) {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
}
