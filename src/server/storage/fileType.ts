/**
 * What a file is, read from its bytes: the name and the type a browser claims are only checked
 * against the content, never trusted. Office documents are zip packages, told apart by the parts
 * listed in the zip's central directory.
 */
import { extname } from 'node:path';
import { FILE_KINDS, FILE_KIND_EXTENSIONS, type FileKind } from '../../shared/domain/files';
import { CorruptFileError } from './documentErrors';
import { zipEntries } from './zipArchive';

export { FILE_KINDS, type FileKind };

interface KindInfo {
  /** The type to store and serve. */
  mime: string;
  /** Types a client may claim for it (besides the uninformative application/octet-stream). */
  claimableMimes: readonly string[];
}

const KINDS: Record<FileKind, KindInfo> = {
  png: { mime: 'image/png', claimableMimes: ['image/png'] },
  jpeg: { mime: 'image/jpeg', claimableMimes: ['image/jpeg', 'image/jpg', 'image/pjpeg'] },
  gif: { mime: 'image/gif', claimableMimes: ['image/gif'] },
  webp: { mime: 'image/webp', claimableMimes: ['image/webp'] },
  pdf: { mime: 'application/pdf', claimableMimes: ['application/pdf'] },
  docx: {
    mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    claimableMimes: ['application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
  },
  xlsx: {
    mime: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    claimableMimes: ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
  },
  pptx: {
    mime: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
    claimableMimes: ['application/vnd.openxmlformats-officedocument.presentationml.presentation'],
  },
  // Hangul word processor documents (OWPML): a zip whose first entry `mimetype` names it.
  hwpx: { mime: 'application/hwp+zip', claimableMimes: ['application/hwp+zip', 'application/haansofthwpx', 'application/vnd.hancom.hwpx'] },
  // Plain text has no signature: valid UTF-8 without control characters; the extension says which.
  text: { mime: 'text/plain', claimableMimes: ['text/plain', 'text/csv', 'text/markdown', 'text/x-markdown', 'text/html'] },
};

const TEXT_MIME_BY_EXTENSION: Record<string, string> = {
  txt: 'text/plain; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
  md: 'text/markdown; charset=utf-8',
  html: 'text/html; charset=utf-8',
  htm: 'text/html; charset=utf-8',
};

const startsWith = (buffer: Buffer, bytes: readonly number[], offset = 0) => bytes.every((byte, i) => buffer[offset + i] === byte);
const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));

/**
 * The kind of file these bytes are, or null when it is none the platform accepts. Reads at most the
 * signature, a zip's central directory (bounded, zipArchive.ts) or, for text, the bytes once.
 */
export function detectFileType(buffer: Buffer): FileKind | null {
  if (startsWith(buffer, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (startsWith(buffer, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (startsWith(buffer, ascii('GIF87a')) || startsWith(buffer, ascii('GIF89a'))) return 'gif';
  if (startsWith(buffer, ascii('RIFF')) && startsWith(buffer, ascii('WEBP'), 8)) return 'webp';
  if (startsWith(buffer, ascii('%PDF-'))) return 'pdf';
  if (startsWith(buffer, [0x50, 0x4b, 0x03, 0x04])) return officeKind(zipEntryNames(buffer));
  return isPlainText(buffer) ? 'text' : null;
}

function officeKind(names: Set<string> | null): FileKind | null {
  if (names?.has('mimetype') && names.has('Contents/content.hpf')) return 'hwpx';
  if (!names?.has('[Content_Types].xml')) return null;
  if (names.has('word/document.xml')) return 'docx';
  if (names.has('xl/workbook.xml')) return 'xlsx';
  if (names.has('ppt/presentation.xml')) return 'pptx';
  return null;
}

/**
 * Names listed in a zip's central directory, or null when the zip is damaged. A zip listing more
 * entries than MAX_ZIP_ENTRIES throws DocumentLimitError: it is no document we would read.
 */
function zipEntryNames(buffer: Buffer): Set<string> | null {
  try {
    return new Set(zipEntries(buffer).map((entry) => entry.name));
  } catch (error) {
    if (error instanceof CorruptFileError) return null;
    throw error;
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

function isPlainText(buffer: Buffer): boolean {
  if (buffer.length === 0) return false;
  let text: string;
  try {
    text = utf8.decode(buffer);
  } catch {
    return false;
  }
  // Tab, line feed, form feed and carriage return are text; other C0 controls and DEL mean binary.
  return !/[\u0000-\u0008\u000b\u000e-\u001f\u007f]/.test(text);
}

/** The content is not a type the platform accepts, or is not what its name or claimed type says: 415. */
export class UnsupportedFileTypeError extends Error {
  override name = 'UnsupportedFileTypeError';
  readonly status = 415;
  constructor(
    message: string,
    readonly detected: FileKind | null,
  ) {
    super(message);
  }
}

export interface CheckedFileType {
  kind: FileKind;
  /** The type to store and serve: from the content (and, for text, the extension). */
  mime: string;
}

/**
 * Checks an upload's bytes against its file name and the type the client claimed, and against the
 * kinds the caller accepts. Throws UnsupportedFileTypeError on any disagreement, and
 * DocumentLimitError for a zip listing more entries than any document we read.
 */
export function checkFileType(
  buffer: Buffer,
  { fileName, claimedType, accept = FILE_KINDS }: { fileName: string; claimedType?: string; accept?: readonly FileKind[] },
): CheckedFileType {
  const kind = detectFileType(buffer);
  if (!kind || !accept.includes(kind)) throw new UnsupportedFileTypeError('The file format is not supported.', kind);
  const info = KINDS[kind];
  const extension = extname(fileName).slice(1).toLowerCase();
  if (!FILE_KIND_EXTENSIONS[kind].includes(extension)) {
    throw new UnsupportedFileTypeError(`The file content (${kind}) does not match its extension ".${extension}".`, kind);
  }
  const claimed = claimedType?.split(';')[0]?.trim().toLowerCase();
  if (claimed && claimed !== 'application/octet-stream' && !info.claimableMimes.includes(claimed)) {
    throw new UnsupportedFileTypeError(`The file content (${kind}) does not match the claimed type ${claimed}.`, kind);
  }
  return { kind, mime: kind === 'text' ? (TEXT_MIME_BY_EXTENSION[extension] ?? info.mime) : info.mime };
}
