import { describe, expect, it } from 'vitest';
import { scrubSecrets } from './scrub';

const KEY = 'pim_9fK2xQv7TzLm4RwA8sYd3Hn';
const split = (s: string, at: number, by: string) => `${s.slice(0, at)}${by}${s.slice(at)}`;

describe('scrubSecrets', () => {
  const spellings: Array<[string, string]> = [
    ['as set', KEY],
    ['upper case', KEY.toUpperCase()],
    ['lower case', KEY.toLowerCase()],
    ['split by a space', split(KEY, 9, ' ')],
    ['split by a line break', split(KEY, 5, '\n')],
    ['split by a tab and spaces', split(split(KEY, 3, '\t '), 14, '  ')],
    ['split by CR LF, mixed case', split(KEY.toUpperCase(), 11, '\r\n')],
    ['one character a line', KEY.split('').join('\n')],
    ['cut short by the provider at the end', KEY.slice(0, 12)],
  ];
  for (const [name, spelled] of spellings) {
    it(`cuts out the key ${name}`, () => {
      const out = scrubSecrets(`policy rejected key ${spelled}`, [KEY], 300);
      expect(out).toBe('policy rejected key [redacted]');
      expect(out.replace(/\s/g, '').toLowerCase()).not.toContain(KEY.slice(0, 8).toLowerCase());
    });
  }

  it('cuts out the key cut short by the provider at the start', () => {
    expect(scrubSecrets(`${KEY.slice(-10)} was refused`, [KEY], 300)).toBe('[redacted] was refused');
  });

  it('cuts out a key that straddles where the message is cut, before cutting', () => {
    for (const at of [1190, 1195, 1199, 1200, 1205, 290, 295, 299]) {
      const message = `${'x'.repeat(at)}${KEY} and more`;
      const out = scrubSecrets(message, [KEY], 300);
      expect(out.length).toBeLessThanOrEqual(300);
      // No piece of the key long enough to mean anything is left.
      expect(out).not.toContain(KEY.slice(0, 6));
    }
  });

  it('cuts out every secret, and overlapping ones once', () => {
    const url = `https://api.example.com/v2/8453/rpc?apikey=${KEY}`;
    expect(scrubSecrets(`calling ${url} failed; key ${KEY}`, [url, KEY], 300)).toBe('calling [redacted] failed; key [redacted]');
  });

  it('keeps a message without secrets as it was, on one line, within the length', () => {
    expect(scrubSecrets('  over the\n daily   limit  ', [KEY], 300)).toBe('over the daily limit');
    const long = scrubSecrets('y'.repeat(1000), [KEY], 300);
    expect(long).toHaveLength(300);
    expect(long.endsWith('…')).toBe(true);
    // A short word that only starts like the key is not a piece of it.
    expect(scrubSecrets('pim is fine', [KEY], 300)).toBe('pim is fine');
  });
});
