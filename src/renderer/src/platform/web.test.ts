import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../shared/api';
import { testMember } from '../test/fixtures';
import { createWebPlatform } from './web';

const API = 'http://app.test/api/v1';
const member = testMember();

function tokens(accessToken: string) {
  return Response.json({ access_token: accessToken, access_token_expires_at: new Date(Date.now() + 60_000).toISOString(), member });
}

/** A tiny server: /auth/refresh/ hands out `fresh`, /data/ needs it. */
function fakeServer(options: { refreshStatus?: number } = {}) {
  const calls: { path: string; token: string | null; subdomain: string | null }[] = [];
  let releaseRefresh: () => void = () => undefined;
  const refreshGate = new Promise<void>((resolve) => (releaseRefresh = resolve));
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    const path = new URL(request.url).pathname.replace('/api/v1', '');
    calls.push({ path, token: request.headers.get('x-access-token'), subdomain: request.headers.get('x-subdomain') });
    if (path === '/auth/refresh/') {
      await refreshGate;
      if (options.refreshStatus) return Response.json({ code: 'session_expired', message: 'expired' }, { status: options.refreshStatus });
      return tokens('fresh');
    }
    if (request.headers.get('x-access-token') !== 'fresh') return Response.json({ code: 'unauthorized', message: 'no' }, { status: 401 });
    return Response.json({ ok: true });
  });
  return { fetch, calls, releaseRefresh };
}

/** A web platform on a fake server whose refresh answers at once, with a spy on the session's end. */
function readyPlatform(options: { refreshStatus?: number } = {}) {
  const server = fakeServer(options);
  server.releaseRefresh();
  const platform = createWebPlatform({ fetch: server.fetch, apiBase: API });
  const ended = vi.fn();
  platform.session.onEnded(ended);
  return { server, platform, ended };
}

describe('web platform', () => {
  it('refreshes once for several concurrent 401s and retries each call with the new token', async () => {
    const server = fakeServer();
    const platform = createWebPlatform({ fetch: server.fetch, apiBase: API });
    const pending = [1, 2, 3].map(() => platform.fetch(new Request(`${API}/data/`)));
    await vi.waitFor(() => expect(server.calls.filter((c) => c.path === '/auth/refresh/')).toHaveLength(1));
    server.releaseRefresh();
    const responses = await Promise.all(pending);

    expect(responses.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(server.calls.filter((c) => c.path === '/auth/refresh/')).toHaveLength(1);
    expect(server.calls.filter((c) => c.path === '/data/' && c.token === 'fresh')).toHaveLength(3);
  });

  it('ends the session with the refresh status when renewal is refused', async () => {
    const { platform, ended } = readyPlatform({ refreshStatus: 403 });

    const response = await platform.fetch(new Request(`${API}/data/`));

    expect(response.status).toBe(401);
    expect(ended).toHaveBeenCalledExactlyOnceWith('auth_refresh_403');
  });

  it('lets a signed-out call keep its own 401 (a refused SSO step) without ending a session', async () => {
    const { platform, ended } = readyPlatform({ refreshStatus: 401 });

    const response = await platform.fetch(new Request(`${API}/data/`));

    expect(response.status).toBe(401);
    expect(ended).not.toHaveBeenCalled();
  });

  it('treats a 401 from restore as "not signed in" without ending anything', async () => {
    const { platform, ended } = readyPlatform({ refreshStatus: 401 });

    await expect(platform.session.restore()).resolves.toBeNull();
    expect(ended).not.toHaveBeenCalled();
  });

  it('keeps the access token in memory and sends the tenant from the subdomain cookie', async () => {
    document.cookie = 'subdomain=acme; path=/';
    const { server, platform } = readyPlatform();

    await expect(platform.session.restore()).resolves.toMatchObject({ id: 7 });
    await platform.fetch(new Request(`${API}/data/`));

    expect(server.calls.at(-1)).toEqual({ path: '/data/', token: 'fresh', subdomain: 'acme' });
    expect(JSON.stringify({ ...localStorage })).not.toContain('fresh');
    document.cookie = 'subdomain=; path=/; max-age=0';
  });

  it('rejects sign-in with the ApiError of the server', async () => {
    const fetch = vi.fn(async () => Response.json({ code: 'not_approved', message: 'pending' }, { status: 403 }));
    const platform = createWebPlatform({ fetch, apiBase: API });
    const failure = platform.session.signIn({ email: 'a@b.co', password: 'x' });
    await expect(failure).rejects.toBeInstanceOf(ApiError);
    await expect(failure).rejects.toMatchObject({ status: 403, code: 'not_approved' });
  });

  it('streams the chat: meta header, then one frame per data line, across chunk boundaries', async () => {
    const encoder = new TextEncoder();
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(encoder.encode('data: {"type":"text","delta":"Hel"}\n\ndata: {"type":"te'));
        controller.enqueue(encoder.encode('xt","delta":"lo"}\n\ndata: {"type":"end","finish_reason":"stop"}\n\n'));
        controller.close();
      },
    });
    const meta = { session_hash_id: 'abc', session_created: true, member_message_id: 1, chatbot_message_id: 2, model: 'demo' };
    const fetch = vi.fn(async () => new Response(body, { headers: { 'content-type': 'text/event-stream', 'x-chat-meta': JSON.stringify(meta) } }));
    const platform = createWebPlatform({ fetch, apiBase: API });
    const onMeta = vi.fn();
    const onFrame = vi.fn();

    await platform.streamChat({ chatbotId: 3, body: { text: 'hi' }, signal: new AbortController().signal, onMeta, onFrame });

    expect(onMeta).toHaveBeenCalledWith(meta);
    expect(onFrame.mock.calls.map(([frame]) => frame)).toEqual([
      { type: 'text', delta: 'Hel' },
      { type: 'text', delta: 'lo' },
      { type: 'end', finish_reason: 'stop' },
    ]);
  });

  it.each([
    ['malformed', '{"session_hash_id":'],
    ['missing', null],
  ])('a %s chat meta header fails as 502 bad_chat_meta and cancels the answer, so the server stops generating', async (_case, header) => {
    const cancelled = vi.fn();
    const body = new ReadableStream<Uint8Array>({ cancel: cancelled });
    const headers = new Headers({ 'content-type': 'text/event-stream' });
    if (header !== null) headers.set('x-chat-meta', header);
    const platform = createWebPlatform({ fetch: vi.fn(async () => new Response(body, { headers })), apiBase: API });
    const onMeta = vi.fn();

    const failure = platform.streamChat({ chatbotId: 3, body: { text: 'hi' }, signal: new AbortController().signal, onMeta, onFrame: vi.fn() });

    await expect(failure).rejects.toBeInstanceOf(ApiError);
    await expect(failure).rejects.toMatchObject({ status: 502, code: 'bad_chat_meta' });
    expect(cancelled).toHaveBeenCalledOnce();
    expect(onMeta).not.toHaveBeenCalled();
  });

  it('turns an error before the stream into an ApiError with the status', async () => {
    const fetch = vi.fn(async () => Response.json({ code: 'credits_depleted', message: 'no credits' }, { status: 402 }));
    const platform = createWebPlatform({ fetch, apiBase: API });
    await expect(
      platform.streamChat({ chatbotId: 3, body: { text: 'hi' }, signal: new AbortController().signal, onMeta: vi.fn(), onFrame: vi.fn() }),
    ).rejects.toMatchObject({ status: 402, code: 'credits_depleted' });
  });
});

