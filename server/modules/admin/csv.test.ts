import { describe, expect, it } from 'vitest';
import { csvLine } from './csv';
import { transferIdOf } from './desk-items';

describe('csvLine', () => {
  it('quotes what RFC 4180 needs quoted and ends with CRLF', () => {
    expect(csvLine(['a', 'b,c', 'say "hi"', 'two\nlines'])).toBe('a,"b,c","say ""hi""","two\nlines"\r\n');
  });

  it('keeps a spreadsheet from running a field as a formula', () => {
    expect(csvLine(['=HYPERLINK("x")', '+1', '-2', '@SUM(A1)', '#1001', '12.50'])).toBe(
      `"'=HYPERLINK(""x"")",'+1,'-2,'@SUM(A1),#1001,12.50\r\n`,
    );
  });

  it('sees a formula behind leading spaces and control characters, and a tab or CR first', () => {
    // [field, what the record holds]
    const table: Array<[string, string]> = [
      [' =1+1', "' =1+1"],
      ['   +1', "'   +1"],
      ['\u00a0@SUM(A1)', "'\u00a0@SUM(A1)"],
      ['\u3000-2', "'\u3000-2"],
      ['\u0000=1', "'\u0000=1"],
      ['\t=1', "'\t=1"],
      ['\tplain', "'\tplain"],
      ['\r\n=1', `"'\r\n=1"`],
      [' \n @x', `"' \n @x"`],
      [' plain', ' plain'],
      ['a=b', 'a=b'],
      ['12.50', '12.50'],
      ['', ''],
    ];
    for (const [field, cell] of table) expect(csvLine([field]), JSON.stringify(field)).toBe(`${cell}\r\n`);
  });
});

describe('transferIdOf', () => {
  it('reads a positive int4 and nothing else', () => {
    expect(transferIdOf('1')).toBe(1);
    expect(transferIdOf('2147483647')).toBe(2_147_483_647);
    for (const text of ['2147483648', '0', '-1', '01', '1.5', '1e3', '', 'abc', '99999999999']) expect(transferIdOf(text), text).toBeNull();
  });
});
