#!/usr/bin/env node
// Draws the Callout app icon (assets/icon.png, 512x512 RGBA) with plain Node: a bold white
// "C" holding a small speaker with two sound waves, on a blue (#1677ff) rounded square.
// Anti-aliased by 4x4 supersampling; the PNG is encoded by hand (zlib + CRC32).
// Deterministic: the same bytes every run.
//
//   node scripts/generate-icon.mjs           write assets/icon.png
//   node scripts/generate-icon.mjs --check   exit 1 if assets/icon.png is not what this draws
//   node scripts/generate-icon.mjs --out x   write somewhere else
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';

const SIZE = 512;
const SAMPLES = 4; // per axis

const BLUE_TOP = [0x3d, 0x8b, 0xff];
const BLUE = [0x16, 0x77, 0xff]; // #1677ff
const WHITE = [0xff, 0xff, 0xff];

// Geometry, in pixels of the 512 canvas.
const MARGIN = 16;
const CORNER = 104;
const C_CENTER = [256, 256];
const C_OUTER = 164;
const C_INNER = 104;
const C_GAP_DEG = 42; // half-angle of the opening, facing right
const DOT = [222, 256];
const DOT_RADIUS = 26;
const WAVES = [52, 84]; // radii around DOT
const WAVE_WIDTH = 15;
const WAVE_HALF_DEG = 42;

function insideRoundedSquare(x, y) {
  const lo = MARGIN;
  const hi = SIZE - MARGIN;
  if (x < lo || x > hi || y < lo || y > hi) return false;
  const cx = Math.min(Math.max(x, lo + CORNER), hi - CORNER);
  const cy = Math.min(Math.max(y, lo + CORNER), hi - CORNER);
  return (x - cx) ** 2 + (y - cy) ** 2 <= CORNER ** 2;
}

function angleDeg(dx, dy) {
  return (Math.atan2(dy, dx) * 180) / Math.PI; // 0 = right, y grows downwards
}

/** A ring segment (all angles except the opening) with round caps. */
function insideC(x, y) {
  const dx = x - C_CENTER[0];
  const dy = y - C_CENTER[1];
  const r = Math.hypot(dx, dy);
  const mid = (C_OUTER + C_INNER) / 2;
  const half = (C_OUTER - C_INNER) / 2;
  if (r >= C_INNER && r <= C_OUTER && Math.abs(angleDeg(dx, dy)) >= C_GAP_DEG) return true;
  for (const sign of [-1, 1]) {
    const a = (sign * C_GAP_DEG * Math.PI) / 180;
    const capX = C_CENTER[0] + mid * Math.cos(a);
    const capY = C_CENTER[1] + mid * Math.sin(a);
    if ((x - capX) ** 2 + (y - capY) ** 2 <= half ** 2) return true;
  }
  return false;
}

function insideSpeaker(x, y) {
  const dx = x - DOT[0];
  const dy = y - DOT[1];
  const r = Math.hypot(dx, dy);
  if (r <= DOT_RADIUS) return true;
  const half = WAVE_WIDTH / 2;
  for (const radius of WAVES) {
    if (Math.abs(r - radius) <= half && Math.abs(angleDeg(dx, dy)) <= WAVE_HALF_DEG) return true;
    for (const sign of [-1, 1]) {
      const a = (sign * WAVE_HALF_DEG * Math.PI) / 180;
      const capX = DOT[0] + radius * Math.cos(a);
      const capY = DOT[1] + radius * Math.sin(a);
      if ((x - capX) ** 2 + (y - capY) ** 2 <= half ** 2) return true;
    }
  }
  return false;
}

/** Returns the RGBA pixels, row by row. */
export function drawIcon() {
  const pixels = Buffer.alloc(SIZE * SIZE * 4);
  const step = 1 / SAMPLES;
  const total = SAMPLES * SAMPLES;
  for (let py = 0; py < SIZE; py++) {
    const t = py / (SIZE - 1);
    const bg = BLUE.map((c, i) => Math.round(BLUE_TOP[i] + (c - BLUE_TOP[i]) * Math.min(1, t * 1.6)));
    for (let px = 0; px < SIZE; px++) {
      let coverage = 0;
      let glyph = 0;
      for (let sy = 0; sy < SAMPLES; sy++) {
        for (let sx = 0; sx < SAMPLES; sx++) {
          const x = px + (sx + 0.5) * step;
          const y = py + (sy + 0.5) * step;
          if (!insideRoundedSquare(x, y)) continue;
          coverage++;
          if (insideC(x, y) || insideSpeaker(x, y)) glyph++;
        }
      }
      const offset = (py * SIZE + px) * 4;
      if (coverage === 0) continue; // transparent
      const g = glyph / coverage;
      for (let i = 0; i < 3; i++) pixels[offset + i] = Math.round(bg[i] * (1 - g) + WHITE[i] * g);
      pixels[offset + 3] = Math.round((coverage / total) * 255);
    }
  }
  return pixels;
}

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

export function crc32(buffer) {
  let c = 0xffffffff;
  for (const byte of buffer) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

/** Encodes RGBA pixels as a PNG (8-bit, colour type 6, no interlace, filter 0 on every row). */
export function encodePng(width, height, rgba) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // RGBA
  header[10] = 0; // deflate
  header[11] = 0; // adaptive filtering
  header[12] = 0; // no interlace
  const stride = width * 4;
  const raw = Buffer.alloc((stride + 1) * height);
  for (let y = 0; y < height; y++) {
    raw[y * (stride + 1)] = 0; // filter: none
    rgba.copy(raw, y * (stride + 1) + 1, y * stride, (y + 1) * stride);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

export function renderIconPng() {
  return encodePng(SIZE, SIZE, drawIcon());
}

function main(argv) {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..');
  const outIndex = argv.indexOf('--out');
  const out = outIndex >= 0 && argv[outIndex + 1] ? argv[outIndex + 1] : join(root, 'assets', 'icon.png');
  const png = renderIconPng();
  if (argv.includes('--check')) {
    let current;
    try {
      current = readFileSync(out);
    } catch {
      console.error(`${out} is missing: run node scripts/generate-icon.mjs`);
      return 1;
    }
    if (!current.equals(png)) {
      console.error(`${out} differs from what scripts/generate-icon.mjs draws: run it again`);
      return 1;
    }
    console.log(`${out} is up to date`);
    return 0;
  }
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, png);
  console.log(`wrote ${out} (${SIZE}x${SIZE}, ${png.length} bytes)`);
  return 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  process.exitCode = main(process.argv.slice(2));
}
