import { describe, expect, it } from 'vitest';
import { isTokenEndpoint, isUnderApiBase } from './apiScope';

const base = 'https://chat.example/api/v1';

describe('API base scope', () => {
  it.each([
    ['https://chat.example/api/v1/chatbots/', true],
    ['https://chat.example/api/v1', true],
    ['https://chat.example/api/v1/files/?page=2', true],
    ['https://chat.example/api/v10/chatbots/', false],
    ['https://chat.example/api/v1/../admin/', false],
    ['https://chat.example/api/v1/%2e%2e/other', false],
    ['http://chat.example/api/v1/chatbots/', false],
    ['https://chat.example:8443/api/v1/chatbots/', false],
    ['https://chat.example.evil/api/v1/', false],
    ['https://user:pw@chat.example/api/v1/', false],
    ['file:///api/v1/', false],
    ['not a url', false],
  ])('%s → %s', (url, allowed) => {
    expect(isUnderApiBase(url, base)).toBe(allowed);
  });

  it('recognises the token endpoints main keeps for itself', () => {
    expect(isTokenEndpoint('https://chat.example/api/v1/auth/refresh/', base)).toBe(true);
    expect(isTokenEndpoint('https://chat.example/api/v1/auth/sign-in', base)).toBe(true);
    expect(isTokenEndpoint('https://chat.example/api/v1/auth/code/', base)).toBe(false);
  });
});
