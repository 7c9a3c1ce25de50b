import { errorBodySchema, type ErrorBody } from './common';

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

/** The ApiError of a non-2xx response; a body that is not our `{code, message}` shape becomes null. */
export async function apiErrorFromResponse(response: Response): Promise<ApiError> {
  const parsed = errorBodySchema.safeParse(await response.json().catch(() => null));
  return new ApiError(response.status, parsed.success ? parsed.data : null);
}

/** Spec §7: every status of 500 or above and every network failure (status 0) is reported. */
export const isReportedStatus = (status: number): boolean => status === 0 || status >= 500;

/**
 * Sends a call made outside the API client (the session calls on web and in desktop main) with the
 * same failure rules: a network failure rejects with ApiError status 0, and every reported failure
 * (5xx, network) goes to `report` before the caller sees it.
 */
export async function sendReportingFailures(send: () => Promise<Response>, report: (error: ApiError, response: Response | null) => void): Promise<Response> {
  let response: Response;
  try {
    response = await send();
  } catch (error) {
    const apiError = new ApiError(0, null, error instanceof Error ? error.message : String(error));
    report(apiError, null);
    throw apiError;
  }
  if (isReportedStatus(response.status)) report(await apiErrorFromResponse(response.clone()), response);
  return response;
}

/** Why a stored session ended when its refresh failed: the translation keys of spec §8. */
export const SESSION_END_REASONS = ['auth_refresh_401', 'auth_refresh_403', 'auth_refresh_500'] as const;
export type SessionEndReason = (typeof SESSION_END_REASONS)[number];

export function sessionEndReasonFor(refreshStatus: number): SessionEndReason {
  if (refreshStatus === 401) return 'auth_refresh_401';
  if (refreshStatus === 403) return 'auth_refresh_403';
  return 'auth_refresh_500';
}
