import { describe, expect, it } from 'vitest';
import { adminSsoPlatformsApi, ApiError, authApi, chatbotsApi, sessionsApi } from '../../../shared/api';
import { errorKeyOf, errorMessageKey, type ErrorMessageOverride } from './errorMessages';
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
  ])('maps %i to %s', (status, key) => expect(errorKeyOf(new ApiError(status, null))).toBe(key));

  it('says "An unknown error has occurred. Please try again." for anything else', () => {
    const i18n = initI18n('en');
    expect(i18n.t(errorKeyOf(new Error('odd')))).toBe('An unknown error has occurred. Please try again.');
    expect(i18n.t(errorKeyOf(new ApiError(404, null)))).toBe('The requested data does not exist.');
  });
});

describe('endpoint rows and screen overrides', () => {
  it('maps the sign-in statuses, telling individuals to contact customer support on 403', () => {
    const signIn = (error: unknown) => errorMessageKey(error, authApi.signIn);
    expect(signIn(new ApiError(400, null))).toBe('auth:sign_in_errors.400');
    expect(signIn(new ApiError(401, null))).toBe('auth:sign_in_errors.401');
    expect(signIn(new ApiError(422, null))).toBe('auth:sign_in_errors.401');
    expect(signIn(new ApiError(423, null))).toBe('auth:sign_in_errors.423');
    expect(signIn(new ApiError(500, null))).toBe('auth:sign_in_errors.500');
    expect(signIn(new ApiError(0, null))).toBe('auth:sign_in_errors.network');
    expect(signIn(new Error('odd'))).toBe('auth:sign_in_errors.500');
    expect(signIn(new ApiError(403, { code: 'not_approved', message: '' }))).toBe('auth:sign_in_errors.403');
    expect(signIn(new ApiError(403, { code: 'not_approved', message: '', details: { member_type: 'individual' } }))).toBe('auth:sign_in_errors.403_individual');
  });

  it('falls back to the generic rows for statuses an endpoint names no message for', () => {
    expect(errorMessageKey(new ApiError(404, null), sessionsApi.patchSession)).toBe('chat:session.notFound');
    expect(errorMessageKey(new ApiError(500, null), sessionsApi.patchSession)).toBe('errors:status_500');
  });

  it("puts a screen's overrides before the endpoint's and the generic rows", () => {
    const overrides: ErrorMessageOverride[] = [{ status: 404, key: 'chat:empty.chatbotUnavailable' }];
    expect(errorMessageKey(new ApiError(404, null), chatbotsApi.getChatbot, overrides)).toBe('chat:empty.chatbotUnavailable');
    expect(errorMessageKey(new ApiError(403, null), chatbotsApi.getChatbot, overrides)).toBe('errors:status_403');
  });

  it('tells the admin why the server refuses an SSO platform address; other 422s stay generic', () => {
    const i18n = initI18n('en');
    for (const endpoint of [adminSsoPlatformsApi.createSsoPlatform, adminSsoPlatformsApi.updateSsoPlatform]) {
      expect(errorMessageKey(new ApiError(422, { code: 'destination_refused', message: '' }), endpoint)).toBe('sso:admin.destination_refused');
      expect(errorMessageKey(new ApiError(422, { code: 'validation_error', message: '' }), endpoint)).toBe('errors:status_422');
    }
    expect(i18n.t('sso:admin.destination_refused')).toMatch(/OUTBOUND_ALLOW/);
  });

  it('every key of the table exists in English', () => {
    const i18n = initI18n('en');
    const keys = ['auth:sign_in_errors.403_individual', 'chat:errors.validation_failed', 'chat:session.noHistory', 'dashboard:get_chatbot_list_422'];
    for (const key of keys) expect(i18n.exists(key), key).toBe(true);
  });
});
