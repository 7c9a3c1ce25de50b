import { afterEach, describe, expect, it } from 'vitest';
import { adminAnnouncementsApi, ApiError, errorLogApi, sessionsApi } from '../../../shared/api';
import { setPlatformForTests } from '../platform';
import { installFakeApi } from '../test/fakeApi';
import { callEndpoint } from './client';

afterEach(() => setPlatformForTests(null));

const announcement = { id: 4, content: '# Hi', is_active: true, created_at: '2025-03-07T10:00:00Z' };

describe('callEndpoint', () => {
  it('fills path parameters, sends query and body, and parses the response schema', async () => {
    const api = installFakeApi({ 'PATCH /admin/announcements/4/': async (request) => Response.json({ ...announcement, ...(await request.json()) }) });
    const result = await callEndpoint(adminAnnouncementsApi.patchAnnouncement, { params: { id: 4 }, body: { is_active: false } });
    expect(result).toEqual({ ...announcement, is_active: false });
    expect(api.find('PATCH', '/admin/announcements/4/')).toHaveLength(1);
  });

  it('throws ApiError with status and body and reports server errors to log-error', async () => {
    const api = installFakeApi({
      'GET /sessions/': () => Response.json({ code: 'internal_error', message: 'boom' }, { status: 500 }),
      'POST /log-error/': () => Response.json({ ok: true }),
    });
    await expect(callEndpoint(sessionsApi.listSessions, { query: { page: 2 } })).rejects.toMatchObject({ status: 500, code: 'internal_error' });
    await expect.poll(() => api.find('POST', '/log-error/').length).toBe(1);
    const report = await api.find('POST', '/log-error/')[0]!.json();
    expect(report.attachments.map((block: { title: string }) => block.title)).toEqual(['Response', 'Headers', 'Request body']);
    expect(report.attachments[0].text).toContain('boom');
  });

  it('does not report client errors such as 404', async () => {
    const api = installFakeApi({ 'POST /log-error/': () => Response.json({ ok: true }) });
    await expect(callEndpoint(sessionsApi.getSession, { params: { hash: 'nope' } })).rejects.toMatchObject({ status: 404 });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(api.find('POST', '/log-error/')).toHaveLength(0);
  });

  it('turns a network failure into ApiError status 0 and reports it', async () => {
    let reports = 0;
    const api = installFakeApi({});
    api.fetch.mockImplementation(async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = new Request(input, init);
      if (request.url.endsWith('/log-error/')) {
        reports += 1;
        return Response.json({ ok: true });
      }
      throw new TypeError('Failed to fetch');
    });
    await expect(callEndpoint(sessionsApi.listSessions)).rejects.toMatchObject({ status: 0 });
    await expect.poll(() => reports).toBe(1);
  });
});

describe('error log body', () => {
  it('truncates every field to 2900 characters', async () => {
    const huge = 'x'.repeat(10_000);
    const body = await errorLogApi.buildErrorLog(
      {
        endpoint: { method: 'POST', path: '/chatbots/:id/chat/' },
        url: 'http://app.test/api/v1/chatbots/1/chat/',
        requestBody: { text: huge },
        error: new ApiError(500, null, huge),
        response: new Response(huge, { status: 500 }),
      },
      { source: 'web-client', userAgent: huge },
    );
    for (const block of body.attachments ?? []) expect(block.text.length).toBeLessThanOrEqual(2900);
    expect(body.message.length).toBeLessThanOrEqual(2900);
    expect(body.user_agent.length).toBeLessThanOrEqual(2900);
    expect(body.attachments?.[2]?.text.startsWith('{"text":"xxx')).toBe(true);
  });
});
