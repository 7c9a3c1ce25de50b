import { afterEach, describe, expect, it, vi } from 'vitest';
import { setPlatformForTests } from '../platform';
import { createDesktopPlatform } from '../platform/desktop';
import { fakeBridge } from '../test/fakeBridge';
import { installFakeApi, TEST_API_BASE } from '../test/fakeApi';
import { streamChat } from './chat';

afterEach(() => setPlatformForTests(null));

const send = (chatbotId = 7) =>
  streamChat({ chatbotId, body: { text: 'Hello there' }, signal: new AbortController().signal, onMeta: vi.fn(), onFrame: vi.fn() });

/** What the log-error endpoint received, once it has been called. */
async function onlyReport(api: ReturnType<typeof installFakeApi>) {
  await expect.poll(() => api.find('POST', '/log-error/').length).toBe(1);
  return api.find('POST', '/log-error/')[0]!.json();
}

describe('streamChat on the web', () => {
  it('reports a send refused with a 5xx before streaming, then rethrows it', async () => {
    const api = installFakeApi({
      'POST /chatbots/7/chat/': () => Response.json({ code: 'internal_error', message: 'database down' }, { status: 503 }),
      'POST /log-error/': () => Response.json({ ok: true }),
    });
    await expect(send()).rejects.toMatchObject({ status: 503, code: 'internal_error' });

    const report = await onlyReport(api);
    expect(report.message).toBe('POST /chatbots/:id/chat/ failed with 503: database down');
    expect(report.url).toBe(`${TEST_API_BASE}/chatbots/7/chat/`);
    const blocks = Object.fromEntries(report.attachments.map((block: { title: string; text: string }) => [block.title, block.text]));
    expect(blocks.Response).toContain('503');
    expect(blocks.Response).toContain('database down');
    expect(JSON.parse(blocks['Request body'])).toMatchObject({ text: 'Hello there' });
  });

  it('reports a network failure as status 0', async () => {
    const api = installFakeApi({ 'POST /log-error/': () => Response.json({ ok: true }) });
    const networkDown = api.fetch.getMockImplementation()!;
    api.fetch.mockImplementation(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = input instanceof Request ? input.url : String(input);
      if (url.endsWith('/chat/')) throw new TypeError('Failed to fetch');
      return networkDown(input, init);
    });
    await expect(send()).rejects.toMatchObject({ status: 0 });
    const report = await onlyReport(api);
    expect(report.attachments[0].text).toBe('network failure (no response)');
  });

  it('does not report a refusal the member has to act on, such as 402', async () => {
    const api = installFakeApi({
      'POST /chatbots/7/chat/': () => Response.json({ code: 'credits_depleted', message: 'No credits' }, { status: 402 }),
      'POST /log-error/': () => Response.json({ ok: true }),
    });
    await expect(send()).rejects.toMatchObject({ status: 402 });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(api.find('POST', '/log-error/')).toHaveLength(0);
  });
});

describe('streamChat on the desktop', () => {
  it('reports a 5xx that main forwarded from chat:start through the authenticated transport', async () => {
    const { bridge, calls } = fakeBridge({
      'chat:start': () => ({ ok: false, error: { status: 500, body: { code: 'internal_error', message: 'boom' } } }),
      'settings:get': () => ({ ok: true, value: { apiBase: 'https://chat.test/api/v1', subdomain: 'acme', configured: true } }),
      'http:fetch': () => ({
        ok: true,
        value: { status: 200, statusText: 'OK', headers: [['content-type', 'application/json']], body: new TextEncoder().encode('{"ok":true}') },
      }),
    });
    setPlatformForTests(createDesktopPlatform(bridge));
    await expect(send(3)).rejects.toMatchObject({ status: 500, code: 'internal_error' });

    await vi.waitFor(() => expect(calls['http:fetch']).toHaveLength(1));
    const sent = calls['http:fetch']![0] as { url: string; method: string; body: Uint8Array };
    expect([sent.method, sent.url]).toEqual(['POST', 'https://chat.test/api/v1/log-error/']);
    const report = JSON.parse(new TextDecoder().decode(sent.body));
    expect(report.url).toBe('https://chat.test/api/v1/chatbots/3/chat/');
    expect(report.attachments[0].text).toContain('boom');
  });
});
