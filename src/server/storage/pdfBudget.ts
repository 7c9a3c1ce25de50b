/**
 * How many bytes a PDF makes its parser decode, counted before pdf.js reads it. pdf.js decodes a
 * page's content streams each time it reads the page: a small file whose 450 pages share one
 * content stream that inflates to 65 MB costs 29 GB of decoding. This scan finds the page objects
 * and their content streams in the raw file (top-level objects and object streams), inflates each
 * distinct stream once with zlib capped at the budget, and adds a stream's size once per page
 * that uses it.
 *
 * It is a conservative estimate, not a PDF parser: every version of an object found counts (an
 * incremental update cannot hide a page), and a stream it cannot decode (encrypted, or a filter
 * other than FlateDecode) counts its raw length. Streams pdf.js reaches otherwise (form XObjects,
 * fonts) and decoding it cannot foresee are bounded by the worker's time and memory limits.
 */
import { constants, inflateSync } from 'node:zlib';
import { DocumentLimitError } from './documentErrors';

/**
 * Decoded page content a PDF may hold, summed over its pages. A page of text decodes to 5–100 KB
 * and a dense vector drawing to a few MB, so 500 real pages stay well within it; pdf.js holds a
 * page's decoded contents at once, so it also bounds the memory one page can take.
 */
export const MAX_PDF_CONTENT_BYTES = 128 * 1024 * 1024;

interface Scan {
  /** Every stream object's data by object number (all versions found). */
  streams: Map<number, { dict: string; data: Buffer }[]>;
  /** Every object's text that is not a stream: dictionaries, arrays. */
  objects: Map<number, string[]>;
}

const REFERENCE = /(\d+)\s+\d+\s+R\b/g;
const OBJECT_HEADER = /(\d+)\s+\d+\s+obj\b/g;

function add<T>(map: Map<number, T[]>, key: number, value: T) {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** Top-level objects in file order; a stream's data is skipped, never searched for objects. */
function scanObjects(bytes: Buffer): Scan {
  const text = bytes.toString('latin1');
  const scan: Scan = { streams: new Map(), objects: new Map() };
  OBJECT_HEADER.lastIndex = 0;
  for (let match = OBJECT_HEADER.exec(text); match; match = OBJECT_HEADER.exec(text)) {
    const number = Number(match[1]);
    const bodyStart = OBJECT_HEADER.lastIndex;
    const endObject = text.indexOf('endobj', bodyStart);
    const stream = text.indexOf('stream', bodyStart);
    if (stream >= 0 && (endObject < 0 || stream < endObject)) {
      const dict = text.slice(bodyStart, stream);
      let dataStart = stream + 'stream'.length;
      if (text[dataStart] === '\r') dataStart++;
      if (text[dataStart] === '\n') dataStart++;
      // A direct /Length is trusted when `endstream` follows it; otherwise the data runs to `endstream`.
      const length = /\/Length\s+(\d+)(?![\d\s]*R)/.exec(dict);
      const declaredEnd = length ? dataStart + Number(length[1]) : -1;
      const dataEnd = declaredEnd >= 0 && /^\s*endstream/.test(text.slice(declaredEnd, declaredEnd + 20)) ? declaredEnd : text.indexOf('endstream', dataStart);
      if (dataEnd < 0) break;
      add(scan.streams, number, { dict, data: bytes.subarray(dataStart, dataEnd) });
      OBJECT_HEADER.lastIndex = dataEnd + 'endstream'.length;
    } else {
      if (endObject < 0) break;
      add(scan.objects, number, text.slice(bodyStart, endObject));
      OBJECT_HEADER.lastIndex = endObject + 'endobj'.length;
    }
  }
  return scan;
}

const filtersOf = (dict: string): string[] => {
  const filter = /\/Filter\s*(\/[A-Za-z0-9]+|\[[^\]]*\])/.exec(dict)?.[1] ?? '';
  return [...filter.matchAll(/\/([A-Za-z0-9]+)/g)].map((m) => m[1]!);
};

