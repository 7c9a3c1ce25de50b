import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { bodyCarriesTokens, CONTRACT_ENDPOINTS, isTokenEndpoint, isUnderApiBase, normalisedPath, TOKEN_ENDPOINT_PATHS } from './apiScope';

const base = 'https://chat.example/api/v1';

describe('API base scope', () => {
  it.each([
    ['https://chat.example/api/v1/chatbots/', true],
    ['https://chat.example/api/v1', true],
    ['https://chat.example/api/v1/files/?page=2', true],
    ['https://chat.example/api/v10/chatbots/', false],
    ['https://chat.example/api/v1/../admin/', false],
    ['https://chat.example/api/v1/%2e%2e/other', false],
    ['https://chat.example/api/v1/..%2fother', false],
    ['https://chat.example/api/v1/%252e%252e%252fother', false],
    ['https://chat.example/api/v1/chatbots/..%5c..%5cother', false],
    ['https://chat.example/api/v1/%zz/', false],
    ['http://chat.example/api/v1/chatbots/', false],
    ['https://chat.example:8443/api/v1/chatbots/', false],
    ['https://chat.example.evil/api/v1/', false],
    ['https://user:pw@chat.example/api/v1/', false],
    ['file:///api/v1/', false],
    ['not a url', false],
  ])('%s → %s', (url, allowed) => {
    expect(isUnderApiBase(url, base)).toBe(allowed);
  });
});

describe('path normalisation', () => {
  it.each([
    ['/api/v1/auth/sign-in/', '/api/v1/auth/sign-in'],
    ['/api/v1/auth/%73ign-in/', '/api/v1/auth/sign-in'],
    ['/api/v1/auth/%2573ign-in', '/api/v1/auth/sign-in'],
    ['/api/v1/auth/%252525252573ign-in', null],
    ['/API/V1/Auth/Sign-In', '/api/v1/auth/sign-in'],
    ['//api//v1///auth//sign-in//', '/api/v1/auth/sign-in'],
    ['/api/v1/chatbots/../auth/./sign-in', '/api/v1/auth/sign-in'],
    ['/api/v1/auth%2fsign-in', '/api/v1/auth/sign-in'],
    ['/api/v1/auth\\sign-in', '/api/v1/auth/sign-in'],
    ['/api/v1/auth/sign-in;jsessionid=1/', '/api/v1/auth/sign-in'],
    ['/api/v1/%E0%A4%A', null],
  ])('%s → %s', (path, normalised) => {
    expect(normalisedPath(path)).toBe(normalised);
  });
});

describe('token endpoints', () => {
  it('are read from the contract: sign-in, SSO sign-in, refresh and sign-out', () => {
    expect([...TOKEN_ENDPOINT_PATHS].sort()).toEqual(['/auth/refresh/', '/auth/sign-in/', '/auth/sign-out/', '/auth/sso-sign-in/']);
  });

  it.each([
    '/auth/sign-in/',
    '/auth/sign-in',
    '/auth/sso-sign-in/',
    '/auth/%73so-sign-in/',
    '/auth/refresh/',
    '/auth/sign-out/',
    '/auth/%73ign-in/',
    '/auth/%72efresh/',
    '/auth/%2573ign-in/',
    '/auth/sign%2Din/',
    '/AUTH/SIGN-IN/',
    '/Auth/Refresh',
    '//auth//sign-in/',
    '/auth/sign-in//',
    '/chatbots/../auth/sign-in/',
    '/chatbots/%2e%2e/auth/refresh/',
    '/auth/./refresh/',
    '/auth%2frefresh/',
    '/auth/sign-in;x/',
    '/auth/sign-in/?next=/chatbots/',
    '/auth/%zz/',
  ])('refuses %s', (path) => {
    expect(isTokenEndpoint(`${base}${path}`, base)).toBe(true);
  });

  it.each(['/auth/code/', '/chatbots/', '/auth/sign-in-help/', '/members/me/', '/sessions/auth/sign-in/'])('lets %s through', (path) => {
    expect(isTokenEndpoint(`${base}${path}`, base)).toBe(false);
  });

  it('matches templates with parameters, one segment per parameter', () => {
    const templates = ['/auth/sso/:provider/callback/'];
    expect(isTokenEndpoint(`${base}/auth/sso/acme-idp/callback/`, base, templates)).toBe(true);
    expect(isTokenEndpoint(`${base}/auth/sso/%61cme/CALLBACK`, base, templates)).toBe(true);
    expect(isTokenEndpoint(`${base}/auth/sso/callback/`, base, templates)).toBe(false);
  });

  it('every endpoint whose answer has a token field is marked carriesTokens', () => {
    const answersWithTokens = CONTRACT_ENDPOINTS.filter((endpoint) =>
      /"(access_token|refresh_token)":/.test(JSON.stringify(z.toJSONSchema(endpoint.response, { io: 'output', unrepresentable: 'any' }))),
    );
    expect(answersWithTokens.length).toBeGreaterThan(0);
    for (const endpoint of answersWithTokens) expect(endpoint, endpoint.path).toMatchObject({ carriesTokens: true });
  });

  it('knows every endpoint defined in src/shared/api, so none can be missed by the scan', async () => {
    const apiDir = resolve(import.meta.dirname, '../../shared/api');
    const files = readdirSync(apiDir, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'));
    for (const file of files) {
      const module = (await import(/* @vite-ignore */ join(apiDir, file))) as Record<string, unknown>;
      for (const value of Object.values(module)) {
        if (typeof value === 'object' && value !== null && 'response' in value && 'path' in value) {
          expect(CONTRACT_ENDPOINTS, `${file}: ${String(value.path)}`).toContain(value);
        }
      }
    }
  });
});

describe('token fields in an answer', () => {
  const json = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));

  it.each([
    [{ access_token: 'a', member: {} }, true],
    [{ data: { session: { refresh_token: 'r' } } }, true],
    [[{ items: [{ accessToken: 'a' }] }], true],
    [{ 'Refresh-Token': 'r' }, true],
    [{ items: [{ text: 'how do I get an access_token?' }] }, false],
    [{ total_tokens: 12 }, false],
  ])('%j → %s', (body, carries) => {
    expect(bodyCarriesTokens(json(body))).toBe(carries);
  });

  it('leaves bodies that are not JSON alone', () => {
    expect(bodyCarriesTokens(new TextEncoder().encode('data: {"type":"text","delta":"access_token"'))).toBe(false);
    expect(bodyCarriesTokens(new Uint8Array([0xff, 0xd8, 0xff, 0xe0]))).toBe(false);
  });
});
