// Deterministic stand-in product photos (no network in dev/CI, so nothing can be fetched): an
// 800×800 SVG (smaller when the URL asks, as Shopify's CDN resizes: requestedImageSize) with a soft gradient, a shape matching the product kind (milk cap, slammer, tee,
// hoodie, hat, mug, tote) and the product title. Same inputs → same bytes, so long caching is safe.

type ImageArt = 'pog' | 'slammer' | 'tee' | 'hoodie' | 'hat' | 'mug' | 'tote' | 'poster';

const PALETTES: Array<{ bg: [string, string]; main: string; accent: string; ink: string }> = [
  { bg: ['#fff4e6', '#ffd8a8'], main: '#f76707', accent: '#ffe066', ink: '#5c2c06' },
  { bg: ['#e7f5ff', '#a5d8ff'], main: '#1c7ed6', accent: '#ffd43b', ink: '#0b2e4f' },
  { bg: ['#f3f0ff', '#d0bfff'], main: '#7048e8', accent: '#63e6be', ink: '#2b1866' },
  { bg: ['#ebfbee', '#b2f2bb'], main: '#2f9e44', accent: '#ffa8a8', ink: '#0f3d1a' },
  { bg: ['#fff0f6', '#fcc2d7'], main: '#d6336c', accent: '#74c0fc', ink: '#5a0f2b' },
  { bg: ['#f8f9fa', '#dee2e6'], main: '#212529', accent: '#fab005', ink: '#212529' },
  { bg: ['#e3fafc', '#99e9f2'], main: '#1098ad', accent: '#ff8787', ink: '#073b44' },
  { bg: ['#fff9db', '#ffec99'], main: '#e8590c', accent: '#4dabf7', ink: '#4a2500' },
];

