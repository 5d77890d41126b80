/** What docs/catalogue-in-memory.md says of how a catalogue version is made from the last one holds. */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHANGES_KEPT, SWEEP_EVERY, UPDATE_SHARE } from './change-log';

const ROOT = join(import.meta.dirname, '../../..');
const doc = readFileSync(join(ROOT, 'docs/catalogue-in-memory.md'), 'utf8').replace(/\s+/g, ' ');

describe('the catalogue change log, as the docs tell it', () => {
  it('names its figures and files as they are', () => {
    expect(doc).toContain(`a list more than ${CHANGES_KEPT.toLocaleString('en')} versions behind`);
    expect(doc).toContain(`every ${SWEEP_EVERY} versions, the rows older than the last ${CHANGES_KEPT.toLocaleString('en')} are deleted`);
    expect(UPDATE_SHARE).toBe(0.25);
    expect(doc).toContain('not more than a quarter of the list');
    for (const file of ['change-log.ts', 'snapshot.ts', 'catalogue-updates.int.test.ts'])
      expect(existsSync(join(ROOT, 'server/modules/catalogue', file)), file).toBe(true);
    expect(doc).toContain('`catalogue/change-log.ts`');
    expect(doc).toContain('`catalogue/snapshot.ts`');
    expect(doc).toContain('`catalogue-updates.int.test.ts`');
  });
});
