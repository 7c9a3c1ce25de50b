/**
 * Chat file kinds and limits, shared by the server (checks) and the composer (the file picker's
 * accept list). A kind is decided by a file's bytes on the server, never by its name alone.
 */
export const FILE_KINDS = ['png', 'jpeg', 'gif', 'webp', 'pdf', 'docx', 'xlsx', 'pptx', 'hwpx', 'text'] as const;
export type FileKind = (typeof FILE_KINDS)[number];

export const IMAGE_KINDS: readonly FileKind[] = ['png', 'jpeg', 'gif', 'webp'];

/** Extensions of each kind (lowercase, no dot); `text` covers plain text, CSV, Markdown and HTML. */
export const FILE_KIND_EXTENSIONS: Record<FileKind, readonly string[]> = {
  png: ['png'],
  jpeg: ['jpg', 'jpeg'],
  gif: ['gif'],
  webp: ['webp'],
  pdf: ['pdf'],
  docx: ['docx'],
  xlsx: ['xlsx'],
  pptx: ['pptx'],
  hwpx: ['hwpx'],
  text: ['txt', 'csv', 'md', 'html', 'htm'],
};

/** A tenant's overrides of the server's defaults (config FILE_MAX_MB, FILE_MAX_PAGES, FILE_ALLOWED_KINDS). */
export interface TenantFileLimits {
  max_bytes?: number;
  max_pages?: number;
  allowed_kinds?: FileKind[];
}

/** Name length of an upload (spec §9: 1 to 100). */
export const FILE_NAME_MAX = 100;

/** The picker's accept attribute for the given kinds. */
export const acceptAttribute = (kinds: readonly FileKind[] = FILE_KINDS) =>
  kinds.flatMap((kind) => FILE_KIND_EXTENSIONS[kind].map((extension) => `.${extension}`)).join(',');
