import type { ErrorCode } from '../shared/domain/errors';

/**
 * A failure the client is meant to see: the error handler answers `status` with `{code, message,
 * details}`. Anything else thrown becomes a 500 whose internals are only logged.
 */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const notFound = (what = 'The data does not exist.') => new AppError(404, 'not_found', what);
export const forbidden = (message = 'Access permission required.') => new AppError(403, 'forbidden', message);
export const unauthorized = (message = 'Login required.') => new AppError(401, 'unauthorized', message);
