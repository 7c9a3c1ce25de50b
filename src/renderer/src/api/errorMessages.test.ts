import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../shared/api';
import { errorKeyOf, genericErrorKey } from './errorMessages';
import { signInErrorKey } from '../features/auth/signInErrors';
import { initI18n } from '../i18n';

describe('generic status messages (spec §8)', () => {
  it.each([
    [400, 'errors:status_400'],
    [401, 'errors:status_401'],
    [403, 'errors:status_403'],
    [404, 'errors:status_404'],
    [422, 'errors:status_422'],
    [424, 'errors:status_422'],
    [428, 'errors:status_428'],
    [500, 'errors:status_500'],
    [418, 'errors:unknown'],
    [0, 'errors:network'],
  ])('maps %i to %s', (status, key) => expect(genericErrorKey(status)).toBe(key));

  it('says "An unknown error has occurred. Please try again." for anything else', () => {
    const i18n = initI18n('en');
    expect(i18n.t(errorKeyOf(new Error('odd')))).toBe('An unknown error has occurred. Please try again.');
    expect(i18n.t(errorKeyOf(new ApiError(404, null)))).toBe('The requested data does not exist.');
  });
});

describe('sign-in messages (spec §8)', () => {
  it('maps the sign-in statuses, telling individuals to contact customer support on 403', () => {
    expect(signInErrorKey(new ApiError(400, null))).toBe('sign_in_errors.400');
    expect(signInErrorKey(new ApiError(401, null))).toBe('sign_in_errors.401');
    expect(signInErrorKey(new ApiError(422, null))).toBe('sign_in_errors.401');
    expect(signInErrorKey(new ApiError(423, null))).toBe('sign_in_errors.423');
    expect(signInErrorKey(new ApiError(500, null))).toBe('sign_in_errors.500');
    expect(signInErrorKey(new ApiError(403, { code: 'not_approved', message: '' }))).toBe('sign_in_errors.403');
    expect(signInErrorKey(new ApiError(403, { code: 'not_approved', message: '', details: { member_type: 'individual' } }))).toBe('sign_in_errors.403_individual');
  });
});
