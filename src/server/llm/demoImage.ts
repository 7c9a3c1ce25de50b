import { createHash } from 'node:crypto';
import { type ImageModelV4, type ImageModelV4CallOptions } from '@ai-sdk/provider';
import { DEFAULT_IMAGE_SIZE } from '../../shared/domain/modes';
import { encodePng } from './png';

/** HSL (0–1 each) to RGB bytes. */
function hslToRgb(h: number, s: number, l: number): [number, number, number] {
  const k = (n: number) => (n + h * 12) % 12;
  const a = s * Math.min(l, 1 - l);
  const f = (n: number) => Math.round(255 * (l - a * Math.max(-1, Math.min(k(n) - 3, 9 - k(n), 1))));
  return [f(0), f(8), f(4)];
}

/**
 * A picture that depends only on the prompt: a diagonal gradient between two colours taken from
 * the prompt's hash, with soft rings around a point also taken from it. The same prompt always
 * gives the same image, another prompt a visibly different one.
 */
export function drawDemoImage(prompt: string, width: number, height: number): Buffer {
  const hash = createHash('sha256').update(prompt).digest();
  const from = hslToRgb(hash[0]! / 255, 0.65, 0.55);
  const to = hslToRgb(hash[1]! / 255, 0.7, 0.35);
  const cx = (0.2 + (hash[2]! / 255) * 0.6) * width;
  const cy = (0.2 + (hash[3]! / 255) * 0.6) * height;
  const ringWidth = 12 + (hash[4]! % 40);
  const rgb = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const t = (x / width + y / height) / 2;
      const ring = 0.85 + 0.15 * Math.cos(Math.hypot(x - cx, y - cy) / ringWidth);
      const offset = (y * width + x) * 3;
      for (let c = 0; c < 3; c++) rgb[offset + c] = Math.round((from[c]! * (1 - t) + to[c]! * t) * ring);
    }
  }
  return encodePng(width, height, rgb);
}

/** The demo provider's image model: draws a real PNG offline, at the requested size. */
export class DemoImageModel implements ImageModelV4 {
  readonly specificationVersion = 'v4';
  readonly provider = 'demo';
  readonly maxImagesPerCall = 1;

  constructor(readonly modelId: string) {}

  async doGenerate({ prompt, n, size, abortSignal }: ImageModelV4CallOptions) {
    abortSignal?.throwIfAborted();
    const [width, height] = (size ?? DEFAULT_IMAGE_SIZE).split('x').map(Number) as [number, number];
    const image = drawDemoImage(prompt ?? '', width, height);
    return {
      images: Array.from({ length: n }, () => image),
      warnings: [],
      response: { timestamp: new Date(), modelId: this.modelId, headers: undefined },
    };
  }
}
