import { describe, expect, it } from 'vitest';
import { holdsNul } from './nul-characters';

describe('holdsNul', () => {
  it.each([
    ['a string with one', 'a\u0000b', true],
    ['a value deep in arrays and objects', { a: [1, { b: ['ok', 'x\u0000'] }] }, true],
    ['a key', { ['k\u0000']: 1 }, true],
    ['a nested key', [{ inner: { ['\u0000']: null } }], true],
    ['plain text, %00 spelt out and other control characters', { a: '%00 \\u0000 \t\n\u0001', b: [true, 2, null] }, false],
    ['nothing (no body)', undefined, false],
    ['a number', 0, false],
  ])('%s: %s', (_what, value, expected) => {
    expect(holdsNul(value)).toBe(expected);
  });
});
