import type { ErrorBody } from './common';

/**
 * A failed API call, the same on both platforms: the web transport builds it from the HTTP
 * response, the desktop bridge from the typed error main forwards. `status` 0 is a network failure.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly body: ErrorBody | null;

  constructor(status: number, body: ErrorBody | null, message?: string) {
    super(message ?? body?.message ?? `HTTP ${status}`);
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
  }

  get code(): string | undefined {
    return this.body?.code;
  }
}

export function isApiError(value: unknown): value is ApiError {
  return value instanceof ApiError;
}
