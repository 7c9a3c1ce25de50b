// Writes resources/icon.png (512×512): a rounded indigo square with a white chat bubble.
// electron-builder derives the Windows .ico and macOS .icns from it; main uses it as window icon.
// Run: node resources/generate-icon.mjs
import { writeFileSync } from 'node:fs';
import { deflateSync, crc32 } from 'node:zlib';

const SIZE = 512;

function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

function insideRoundedRect(x, y, left, top, right, bottom, radius) {
  const cx = Math.min(Math.max(x, left + radius), right - radius);
  const cy = Math.min(Math.max(y, top + radius), bottom - radius);
  return (x - cx) ** 2 + (y - cy) ** 2 <= radius ** 2;
}

function pixel(x, y) {
  if (!insideRoundedRect(x, y, 16, 16, SIZE - 16, SIZE - 16, 96)) return [0, 0, 0, 0];
  const bubble = insideRoundedRect(x, y, 112, 128, 400, 336, 56);
  // The bubble's tail: a triangle below its lower left part.
  const tail = y >= 330 && y <= 404 && x >= 168 && x <= 248 && x - 168 <= (404 - y) * 1.08;
  if (bubble || tail) {
    const dot = [192, 256, 320].some((cx) => (x - cx) ** 2 + (y - 232) ** 2 <= 22 ** 2);
    return dot ? [79, 70, 229, 255] : [255, 255, 255, 255];
  }
  const shade = Math.round((y / SIZE) * 40);
  return [99 - shade, 102 - shade, 241 - shade, 255];
}

const rows = [];
for (let y = 0; y < SIZE; y += 1) {
  const row = Buffer.alloc(1 + SIZE * 4);
  for (let x = 0; x < SIZE; x += 1) Buffer.from(pixel(x, y)).copy(row, 1 + x * 4);
  rows.push(row);
}
const header = Buffer.alloc(13);
header.writeUInt32BE(SIZE, 0);
header.writeUInt32BE(SIZE, 4);
header.set([8, 6, 0, 0, 0], 8); // 8-bit RGBA, no interlace
const png = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  chunk('IHDR', header),
  chunk('IDAT', deflateSync(Buffer.concat(rows), { level: 9 })),
  chunk('IEND', Buffer.alloc(0)),
]);
writeFileSync(new URL('./icon.png', import.meta.url), png);