/**
 * An XMLHttpRequest that answers 401 without the `fresh` token and otherwise reports the upload and
 * the answer in two steps each, as a browser does for a large file.
 */
class FakeXhr extends EventTarget {
  static sent: { url: string; token: string | null; bytes: number }[] = [];
  readonly upload = new EventTarget();
  status = 0;
  statusText = '';
  response: ArrayBuffer | null = null;
  withCredentials = false;
  responseType = '';
  private url = '';
  private headers = new Headers();
  open(_method: string, url: string) {
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers.set(name, value);
  }
  getAllResponseHeaders() {
    return 'content-type: application/json\r\nx-request-id: r1\r\n';
  }
  abort() {}
  send(body: Blob | null) {
    const token = this.headers.get('x-access-token');
    FakeXhr.sent.push({ url: this.url, token, bytes: body?.size ?? 0 });
    const progress = (target: EventTarget, loaded: number, total: number) =>
      target.dispatchEvent(Object.assign(new Event('progress'), { loaded, total, lengthComputable: true }));
    queueMicrotask(() => {
      if (token !== 'fresh') {
        this.status = 401;
        this.response = new TextEncoder().encode('{"code":"unauthorized","message":"no"}').buffer;
      } else {
        const total = body?.size ?? 0;
        progress(this.upload, Math.floor(total / 2), total);
        progress(this.upload, total, total);
        progress(this, 10, 20);
        progress(this, 20, 20);
        this.status = 201;
        this.response = new TextEncoder().encode('{"items":[]}').buffer;
      }
      this.dispatchEvent(new Event('load'));
    });
  }
}

describe('web platform file transfers', () => {
  it('report upload and download progress, and go again with the renewed token after a 401', async () => {
    const server = fakeServer();
    server.releaseRefresh();
    FakeXhr.sent = [];
    const platform = createWebPlatform({ fetch: server.fetch, apiBase: API, createXhr: () => new FakeXhr() as unknown as XMLHttpRequest });
    const steps: unknown[] = [];
    const response = await platform.fetch(new Request(`${API}/files/`, { method: 'POST', body: 'x'.repeat(1000) }), (progress) => steps.push(progress));

    expect(response.status).toBe(201);
    expect(response.headers.get('x-request-id')).toBe('r1');
    expect(await response.json()).toEqual({ items: [] });
    expect(FakeXhr.sent).toEqual([
      { url: `${API}/files/`, token: null, bytes: 1000 },
      { url: `${API}/files/`, token: 'fresh', bytes: 1000 },
    ]);
    expect(steps).toEqual([
      { direction: 'upload', loaded: 500, total: 1000 },
      { direction: 'upload', loaded: 1000, total: 1000 },
      { direction: 'download', loaded: 10, total: 20 },
      { direction: 'download', loaded: 20, total: 20 },
    ]);
    // Calls without a progress listener keep using fetch.
    expect(server.fetch).toHaveBeenCalledTimes(1);
  });
});
