/**
 * The one reader of uploaded zip packages (DOCX, XLSX, PPTX, HWPX), used to sniff their type, to
 * count their pages and to extract their text. Nothing a zip declares is trusted: its central
 * directory is read for at most MAX_ZIP_ENTRIES entries, every byte range is checked against the
 * file, and entries are inflated by zlib with the package's remaining budget of
 * MAX_INFLATED_BYTES as its output limit, so inflating stops at the budget instead of after it.
 * An entry that inflates past the size it declares is a lie, and the package is refused as damaged.
 */
import { inflateRawSync } from 'node:zlib';
import { CorruptFileError, DocumentLimitError } from './documentErrors';

/**
 * Entries a package may list. Office files hold a part per slide, sheet, picture, layout and
 * relationship: a 1,000-slide deck with a picture on each slide has about 4,000. Each entry costs a
 * directory read and a name kept, so a zip of tiny entries must not list hundreds of thousands.
 */
export const MAX_ZIP_ENTRIES = 10_000;

/**
 * Bytes inflated from one package, over all the parts read (text parts only, never media). The
 * XML of a real document within the 20 MB upload limit is a few megabytes (Word's document.xml of
 * a 500-page report is about 10 MB); 64 MiB, read as text, still fits the parsing worker's heap
 * (DOCUMENT_WORKER_MEMORY_MB, 256 by default) with room for the strings made from it, which keeps
 * a worker handling the worst document under the 512 MiB of server memory a hostile upload may take.
 */
export const MAX_INFLATED_BYTES = 64 * 1024 * 1024;

export interface ZipEntry {
  name: string;
  /** 0 stored, 8 deflated; anything else is refused when read. */
  method: number;
  flags: number;
  compressedSize: number;
  /** The size the directory declares: an entry inflating past it is refused. */
  size: number;
  localHeaderOffset: number;
}

const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const ZIP64_END_LOCATOR = 0x07064b50;
const ZIP64_END_OF_CENTRAL_DIRECTORY = 0x06064b50;
const CENTRAL_DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_FILE_HEADER = 0x04034b50;
/** A 32-bit field at this value means "see the zip64 extra field". */
const ZIP64_MARK = 0xffffffff;
const ZIP64_EXTRA_FIELD = 0x0001;
const ENCRYPTED_FLAG = 0x0001;

const damaged = (why: string) => new CorruptFileError(`damaged zip package: ${why}`);

function readUint64(buffer: Buffer, offset: number): number {
  if (offset + 8 > buffer.length) throw damaged('zip64 record outside the file');
  const value = buffer.readBigUInt64LE(offset);
  if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw damaged('zip64 value out of range');
  return Number(value);
}

/** Where the central directory starts and how many entries it claims (zip64 records followed). */
function centralDirectory(buffer: Buffer): { count: number; offset: number } {
  // The end record is 22 bytes plus a comment of at most 65,535 bytes, at the very end.
  const searchFrom = Math.max(0, buffer.length - 22 - 0xffff);
  for (let end = buffer.length - 22; end >= searchFrom; end--) {
    if (buffer.readUInt32LE(end) !== END_OF_CENTRAL_DIRECTORY) continue;
    let count = buffer.readUInt16LE(end + 10);
    let offset = buffer.readUInt32LE(end + 16);
    const locator = end - 20;
    if ((count === 0xffff || offset === ZIP64_MARK) && locator >= 0 && buffer.readUInt32LE(locator) === ZIP64_END_LOCATOR) {
      const record = readUint64(buffer, locator + 8);
      if (record + 56 > buffer.length || buffer.readUInt32LE(record) !== ZIP64_END_OF_CENTRAL_DIRECTORY) throw damaged('no zip64 end record');
      count = readUint64(buffer, record + 32);
      offset = readUint64(buffer, record + 48);
    }
    return { count, offset };
  }
  throw damaged('no end of central directory');
}

/** The sizes and offset a zip64 extra field carries for the 32-bit fields marked 0xffffffff. */
function zip64Values(extra: Buffer, entry: ZipEntry): void {
  for (let at = 0; at + 4 <= extra.length;) {
    const id = extra.readUInt16LE(at);
    const length = extra.readUInt16LE(at + 2);
    if (id === ZIP64_EXTRA_FIELD) {
      let field = at + 4;
      for (const key of ['size', 'compressedSize', 'localHeaderOffset'] as const) {
        if (entry[key] !== ZIP64_MARK) continue;
        entry[key] = readUint64(extra, field);
        field += 8;
      }
      return;
    }
    at += 4 + length;
  }
}

/**
 * The entries listed in a zip's central directory. Throws CorruptFileError when the directory is
 * damaged and DocumentLimitError when it lists more than MAX_ZIP_ENTRIES.
 */
