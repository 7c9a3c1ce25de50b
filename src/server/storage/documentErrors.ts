/**
 * Why an uploaded document cannot be read. Thrown by the readers in storage/ and, across the
 * worker boundary, rebuilt by workers/documentPool.ts; the services turn them into the spec §8
 * upload statuses (400, 413) or a failed parse.
 */

/** The bytes are not a readable document of their kind (spec §8 upload 400). */
export class CorruptFileError extends Error {
  override name = 'CorruptFileError';
}

/**
 * The budget a document went over: zip entries, bytes inflated from a zip, decoded bytes of a
 * PDF's page contents, or the parsing worker's memory or time.
 */
export const DOCUMENT_LIMITS = ['entries', 'inflated_bytes', 'content_bytes', 'memory', 'time'] as const;
export type DocumentLimit = (typeof DOCUMENT_LIMITS)[number];

/** Reading the document would take more than one document is given (spec §8 upload 413). */
export class DocumentLimitError extends Error {
  override name = 'DocumentLimitError';
  constructor(
    readonly limit: DocumentLimit,
    message: string,
  ) {
    super(message);
  }
}
