// `.env.example` is what an operator copies to `.env` for docker-compose.yml: every setting it
// names must be one the shop reads or one the compose file uses (a renamed or removed one would be
// set and silently ignored), and every setting production refuses to start without must be in it
// or given by the compose file.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PRODUCTION_REQUIRED, SETTING_NAMES } from '../server/config';

const read = (file: string) => readFileSync(path.resolve(import.meta.dirname, '..', file), 'utf8');
/** The settings the file names: `NAME=…`, commented out or not. */
const named = [...read('.env.example').matchAll(/^#? ?([A-Z][A-Z0-9_]+)=/gm)].map((m) => m[1]!);
const compose = read('docker-compose.yml');
/** What the compose file reads from `.env` (`${NAME}`, `${NAME:?…}`), and what it sets for the shop (`NAME: value`). */
const composeReads = [...compose.matchAll(/\$\{([A-Z][A-Z0-9_]+)/g)].map((m) => m[1]!);
const composeSets = [...compose.matchAll(/^\s+([A-Z][A-Z0-9_]+):/gm)].map((m) => m[1]!);

describe('.env.example', () => {
  it('names settings, and they are read here', () => {
    expect(named).toContain('STORE_WALLET_ADDRESS');
    expect(composeReads).toContain('POSTGRES_PASSWORD');
    expect(composeSets).toContain('DATABASE_URL');
  });

  it('names only settings the shop or the compose file reads', () => {
    expect(named.filter((name) => !SETTING_NAMES.includes(name) && !composeReads.includes(name))).toEqual([]);
  });

  it('names every setting a live shop must give, but those the compose file sets', () => {
    expect(PRODUCTION_REQUIRED.filter((name) => !named.includes(name) && !composeSets.includes(name))).toEqual([]);
  });
});
