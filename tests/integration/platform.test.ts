import { desc } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import { errorLogs } from '../../src/server/db/schema';
import { type TestServer, startTestServer } from '../fixtures/testServer';
import { apiClient, jsonBody } from './helpers/client';

let server: TestServer;
let api: ReturnType<typeof apiClient>;

beforeAll(async () => {
  server = await startTestServer();
  api = apiClient(server);
});
afterAll(() => server?.close());

describe('POST /log-error/', () => {
  it('stores the report with every text field cut to 2900 characters', async () => {
    const long = 'x'.repeat(5000);
    const result = await api.call('/log-error/', {
      method: 'POST',
      body: {
        message: long,
        source: 'http',
        stack: long,
        url: `https://app.example/${long}`,
        user_agent: 'vitest',
        timestamp: new Date().toISOString(),
        error_id: 'err-1',
        attachments: [{ title: 'response', text: long }],
      },
    });
    expect(result.status).toBe(200);
    const [row] = await server.db.select().from(errorLogs).orderBy(desc(errorLogs.id)).limit(1);
    expect(row?.message).toHaveLength(2900);
    expect(row?.stack).toHaveLength(2900);
    expect(row?.url).toHaveLength(2900);
    expect(row?.attachments[0]?.text).toHaveLength(2900);
    expect(row).toMatchObject({ source: 'http', userAgent: 'vitest', errorId: 'err-1', memberId: null });
  });

  it('answers 400 with details for a malformed report', async () => {
    const result = await api.call('/log-error/', { method: 'POST', body: { message: 'only this' } });
    expect(result.status).toBe(400);
    expect(result.body.code).toBe('validation_error');
    expect(result.body.details).toEqual(expect.arrayContaining([expect.objectContaining({ message: expect.any(String) })]));
  });
});

describe('errors', () => {
  it('answer unknown API paths with the JSON error body', async () => {
    const result = await api.call('/no-such-thing/');
    expect(result.status).toBe(404);
    expect(result.body).toEqual({ code: 'not_found', message: expect.any(String) });
  });

  it('answer an unexpected failure with a bare 500 that reveals no internals', async () => {
    const app = await buildApp({ db: server.db, config: server.config });
    app.get('/api/v1/explode/', async () => {
      throw new Error('relation "members" password_hash leaked');
    });
    const response = await app.inject({ method: 'GET', url: '/api/v1/explode/' });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ code: 'internal_error', message: 'Server error, try later.' });
    expect(response.body).not.toContain('password_hash');
    await app.close();
  });

  it('answer malformed JSON with 400', async () => {
    const response = await fetch(`${server.apiBase}/auth/sign-in/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"email":' });
    expect(response.status).toBe(400);
    expect((await jsonBody(response)).code).toBe('bad_request');
  });
});

describe('GET /openapi.json', () => {
  it('documents every route of the contract with its schemas', async () => {
    const result = await api.call('/openapi.json');
    expect(result.status).toBe(200);
    expect(result.body.openapi).toMatch(/^3\./);
    const paths = Object.keys(result.body.paths);
    for (const path of [
      '/api/v1/auth/sign-in/',
      '/api/v1/auth/refresh/',
      '/api/v1/auth/sign-out/',
      '/api/v1/tenants/',
      '/api/v1/members/{id}/',
      '/api/v1/members/{id}/credit-check/',
      '/api/v1/categories/',
      '/api/v1/chatbots/',
      '/api/v1/chatbots/{id}/',
      '/api/v1/chatbots/{id}/chat/',
      '/api/v1/sessions/',
      '/api/v1/sessions/{hash}/',
      '/api/v1/sessions/{hash}/history/',
      '/api/v1/sessions/{hash}/generate-title/',
      '/api/v1/announcements/active/',
      '/api/v1/announcements/latest/',
      '/api/v1/admin/announcements/',
      '/api/v1/admin/announcements/{id}/',
      '/api/v1/log-error/',
    ]) {
      expect(paths).toContain(path);
    }
    const signIn = result.body.paths['/api/v1/auth/sign-in/'].post;
    expect(signIn.requestBody.content['application/json'].schema.properties).toHaveProperty('email');
    expect(result.body.paths['/api/v1/sessions/'].get.security).toEqual([{ accessToken: [] }]);
    // Public operations say so explicitly: an empty security requirement and their access level.
    expect(signIn.security).toEqual([]);
    expect(signIn['x-access']).toBe('public');
  });

  it("lists each operation's error responses: the codes its contract declares, then those by rule", async () => {
    const result = await api.call('/openapi.json');
    const responses = result.body.paths['/api/v1/chatbots/{id}/'].patch.responses;
    expect(responses['409']).toMatchObject({
      description: 'Error: conflict',
      content: { 'application/json': { schema: { properties: { code: { enum: ['conflict'] } } } } },
    });
    expect(responses['403'].description).toBe('Error: forbidden, model_not_allowed, tool_not_allowed, account_deactivated');
    expect(responses['401'].description).toBe('Error: unauthorized, session_expired');
    expect(responses['400'].description).toBe('Error: validation_error, bad_request');
    expect(Object.keys(result.body.paths['/api/v1/auth/sign-in/'].post.responses)).toEqual(expect.arrayContaining(['200', '401', '403', '423', '429']));
  });
});