export function zipEntries(buffer: Buffer): ZipEntry[] {
  if (buffer.length < 22) throw damaged('too short');
  const directory = centralDirectory(buffer);
  if (directory.count > MAX_ZIP_ENTRIES) {
    throw new DocumentLimitError('entries', `the zip package lists ${directory.count} entries (at most ${MAX_ZIP_ENTRIES} are read)`);
  }
  const entries: ZipEntry[] = [];
  let offset = directory.offset;
  for (let i = 0; i < directory.count; i++) {
    if (offset + 46 > buffer.length || buffer.readUInt32LE(offset) !== CENTRAL_DIRECTORY_ENTRY) throw damaged('bad central directory entry');
    const nameLength = buffer.readUInt16LE(offset + 28);
    const extraLength = buffer.readUInt16LE(offset + 30);
    const commentLength = buffer.readUInt16LE(offset + 32);
    const nameEnd = offset + 46 + nameLength;
    if (nameEnd + extraLength > buffer.length) throw damaged('central directory entry outside the file');
    const entry: ZipEntry = {
      name: buffer.toString('utf8', offset + 46, nameEnd),
      flags: buffer.readUInt16LE(offset + 8),
      method: buffer.readUInt16LE(offset + 10),
      compressedSize: buffer.readUInt32LE(offset + 20),
      size: buffer.readUInt32LE(offset + 24),
      localHeaderOffset: buffer.readUInt32LE(offset + 42),
    };
    zip64Values(buffer.subarray(nameEnd, nameEnd + extraLength), entry);
    entries.push(entry);
    offset = nameEnd + extraLength + commentLength;
  }
  return entries;
}

/**
 * A zip package read entry by entry, all reads sharing one inflation budget (a part read twice
 * counts twice).
 */
export class ZipPackage {
  private readonly entries: Map<string, ZipEntry>;
  private inflated = 0;

  constructor(
    private readonly buffer: Buffer,
    private readonly budget = MAX_INFLATED_BYTES,
  ) {
    this.entries = new Map(zipEntries(buffer).map((entry) => [entry.name, entry]));
  }

  names(): string[] {
    return [...this.entries.keys()];
  }

  has(name: string): boolean {
    return this.entries.has(name);
  }

  /** The entry's bytes, inflated within what is left of the budget. */
  read(name: string): Buffer {
    const entry = this.entries.get(name);
    if (!entry) throw damaged(`no entry ${name}`);
    if (entry.flags & ENCRYPTED_FLAG) throw damaged(`entry ${name} is encrypted`);
    const header = entry.localHeaderOffset;
    if (header + 30 > this.buffer.length || this.buffer.readUInt32LE(header) !== LOCAL_FILE_HEADER) throw damaged(`no local header for ${name}`);
    const start = header + 30 + this.buffer.readUInt16LE(header + 26) + this.buffer.readUInt16LE(header + 28);
    if (start + entry.compressedSize > this.buffer.length) throw damaged(`entry ${name} runs past the end of the file`);
    const data = this.buffer.subarray(start, start + entry.compressedSize);
    const left = this.budget - this.inflated;
    const overBudget = () => new DocumentLimitError('inflated_bytes', `the zip package inflates to more than ${this.budget} bytes (at ${name})`);
    // The tighter of the two bounds decides what going over it means.
    const lies = entry.size <= left;
    const cap = Math.min(entry.size, left);
    let bytes: Buffer;
    if (entry.method === 0) {
      if (data.length > cap) throw lies ? damaged(`entry ${name} is longer than it declares`) : overBudget();
      bytes = data;
    } else if (entry.method === 8) {
      try {
        // zlib stops as soon as its output passes maxOutputLength (at least 1).
        bytes = inflateRawSync(data, { maxOutputLength: Math.max(1, cap) });
      } catch (error) {
        if ((error as { code?: string }).code !== 'ERR_BUFFER_TOO_LARGE') throw damaged(`entry ${name}: ${(error as Error).message}`);
        throw lies ? damaged(`entry ${name} inflates past the ${entry.size} bytes it declares`) : overBudget();
      }
      if (bytes.length > cap) throw lies ? damaged(`entry ${name} inflates past the ${entry.size} bytes it declares`) : overBudget();
    } else {
      throw damaged(`entry ${name} uses compression method ${entry.method}`);
    }
    this.inflated += bytes.length;
    return bytes;
  }

  text(name: string): string {
    return new TextDecoder().decode(this.read(name));
  }

  /** The text of every entry whose name `wanted` accepts. */
  texts(wanted: (name: string) => boolean): Record<string, string> {
    return Object.fromEntries(
      this.names()
        .filter(wanted)
        .map((name) => [name, this.text(name)]),
    );
  }
}

/** The text of a package's entries that `wanted` accepts, within the limits above. */
export const unzip = (bytes: Buffer, wanted: (name: string) => boolean): Record<string, string> => new ZipPackage(bytes).texts(wanted);
