/**
 * JSON Lines (a bulk operation's result file), parsed as it arrives: one JSON object per line,
 * never the whole file in one string. A line longer than `maxLineBytes` or one that is not a JSON
 * object stops the parse with an error naming the line.
 */
export class JsonLinesError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'JsonLinesError';
  }
}

export async function* parseJsonLines(
  chunks: AsyncIterable<Uint8Array | string>,
  opts: { maxLineBytes?: number } = {},
): AsyncGenerator<Record<string, unknown>> {
  const maxLine = opts.maxLineBytes ?? 4 * 1024 * 1024;
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let pending = '';
  let lineNo = 0;
  const parseLine = (line: string): Record<string, unknown> | null => {
    lineNo++;
    const trimmed = line.trim();
    if (!trimmed) return null;
    let value: unknown;
    try {
      value = JSON.parse(trimmed);
    } catch {
      throw new JsonLinesError(`line ${lineNo} is not JSON`);
    }
    if (!value || typeof value !== 'object' || Array.isArray(value)) throw new JsonLinesError(`line ${lineNo} is not a JSON object`);
    return value as Record<string, unknown>;
  };
  for await (const chunk of chunks) {
    pending += typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    let cut: number;
    while ((cut = pending.indexOf('\n')) >= 0) {
      const line = pending.slice(0, cut);
      pending = pending.slice(cut + 1);
      const row = parseLine(line);
      if (row) yield row;
    }
    if (pending.length > maxLine) throw new JsonLinesError(`line ${lineNo + 1} is longer than ${maxLine} bytes`);
  }
  pending += decoder.decode();
  const last = parseLine(pending);
  if (last) yield last;
}
