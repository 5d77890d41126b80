/**
 * Writes the PWA icons to public/icons/ (run: `npx tsx scripts/generate-icons.ts`).
 * A milk cap in the shop's colours, drawn with 4x4 supersampling and encoded as PNG with
 * node:zlib, so no image library is needed. The generated PNGs are committed.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';

type RGBA = [number, number, number, number];

const VIOLET: RGBA = [0x6d, 0x28, 0xd9, 255];
const YELLOW: RGBA = [0xfd, 0xe0, 0x47, 255];
const WHITE: RGBA = [255, 255, 255, 255];
const CLEAR: RGBA = [0, 0, 0, 0];

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const byte of buf) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

function encodePng(size: number, pixels: Uint8Array): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // RGBA
  const raw = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) {
    raw[y * (size * 4 + 1)] = 0; // filter: none
    Buffer.from(pixels.buffer, y * size * 4, size * 4).copy(raw, y * (size * 4 + 1) + 1);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * Colour at (x, y) in a unit square centred on 0: `scale` shrinks the cap (maskable icons keep
 * it inside the 80% safe zone); `background` fills what is outside the cap.
 */
function capColour(x: number, y: number, scale: number, background: RGBA): RGBA {
  const r = Math.hypot(x, y) / scale;
  if (r > 0.5) return background;
  if (r > 0.35) return VIOLET;
  if (r > 0.33) return WHITE;
  // dashed ring, like the edge of a slammer
  if (r > 0.19 && r < 0.23) {
    const angle = Math.atan2(y, x);
    return Math.floor(((angle + Math.PI) / (2 * Math.PI)) * 16) % 2 === 0 ? VIOLET : YELLOW;
  }
  return YELLOW;
}

function render(size: number, scale: number, background: RGBA): Uint8Array {
  const SS = 4;
  const pixels = new Uint8Array(size * size * 4);
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      const acc = [0, 0, 0, 0];
      for (let sy = 0; sy < SS; sy++) {
        for (let sx = 0; sx < SS; sx++) {
          const x = (px + (sx + 0.5) / SS) / size - 0.5;
          const y = (py + (sy + 0.5) / SS) / size - 0.5;
          const [r, g, b, a] = capColour(x, y, scale, background);
          acc[0] += r * a;
          acc[1] += g * a;
          acc[2] += b * a;
          acc[3] += a;
        }
      }
      const i = (py * size + px) * 4;
      const alpha = acc[3] / (SS * SS);
      pixels[i] = acc[3] ? Math.round(acc[0] / acc[3]) : 0;
      pixels[i + 1] = acc[3] ? Math.round(acc[1] / acc[3]) : 0;
      pixels[i + 2] = acc[3] ? Math.round(acc[2] / acc[3]) : 0;
      pixels[i + 3] = Math.round(alpha);
    }
  }
  return pixels;
}

const outDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'public', 'icons');
mkdirSync(outDir, { recursive: true });

const icons: Array<{ file: string; size: number; scale: number; background: RGBA }> = [
  { file: 'icon-192.png', size: 192, scale: 0.98, background: CLEAR },
  { file: 'icon-512.png', size: 512, scale: 0.98, background: CLEAR },
  // Maskable: full-bleed background, cap inside the 80% safe circle.
  { file: 'icon-maskable-512.png', size: 512, scale: 0.78, background: VIOLET },
  { file: 'icon-maskable-192.png', size: 192, scale: 0.78, background: VIOLET },
  // iOS ignores transparency: give it a solid white square.
  { file: 'apple-touch-icon.png', size: 180, scale: 0.86, background: WHITE },
  { file: 'favicon-32.png', size: 32, scale: 1, background: CLEAR },
];

for (const icon of icons) {
  const png = encodePng(icon.size, render(icon.size, icon.scale, icon.background));
  writeFileSync(join(outDir, icon.file), png);
  console.log(`wrote public/icons/${icon.file} (${png.length} bytes)`);
}
