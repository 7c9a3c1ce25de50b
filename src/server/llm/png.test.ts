import { crc32, inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { drawDemoImage } from './demoImage';
import { encodePng } from './png';

/** Reads a PNG back the way a decoder does: signature, chunks with their CRCs, inflated scanlines. */
function decodePng(png: Buffer) {
  expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  const chunks: { type: string; data: Buffer }[] = [];
  for (let offset = 8; offset < png.length;) {
    const length = png.readUInt32BE(offset);
    const type = png.toString('latin1', offset + 4, offset + 8);
    const data = png.subarray(offset + 8, offset + 8 + length);
    expect(png.readUInt32BE(offset + 8 + length)).toBe(crc32(png.subarray(offset + 4, offset + 8 + length)));
    chunks.push({ type, data });
    offset += 12 + length;
  }
  expect(chunks.map((chunk) => chunk.type)).toEqual(['IHDR', 'IDAT', 'IEND']);
  const header = chunks[0]!.data;
  const width = header.readUInt32BE(0);
  const height = header.readUInt32BE(4);
  expect([...header.subarray(8)]).toEqual([8, 2, 0, 0, 0]);
  const raw = inflateSync(chunks[1]!.data);
  const rows = Array.from({ length: height }, (_, y) => {
    const row = raw.subarray(y * (width * 3 + 1), (y + 1) * (width * 3 + 1));
    expect(row[0]).toBe(0); // filter: none
    return [...row.subarray(1)];
  });
  return { width, height, rows };
}

describe('encodePng', () => {
  it('writes a valid truecolour PNG whose pixels read back unchanged', () => {
    const rgb = Uint8Array.from([255, 0, 0, 0, 255, 0, 0, 0, 255, 10, 20, 30, 40, 50, 60, 70, 80, 90]);
    const { width, height, rows } = decodePng(encodePng(3, 2, rgb));
    expect([width, height]).toEqual([3, 2]);
    expect(rows).toEqual([
      [255, 0, 0, 0, 255, 0, 0, 0, 255],
      [10, 20, 30, 40, 50, 60, 70, 80, 90],
    ]);
  });

  it('refuses a size that does not match the pixels', () => {
    expect(() => encodePng(2, 2, new Uint8Array(3))).toThrow(RangeError);
    expect(() => encodePng(0, 1, new Uint8Array(0))).toThrow(RangeError);
  });
});

describe('drawDemoImage', () => {
  it('draws a picture of the requested size that depends on the prompt', () => {
    const fox = decodePng(drawDemoImage('a red fox', 64, 32));
    expect([fox.width, fox.height]).toEqual([64, 32]);
    expect(drawDemoImage('a red fox', 64, 32).equals(drawDemoImage('a red fox', 64, 32))).toBe(true);
    expect(drawDemoImage('a blue whale', 64, 32).equals(drawDemoImage('a red fox', 64, 32))).toBe(false);
    // A gradient: the corners differ.
    expect(fox.rows[0]!.slice(0, 3)).not.toEqual(fox.rows[31]!.slice(-3));
  });
});
