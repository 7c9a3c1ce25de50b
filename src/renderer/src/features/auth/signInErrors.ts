import { isApiError } from '../../../../shared/api';

/** Sign-in failures of spec §8 as keys of the `auth` namespace. */
export function signInErrorKey(error: unknown): string {
  if (!isApiError(error)) return 'sign_in_errors.500';
  switch (error.status) {
    case 400:
      return 'sign_in_errors.400';
    case 401:
    case 422:
      return 'sign_in_errors.401';
    case 403: {
      // Individuals have no administrator to approve them; they are pointed to customer support.
      const details = error.body?.details as { member_type?: string } | undefined;
      return details?.member_type === 'individual' ? 'sign_in_errors.403_individual' : 'sign_in_errors.403';
    }
    case 423:
      return 'sign_in_errors.423';
    case 0:
      return 'sign_in_errors.network';
    default:
      return 'sign_in_errors.500';
  }
}
