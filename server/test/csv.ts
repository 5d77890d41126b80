/** Reading the shop's CSV files back in the tests. */
import { expect } from 'vitest';

/** The records of a CSV file (RFC 4180: quoted fields, doubled quotes, CRLF between records). */
export function parseCsv(text: string): string[][] {
  expect(text.endsWith('\r\n')).toBe(true);
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  const endField = () => {
    row.push(field);
    field = '';
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted && c === '"' && text[i + 1] === '"') {
      field += '"';
      i++;
    } else if (c === '"') quoted = !quoted;
    else if (quoted || (c !== ',' && c !== '\r')) field += c;
    else if (c === ',') endField();
    else {
      // CR, then LF: the record ends.
      expect(text[i + 1]).toBe('\n');
      endField();
      rows.push(row);
      row = [];
      i++;
    }
  }
  return rows;
}
