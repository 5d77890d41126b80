// Shopify's `description` field is descriptionHtml with tags stripped and entities decoded,
// collapsed to one line.
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
  times: '\u00d7',
  copy: '\u00a9',
  middot: '\u00b7',
  bull: '\u2022',
  reg: '\u00ae',
  trade: '\u2122',
};

export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, body: string) => {
    if (body[0] === '#') {
      const code = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
      return Number.isFinite(code) ? String.fromCodePoint(code) : whole;
    }
    return NAMED_ENTITIES[body.toLowerCase()] ?? whole;
  });
}

export function htmlToPlainText(html: string, truncateAt?: number | null): string {
  const text = decodeEntities(html.replace(/<[^>]*>/g, ' '))
    .replace(/[\s\u00a0]+/g, ' ')
    .trim();
  if (truncateAt == null || text.length <= truncateAt) return text;
  return `${text.slice(0, Math.max(0, truncateAt - 3)).trimEnd()}...`;
}
