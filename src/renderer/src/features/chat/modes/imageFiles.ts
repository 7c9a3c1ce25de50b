import type { SessionFile } from '../../../../../shared/api';

/** The file id at the end of a file URL (`/api/v1/files/{id}/`). */
const fileIdOf = (url: string) => Number(/(\d+)\/?$/.exec(url)?.[1] ?? 0);

/** The name a download gets when the answer does not know the file's own (a streamed image). */
export const imageFallbackName = (url: string) => `image-${fileIdOf(url) || 'generated'}.png`;

/**
 * A streamed image as the history lists the answer's files, so the finished turn keeps showing it.
 * The type only marks it as an image (the stream does not say which kind); a reload brings the real one.
 */
export const streamedImageFile = (url: string): SessionFile => ({ id: fileIdOf(url), url, type: 'image/png', name: imageFallbackName(url) });

/** The images among an answer's files: what image mode generated. */
export const answerImages = (files: readonly SessionFile[]) => files.filter((file) => file.type.startsWith('image/')).map(({ url, name }) => ({ url, name }));