function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&${{ '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot', "'": 'apos' }[c]};`);
}

function artFor(title: string, productType: string): ImageArt {
  const text = `${productType} ${title}`.toLowerCase();
  if (/hoodie|sweat|crewneck|zip/.test(text)) return 'hoodie';
  if (/\btee\b|t-shirt|shirt|jersey|long sleeve/.test(text)) return 'tee';
  if (/snapback|dad cap|bucket hat|beanie|\bhats?\b/.test(text)) return 'hat';
  if (/\bmug\b|\bcup\b/.test(text)) return 'mug';
  if (/tote|\bbag\b|socks?/.test(text)) return 'tote';
  if (/poster|print|sticker|binder|mat\b/.test(text)) return 'poster';
  if (/slammer/.test(text)) return 'slammer';
  return 'pog';
}

function pogShape(p: (typeof PALETTES)[number], seed: number, metal: boolean): string {
  const rays = 12 + (seed % 4) * 2;
  const wedges = Array.from({ length: rays }, (_, i) => {
    const a0 = (i / rays) * Math.PI * 2;
    const a1 = ((i + 0.5) / rays) * Math.PI * 2;
    const pt = (a: number) => `${(400 + Math.cos(a) * 190).toFixed(1)},${(380 + Math.sin(a) * 190).toFixed(1)}`;
    return `<path d="M400,380 L${pt(a0)} A190,190 0 0 1 ${pt(a1)} Z" fill="${p.accent}" opacity="0.55"/>`;
  }).join('');
  const face = metal ? 'url(#metal)' : p.main;
  return `
    <ellipse cx="400" cy="628" rx="230" ry="26" fill="#000" opacity="0.12"/>
    <circle cx="400" cy="380" r="250" fill="${face}" stroke="${p.ink}" stroke-width="10"/>
    <circle cx="400" cy="380" r="215" fill="none" stroke="#fff" stroke-width="6" stroke-dasharray="4 14" opacity="0.8"/>
    ${metal ? '' : wedges}
    <circle cx="400" cy="380" r="92" fill="#fff" stroke="${p.ink}" stroke-width="8"/>
    <path d="M400,288 a46,46 0 0 1 0,92 a46,46 0 0 0 0,92 a92,92 0 0 1 0,-184 Z" fill="${p.ink}"/>
    <circle cx="400" cy="334" r="14" fill="#fff"/><circle cx="400" cy="426" r="14" fill="${p.ink}"/>
    <path id="rim" d="M190,380 A210,210 0 0 1 610,380" fill="none"/>
    <text font-family="Arial Black, Arial, sans-serif" font-size="40" font-weight="900" fill="#fff" letter-spacing="6">
      <textPath href="#rim" startOffset="50%" text-anchor="middle">POGS</textPath>
    </text>`;
}

function garmentShape(p: (typeof PALETTES)[number], hood: boolean): string {
  const body = hood
    ? 'M290,190 Q400,120 510,190 L640,250 L700,470 L620,490 L590,380 L590,640 L210,640 L210,380 L180,490 L100,470 L160,250 Z'
    : 'M300,180 Q400,235 500,180 L650,245 L700,380 L610,410 L590,350 L590,640 L210,640 L210,350 L190,410 L100,380 L150,245 Z';
  const extras = hood
    ? `<path d="M320,195 Q400,60 480,195 Q400,250 320,195 Z" fill="${p.ink}" opacity="0.35"/>
       <rect x="300" y="470" width="200" height="90" rx="26" fill="#000" opacity="0.12"/>
       <line x1="385" y1="215" x2="380" y2="300" stroke="#fff" stroke-width="6"/><line x1="415" y1="215" x2="420" y2="300" stroke="#fff" stroke-width="6"/>`
    : `<path d="M345,195 Q400,230 455,195" fill="none" stroke="${p.ink}" stroke-width="10" opacity="0.4"/>`;
  return `
    <ellipse cx="400" cy="662" rx="230" ry="22" fill="#000" opacity="0.12"/>
    <path d="${body}" fill="${p.main}" stroke="${p.ink}" stroke-width="8" stroke-linejoin="round"/>
    ${extras}
    <circle cx="400" cy="${hood ? 360 : 340}" r="62" fill="${p.accent}" stroke="#fff" stroke-width="8"/>
    <text x="400" y="${hood ? 374 : 354}" text-anchor="middle" font-family="Arial Black, Arial, sans-serif" font-size="34" font-weight="900" fill="${p.ink}">POGS</text>`;
}

function otherShape(art: ImageArt, p: (typeof PALETTES)[number]): string {
  switch (art) {
    case 'hat':
      return `
        <ellipse cx="400" cy="560" rx="240" ry="24" fill="#000" opacity="0.12"/>
        <path d="M200,470 Q200,230 400,220 Q600,230 600,470 Z" fill="${p.main}" stroke="${p.ink}" stroke-width="8"/>
        <path d="M560,470 Q700,470 720,520 Q640,545 470,505 Z" fill="${p.ink}"/>
        <circle cx="400" cy="222" r="16" fill="${p.accent}"/>
        <circle cx="400" cy="370" r="60" fill="${p.accent}" stroke="#fff" stroke-width="8"/>
        <text x="400" y="383" text-anchor="middle" font-family="Arial Black, Arial, sans-serif" font-size="32" font-weight="900" fill="${p.ink}">POGS</text>`;
    case 'mug':
      return `
        <ellipse cx="380" cy="625" rx="200" ry="22" fill="#000" opacity="0.12"/>
        <path d="M560,300 Q680,300 680,410 Q680,520 560,520" fill="none" stroke="${p.ink}" stroke-width="34"/>
        <rect x="210" y="210" width="350" height="410" rx="40" fill="${p.main}" stroke="${p.ink}" stroke-width="8"/>
        <ellipse cx="385" cy="215" rx="175" ry="26" fill="${p.ink}" opacity="0.5"/>
        <circle cx="385" cy="415" r="88" fill="${p.accent}" stroke="#fff" stroke-width="8"/>
        <text x="385" y="430" text-anchor="middle" font-family="Arial Black, Arial, sans-serif" font-size="40" font-weight="900" fill="${p.ink}">POGS</text>`;
    case 'tote':
      return `
        <ellipse cx="400" cy="650" rx="220" ry="22" fill="#000" opacity="0.12"/>
        <path d="M300,260 Q300,120 400,120 Q500,120 500,260" fill="none" stroke="${p.ink}" stroke-width="22"/>
        <path d="M200,250 L600,250 L630,640 L170,640 Z" fill="${p.main}" stroke="${p.ink}" stroke-width="8" stroke-linejoin="round"/>
        <circle cx="400" cy="440" r="100" fill="${p.accent}" stroke="#fff" stroke-width="8"/>
        <text x="400" y="456" text-anchor="middle" font-family="Arial Black, Arial, sans-serif" font-size="46" font-weight="900" fill="${p.ink}">POGS</text>`;
    default: // poster, sticker sheet, binder
      return `
        <rect x="190" y="130" width="420" height="520" rx="14" fill="#000" opacity="0.12" transform="translate(12 14)"/>
        <rect x="190" y="130" width="420" height="520" rx="14" fill="#fff" stroke="${p.ink}" stroke-width="8"/>
        <rect x="225" y="165" width="350" height="330" rx="8" fill="${p.main}"/>
        <circle cx="330" cy="290" r="70" fill="${p.accent}"/><circle cx="470" cy="370" r="90" fill="#fff" opacity="0.85"/>
        <circle cx="470" cy="370" r="40" fill="${p.ink}"/>
        <rect x="225" y="525" width="230" height="22" rx="11" fill="${p.ink}" opacity="0.7"/>
        <rect x="225" y="565" width="160" height="18" rx="9" fill="${p.ink}" opacity="0.35"/>`;
  }
}

/** Splits a title into at most two centred lines that fit the 800-px canvas. */
function titleLines(title: string): string[] {
  if (title.length <= 26) return [title];
  const words = title.split(' ');
  let first = '';
  while (words.length && (first + ' ' + words[0]).trim().length <= 26) first = `${first} ${words.shift()}`.trim();
  const rest = words.join(' ');
  return [first || title.slice(0, 26), rest.length > 28 ? `${rest.slice(0, 27)}…` : rest].filter(Boolean);
}

/** The generated photos' own size (square): Shopify's CDN never enlarges a picture past its original. */
const ORIGINAL_IMAGE_SIZE = 800;
/** Shopify's CDN resizes to at most this many pixels either way. */
const MAX_CDN_SIZE = 5760;

/**
 * The size to answer for a CDN URL's `width` and `height` parameters, as Shopify's CDN does:
 * either alone sets that side (the other follows the aspect, here square), both fit the picture
 * inside the box, neither (or values that are not positive whole numbers, which the CDN ignores)
 * gives the original; never larger than the original, nor than 5760 px.
 */
export function requestedImageSize(width: unknown, height: unknown): number {
  const side = (value: unknown) => {
    const text = Array.isArray(value) ? value[0] : value;
    if (typeof text !== 'string' || !/^\d{1,9}$/.test(text)) return Infinity;
    const n = Number(text);
    return n > 0 ? Math.min(n, MAX_CDN_SIZE) : Infinity;
  };
  return Math.min(side(width), side(height), ORIGINAL_IMAGE_SIZE);
}

export function renderProductImageSvg(opts: {
  handle: string;
  title: string;
  productType: string;
  position: number;
  /** The width and height to answer (the drawing is the same, scaled); the original's by default. */
  size?: number;
}): string {
  const size = opts.size ?? ORIGINAL_IMAGE_SIZE;
  const seed = hash(opts.handle);
  const palette = PALETTES[(seed + (opts.position - 1) * 3) % PALETTES.length];
  const art = artFor(opts.title, opts.productType);
  const shape =
    art === 'pog' || art === 'slammer'
      ? pogShape(palette, seed + opts.position, art === 'slammer')
      : art === 'tee' || art === 'hoodie'
        ? garmentShape(palette, art === 'hoodie')
        : otherShape(art, palette);
  const lines = titleLines(opts.title);
  const text = lines
    .map(
      (line, i) =>
        `<text x="400" y="${lines.length === 1 ? 730 : 712 + i * 44}" text-anchor="middle" font-family="Helvetica, Arial, sans-serif" font-size="38" font-weight="700" fill="${palette.ink}">${escapeXml(line)}</text>`,
    )
    .join('');
  const tilt = ((seed % 7) - 3) * 2;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 800 800" width="${size}" height="${size}" role="img" aria-label="${escapeXml(`${opts.title} – image ${opts.position}`)}">
  <defs>
    <linearGradient id="bg" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${palette.bg[0]}"/><stop offset="1" stop-color="${palette.bg[1]}"/></linearGradient>
    <radialGradient id="metal" cx="0.35" cy="0.3" r="0.8"><stop offset="0" stop-color="#f8f9fa"/><stop offset="0.5" stop-color="#adb5bd"/><stop offset="1" stop-color="#495057"/></radialGradient>
  </defs>
  <rect width="800" height="800" fill="url(#bg)"/>
  <circle cx="680" cy="120" r="170" fill="#fff" opacity="0.35"/>
  <circle cx="90" cy="700" r="140" fill="#fff" opacity="0.25"/>
  <g transform="rotate(${tilt} 400 400)">${shape}</g>
  <g transform="translate(100 100)"><circle r="44" fill="${palette.ink}"/><text y="13" text-anchor="middle" font-family="Helvetica, Arial, sans-serif" font-size="34" font-weight="700" fill="#fff">${opts.position}</text></g>
  ${text}
</svg>
`;
}
