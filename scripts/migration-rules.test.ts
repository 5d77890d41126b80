import { describe, expect, it } from 'vitest';
import { migrationProblems, migrationTime } from './migration-rules';

const NOW = new Date('2026-11-29T03:50:00Z');
const ok = { files: ['20261128000000_a.ts', '20261129020000_b.ts'], listed: ['20261128000000_a.ts', '20261129020000_b.ts'], renamed: [] };

describe('the migrations folder rules', () => {
  it('reads the time a name says, and only real ones', () => {
    expect(migrationTime('20261129020000_cart_changes.ts')?.toISOString()).toBe('2026-11-29T02:00:00.000Z');
    for (const bad of [
      '20261131000000_x.ts',
      '20261129240000_x.ts',
      '2026112902000_x.ts',
      '20261129020000-x.ts',
      '20261129020000_X.ts',
      '20261129020000_x.js',
    ])
      expect(migrationTime(bad), bad).toBeNull();
  });

  it('passes a folder that keeps them', () => {
    expect(migrationProblems(ok, NOW)).toEqual([]);
  });

  it('refuses a migration dated after now, by a second too', () => {
    const ahead = { ...ok, files: [...ok.files, '20261129035001_c.ts'], listed: [...ok.listed, '20261129035001_c.ts'] };
    expect(migrationProblems(ahead, NOW)).toEqual([expect.stringContaining('20261129035001_c.ts: dated after now')]);
    expect(migrationProblems(ahead, new Date('2026-11-29T03:50:01Z'))).toEqual([]);
  });

  it('refuses a file not listed, listed twice, a listing of no file and a listing out of order', () => {
    expect(migrationProblems({ ...ok, listed: ['20261128000000_a.ts'] }, NOW)).toEqual([
      '20261129020000_b.ts is not listed in migrations/index.ts',
    ]);
    expect(migrationProblems({ ...ok, listed: [...ok.listed, '20261128000000_a.ts'] }, NOW)).toEqual([
      'migrations/index.ts lists 20261128000000_a.ts twice',
      'migrations/index.ts does not list the migrations in the order of their names',
    ]);
    expect(migrationProblems({ ...ok, listed: [...ok.listed, '20261129000000_gone.ts'] }, NOW)).toContain(
      'migrations/index.ts lists 20261129000000_gone.ts, which is not in the folder',
    );
    expect(migrationProblems({ ...ok, listed: [...ok.listed].reverse() }, NOW)).toEqual([
      'migrations/index.ts does not list the migrations in the order of their names',
    ]);
  });

  it('refuses a rename to no file, or from a name a file still has', () => {
    expect(migrationProblems({ ...ok, renamed: [['20261201000000_b.ts', '20261129020000_b.ts']] }, NOW)).toEqual([]);
    expect(migrationProblems({ ...ok, renamed: [['20261201000000_b.ts', '20261129020001_b.ts']] }, NOW)).toEqual([
      'a rename names 20261129020001_b.ts, which is not in the folder',
    ]);
    expect(migrationProblems({ ...ok, renamed: [['20261128000000_a.ts', '20261129020000_b.ts']] }, NOW)).toEqual([
      "a rename's earlier name 20261128000000_a.ts is still a file",
    ]);
  });
});
