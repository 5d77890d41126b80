import { describe, expect, it } from 'vitest';
import { csvLine, transferIdOf } from './payments-desk';

describe('csvLine', () => {
  it('quotes what RFC 4180 needs quoted and ends with CRLF', () => {
    expect(csvLine(['a', 'b,c', 'say "hi"', 'two\nlines'])).toBe('a,"b,c","say ""hi""","two\nlines"\r\n');
  });

  it('keeps a spreadsheet from running a field as a formula', () => {
    expect(csvLine(['=HYPERLINK("x")', '+1', '-2', '@SUM(A1)', '#1001', '12.50'])).toBe(
      `"'=HYPERLINK(""x"")",'+1,'-2,'@SUM(A1),#1001,12.50\r\n`,
    );
  });
});

describe('transferIdOf', () => {
  it('reads a positive int4 and nothing else', () => {
    expect(transferIdOf('1')).toBe(1);
    expect(transferIdOf('2147483647')).toBe(2_147_483_647);
    for (const text of ['2147483648', '0', '-1', '01', '1.5', '1e3', '', 'abc', '99999999999']) expect(transferIdOf(text), text).toBeNull();
  });
});