function overBudget(budget: number): never {
  throw new DocumentLimitError('content_bytes', `the PDF's page contents decode to more than ${budget} bytes`);
}

/**
 * A stream's decoded bytes, inflated by zlib up to `budget` (it stops there, and this throws), or
 * null when it cannot be decoded here: encrypted, damaged, or a filter other than FlateDecode.
 */
function decoded(stream: { dict: string; data: Buffer }, budget: number): Buffer | null {
  const filters = filtersOf(stream.dict);
  if (!filters.every((name) => name === 'FlateDecode' || name === 'Fl')) return null;
  let data = stream.data;
  for (let i = 0; i < filters.length; i++) {
    try {
      data = inflateSync(data, { maxOutputLength: Math.max(1, budget), finishFlush: constants.Z_SYNC_FLUSH });
    } catch (error) {
      if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') overBudget(budget);
      return null;
    }
  }
  return data;
}

/** The objects an object stream holds (`/N` pairs of object number and offset, from `/First` on). */
function* objectStreamObjects(dict: string, data: Buffer): Generator<[number, string]> {
  const count = Number(/\/N\s+(\d+)/.exec(dict)?.[1] ?? 0);
  const first = Number(/\/First\s+(\d+)/.exec(dict)?.[1] ?? 0);
  const pairs = data.toString('latin1', 0, Math.min(first, data.length)).trim().split(/\s+/).map(Number);
  for (let i = 0; i < count && 2 * i + 1 < pairs.length; i++) {
    const start = first + pairs[2 * i + 1]!;
    const end = 2 * i + 3 < pairs.length ? first + pairs[2 * i + 3]! : data.length;
    yield [pairs[2 * i]!, data.toString('latin1', start, Math.max(start, end))];
  }
}

/**
 * The decoded bytes of the PDF's page contents, a stream counted once per page using it, plus its
 * object streams. Throws DocumentLimitError past `budget`; decodes at most about twice the budget.
 */
export function pdfContentBytes(bytes: Buffer, budget = MAX_PDF_CONTENT_BYTES): number {
  const scan = scanObjects(bytes);
  let total = 0;
  const spend = (size: number) => {
    total += size;
    if (total > budget) overBudget(budget);
  };
  // pdf.js inflates each object stream once to reach the objects inside (pages among them).
  for (const versions of scan.streams.values()) {
    for (const stream of versions) {
      if (!/\/Type\s*\/ObjStm\b/.test(stream.dict)) continue;
      const data = decoded(stream, budget - total);
      if (!data) continue;
      spend(data.length);
      for (const [number, text] of objectStreamObjects(stream.dict, data)) add(scan.objects, number, text);
    }
  }
  const sizes = new Map<number, number>();
  /** The largest version of a stream, decoded once. */
  const streamSize = (number: number): number => {
    let size = sizes.get(number);
    if (size === undefined) {
      size = Math.max(0, ...(scan.streams.get(number) ?? []).map((stream) => (decoded(stream, budget) ?? stream.data).length));
      sizes.set(number, size);
    }
    return size;
  };
  for (const versions of scan.objects.values()) {
    for (const text of versions) {
      if (!/\/Type\s*\/Page(?![A-Za-z])/.test(text)) continue;
      const contents = /\/Contents\s*(\[[^\]]*\]|\d+\s+\d+\s+R)/.exec(text)?.[1] ?? '';
      for (const [, reference] of contents.matchAll(REFERENCE)) {
        const number = Number(reference);
        if (scan.streams.has(number)) spend(streamSize(number));
        // An indirect array of content streams.
        else for (const array of scan.objects.get(number) ?? []) for (const [, item] of array.matchAll(REFERENCE)) spend(streamSize(Number(item)));
      }
    }
  }
  return total;
}
