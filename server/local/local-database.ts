/**
 * The local database (PGlite in DATA_DIR, local mode), opened before the connection pool sees it.
 *
 * Its first set-up (initdb in WebAssembly) takes seconds on a quiet machine and minutes on a busy
 * one: done here, it is bounded by nothing but itself, and says every 15 s that it is still going,
 * instead of failing at the pool's acquire timeout. Once a set-up has finished, a marker file says
 * so. A folder without the marker that does not open is a set-up that was interrupted: it is moved
 * aside (never deleted) and the set-up is done again. A folder with the marker that does not open
 * is left as it is, and the start fails with a sentence saying what to do.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import type { Logger } from '../lib/logger';
import { reasonOf } from '../lib/outages';
import { StartError } from '../ops/start-failure';

/** Written once a set-up has finished (or a folder set up before this marker existed opened). */
const SET_UP = '.pogs-set-up';

export interface LocalDatabaseOptions {
  logger: Logger;
  /** How often a set-up under way says so (default 15 s). */
  progressMs?: number;
  /** Opens PGlite on a folder (PGlite.create; a test may slow it down). */
  open?: (dir: string) => Promise<PGlite>;
}

async function openPGlite(dir: string): Promise<PGlite> {
  // A development dependency (local mode only), loaded when local mode asks for it.
  const { PGlite } = await import('@electric-sql/pglite');
  return PGlite.create(dir);
}

export async function openLocalDatabase(dir: string, opts: LocalDatabaseOptions): Promise<PGlite> {
  const { logger } = opts;
  const open = opts.open ?? openPGlite;
  const marker = path.join(dir, SET_UP);
  const setUpBefore = fs.existsSync(marker);
  const holdsFiles = fs.existsSync(dir) && fs.readdirSync(dir).length > 0;
  const attempt = async (fresh: boolean): Promise<PGlite> => {
    const began = Date.now();
    if (fresh) logger.info({ dir }, `setting up the local database in ${dir} (PGlite; a first start takes a minute on a busy machine)`);
    const progress = setInterval(
      () => logger.info(`still setting up the local database (${Math.round((Date.now() - began) / 1000)} s so far)`),
      opts.progressMs ?? 15_000,
    );
    try {
      const pglite = await open(dir);
      if (fresh) logger.info(`the local database is set up (${((Date.now() - began) / 1000).toFixed(1)} s)`);
      return pglite;
    } finally {
      clearInterval(progress);
    }
  };
  if (setUpBefore) {
    try {
      return await attempt(false);
    } catch (err) {
      throw new StartError(
        `the local database in ${dir} could not be opened (${reasonOf(err)}); it was set up before, so it is left as it is: move it aside to start with a new one, or set DATABASE_URL`,
      );
    }
  }
  fs.mkdirSync(dir, { recursive: true });
  let pglite: PGlite;
  try {
    pglite = await attempt(!holdsFiles);
  } catch (err) {
    if (!holdsFiles) throw err;
    const aside = `${dir}.interrupted-${new Date().toISOString().replace(/[:.]/g, '-')}`;
    fs.renameSync(dir, aside);
    logger.warn(
      { dir, aside, reason: reasonOf(err) },
      `the local database's set-up in ${dir} had been interrupted: moved to ${aside}, set up again`,
    );
    fs.mkdirSync(dir, { recursive: true });
    pglite = await attempt(true);
  }
  fs.writeFileSync(marker, `set up ${new Date().toISOString()}\n`);
  return pglite;
}
