/** Most lines a description shows. */
export const MAX_DESCRIPTION_LINES = 5;
export const DESCRIPTION_FALLBACK = 'Heritage quality, exclusive design';

const NAMED_ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
  mdash: '\u2014',
  ndash: '\u2013',
  hellip: '\u2026',
  rsquo: '\u2019',
  lsquo: '\u2018',
  rdquo: '\u201d',
  ldquo: '\u201c',
  bull: '\u2022',
  middot: '\u00b7',
  copy: '\u00a9',
  reg: '\u00ae',
  trade: '\u2122',
  deg: '\u00b0',
  times: '\u00d7',
};

/** Tags whose end (or start) is a line break in the rendered text. */
const BLOCK_TAGS =
  'p|div|li|ul|ol|h[1-6]|tr|table|thead|tbody|tfoot|blockquote|section|article|header|footer|pre|dd|dt|dl|figure|figcaption|address';
const BLOCK_BOUNDARY = new RegExp(`<\\/?(?:${BLOCK_TAGS})\\b[^>]*>`, 'gi');
const LINE_BREAK_TAG = /<(?:br|hr)\b[^>]*\/?>/gi;
const INVISIBLE_BLOCKS = /<(script|style|template|noscript)\b[^>]*>[\s\S]*?<\/\1\s*>/gi;
const COMMENTS = /<!--[\s\S]*?-->/g;
const ANY_TAG = /<\/?[a-z][^>]*>/gi;
const ENTITY = /&(#\d+|#x[0-9a-f]+|[a-z]+);/gi;

/** Decodes the common HTML entities in one pass (so '&amp;lt;' becomes '&lt;', not '<'). */
export function decodeEntities(text: string): string {
  return text.replace(ENTITY, (whole, body: string) => {
    if (body[0] === '#') {
      const code = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
      if (!Number.isFinite(code) || code <= 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return whole;
      return String.fromCodePoint(code);
    }
    return NAMED_ENTITIES[body.toLowerCase()] ?? whole;
  });
}

/**
 * Turns a product description (Shopify descriptionHtml, possibly plain text) into display lines
 * (the product pages and cards show them; the server's page head summarises them): markup
 * stripped, line breaks honoured, entities decoded, blank lines and lines that mention a size
 * guide or contain a pipe dropped, at most five lines kept.
 */
export function cleanDescription(html: string | null | undefined): string[] {
  if (typeof html !== 'string' || html.trim() === '') return [];
  const text = html
    .replace(COMMENTS, '')
    .replace(INVISIBLE_BLOCKS, '')
    .replace(LINE_BREAK_TAG, '\n')
    .replace(BLOCK_BOUNDARY, '\n')
    .replace(ANY_TAG, '');
  return decodeEntities(text)
    .split(/\r\n|\r|\n/)
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .filter((line) => line !== '' && !/size guide/i.test(line) && !line.includes('|'))
    .slice(0, MAX_DESCRIPTION_LINES);
}

/** The card's one-line summary: the first cleaned line, or the fixed fallback. */
export function firstDescriptionLine(html: string | null | undefined, fallback = DESCRIPTION_FALLBACK): string {
  return cleanDescription(html)[0] ?? fallback;
}
