import { isApiError } from '../../../shared/api';

/** Translation keys (namespace `errors`) of the generic status messages of spec §8. */
export type GenericErrorKey =
  | 'errors:status_400'
  | 'errors:status_401'
  | 'errors:status_403'
  | 'errors:status_404'
  | 'errors:status_422'
  | 'errors:status_428'
  | 'errors:status_500'
  | 'errors:network'
  | 'errors:unknown';

export function genericErrorKey(status: number): GenericErrorKey {
  switch (status) {
    case 0:
      return 'errors:network';
    case 400:
      return 'errors:status_400';
    case 401:
      return 'errors:status_401';
    case 403:
      return 'errors:status_403';
    case 404:
      return 'errors:status_404';
    case 422:
    case 424:
      return 'errors:status_422';
    case 428:
      return 'errors:status_428';
    case 500:
      return 'errors:status_500';
    default:
      return 'errors:unknown';
  }
}

/** The message key for any thrown value: API errors by status, anything else unknown. */
export function errorKeyOf(error: unknown): GenericErrorKey {
  return isApiError(error) ? genericErrorKey(error.status) : 'errors:unknown';
}
