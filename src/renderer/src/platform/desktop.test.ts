import { describe, expect, it, vi } from 'vitest';
import { ApiError, type ChatFrame } from '../../../shared/api';
import type { IpcResult } from '../../../shared/ipc/contract';
import { createDesktopPlatform } from './desktop';
import { fakeBridge } from '../test/fakeBridge';

const meta = { session_hash_id: 'abc', session_created: true, member_message_id: 1, chatbot_message_id: 2, model: 'demo' };

describe('desktop platform', () => {
  it('sends an upload as bytes with its multipart boundary and rebuilds a binary download', async () => {
    const download = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 255]);
    const { bridge, calls } = fakeBridge({
      'http:fetch': () => ({ ok: true, value: { status: 200, statusText: 'OK', headers: [['content-type', 'image/png']], body: download } }),
    });
    // jsdom's Blob is foreign to the fetch Request of Node, so the multipart part here is a text field.
    const form = new FormData();
    form.append('chatbot_id', '42');
    const platform = createDesktopPlatform(bridge);
    const response = await platform.fetch(new Request('http://127.0.0.1:3000/api/v1/files/', { method: 'POST', body: form }));

    const sent = calls['http:fetch']![0] as { method: string; headers: [string, string][]; body: Uint8Array };
    expect(sent.method).toBe('POST');
    const contentType = new Headers(sent.headers).get('content-type')!;
    const boundary = contentType.split('boundary=')[1]!;
    expect(contentType).toMatch(/^multipart\/form-data/);
    expect(new TextDecoder().decode(sent.body)).toContain(`--${boundary}`);
    expect(new TextDecoder().decode(sent.body)).toMatch(/name="chatbot_id"\r\n\r\n42\r\n/);
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(download);

    const bytes = new Uint8Array([0, 255, 128, 10]);
    await platform.fetch(new Request('http://127.0.0.1:3000/api/v1/files/raw/', { method: 'PUT', body: bytes }));
    expect((calls['http:fetch']![1] as { body: Uint8Array }).body).toEqual(bytes);
  });

  it('asks main for progress and passes on only the events of its own request', async () => {
    const progressListeners = new Set<(payload: unknown) => void>();
    let requestId = '';
    const { bridge, calls } = fakeBridge({
      'http:fetch': (args) => {
        requestId = (args as { requestId: string }).requestId;
        for (const listener of progressListeners) {
          listener({ requestId: crypto.randomUUID(), direction: 'upload', loaded: 1, total: 9 });
          listener({ requestId, direction: 'upload', loaded: 9, total: 9 });
        }
        return { ok: true, value: { status: 200, statusText: 'OK', headers: [], body: new Uint8Array() } };
      },
    });
    const http = bridge.http as unknown as { onProgress: (listener: (payload: unknown) => void) => () => void };
    http.onProgress = (listener) => {
      progressListeners.add(listener);
      return () => progressListeners.delete(listener);
    };
    const steps: unknown[] = [];
    await createDesktopPlatform(bridge).fetch(new Request('http://127.0.0.1:3000/api/v1/files/', { method: 'POST', body: 'bytes' }), (step) =>
      steps.push(step),
    );
    expect((calls['http:fetch']![0] as { progress: boolean }).progress).toBe(true);
    expect(steps).toEqual([{ direction: 'upload', loaded: 9, total: 9 }]);
    expect(progressListeners.size).toBe(0);
  });

  it('cancels an aborted request in main under the id it was sent with, and stops waiting at once', async () => {
    const ok: IpcResult<unknown> = { ok: true, value: { status: 200, statusText: 'OK', headers: [], body: new Uint8Array() } };
    let answerLate: ((result: IpcResult<unknown>) => void) | null = null;
    // The first request stays open until the test answers it; later ones are answered at once.
    const { bridge, calls } = fakeBridge({ 'http:fetch': () => (answerLate ? ok : new Promise((resolve) => (answerLate = resolve))) });
    const platform = createDesktopPlatform(bridge);
    const controller = new AbortController();
    const pending = platform.fetch(new Request('http://127.0.0.1:3000/api/v1/chatbots/', { signal: controller.signal }));
    await vi.waitFor(() => expect(calls['http:fetch']).toHaveLength(1));
    const { requestId } = calls['http:fetch']![0] as { requestId: string };

    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    expect(calls['http:cancel']).toEqual([{ requestId }]);
    answerLate!(ok);

    const finished = new AbortController();
    await platform.fetch(new Request('http://127.0.0.1:3000/api/v1/chatbots/', { signal: finished.signal }));
    finished.abort();
    expect(calls['http:fetch']).toHaveLength(2);
    expect((calls['http:fetch']![1] as { requestId: string }).requestId).not.toBe(requestId);
    expect(calls['http:cancel']).toHaveLength(1);
  });

  it('rejects with the same ApiError the web transport gives', async () => {
    const { bridge } = fakeBridge({
      'session:signIn': () => ({ ok: false, error: { status: 403, body: { code: 'not_approved', message: 'Not approved yet' } } }),
    });
    const failure = await createDesktopPlatform(bridge)
      .session.signIn({ email: 'a@b.c', password: 'pw' })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiError);
    expect(failure).toMatchObject({ status: 403, code: 'not_approved' });
  });

  it('delivers the metadata first, then frames in order, even when frames overtake the start reply', async () => {
    let requestId = '';
    const { bridge, emit } = fakeBridge({
      'chat:start': (args) => {
        requestId = (args as { requestId: string }).requestId;
        // Main already forwarded frames before its reply to chat:start arrived.
        emit({ requestId, event: { type: 'frame', frame: { type: 'text', delta: 'Hel' } } });
        emit({ requestId: crypto.randomUUID(), event: { type: 'frame', frame: { type: 'text', delta: 'other stream' } } });
        return { ok: true, value: meta };
      },
    });
    const seen: Array<string | ChatFrame> = [];
    const done = createDesktopPlatform(bridge).streamChat({
      chatbotId: 3,
      body: { text: 'hi' },
      signal: new AbortController().signal,
      onMeta: () => seen.push('meta'),
      onFrame: (frame) => seen.push(frame),
    });
    await vi.waitFor(() => expect(seen).toContain('meta'));
    emit({ requestId, event: { type: 'frame', frame: { type: 'text', delta: 'lo' } } });
    emit({ requestId, event: { type: 'done' } });
    await done;
    expect(seen).toEqual(['meta', { type: 'text', delta: 'Hel' }, { type: 'text', delta: 'lo' }]);
  });

  it('rejects a send refused before streaming with the server status and body', async () => {
    const { bridge, streamListeners } = fakeBridge({
      'chat:start': () => ({ ok: false, error: { status: 402, body: { code: 'credits_depleted', message: 'No credits' } } }),
    });
    const attempt = createDesktopPlatform(bridge).streamChat({
      chatbotId: 3,
      body: { text: 'hi' },
      signal: new AbortController().signal,
      onMeta: vi.fn(),
      onFrame: vi.fn(),
    });
    await expect(attempt).rejects.toMatchObject({ status: 402, code: 'credits_depleted' });
    expect(streamListeners.size).toBe(0);
  });

  it('cancels the request in main when the signal aborts, and stops listening', async () => {
    const { bridge, calls, emit, streamListeners } = fakeBridge({ 'chat:start': () => ({ ok: true, value: meta }) });
    const controller = new AbortController();
    const onFrame = vi.fn();
    const running = createDesktopPlatform(bridge).streamChat({ chatbotId: 3, body: { text: 'hi' }, signal: controller.signal, onMeta: vi.fn(), onFrame });
    await vi.waitFor(() => expect(calls['chat:start']).toHaveLength(1));
    const { requestId } = calls['chat:start']![0] as { requestId: string };
    controller.abort();
    await running;
    expect(calls['chat:cancel']).toEqual([{ requestId }]);
    expect(streamListeners.size).toBe(0);
    emit({ requestId, event: { type: 'frame', frame: { type: 'text', delta: 'late' } } });
    expect(onFrame).not.toHaveBeenCalled();
  });

  it('passes session-end reasons through and exposes only server and workspace as client settings', async () => {
    const { bridge, endedListeners } = fakeBridge({
      'settings:get': () => ({ ok: true, value: { apiBase: 'https://chat.example/api/v1', subdomain: 'acme', configured: true } }),
    });
    const platform = createDesktopPlatform(bridge);
    const reasons: string[] = [];
    platform.session.onEnded((reason) => reasons.push(reason));
    endedListeners.forEach((listener) => listener({ reason: 'auth_refresh_401' }));
    expect(reasons).toEqual(['auth_refresh_401']);
    expect(await platform.settings.get()).toEqual({ apiBase: 'https://chat.example/api/v1', subdomain: 'acme' });
  });

  it('tells the user once when there is no keychain, also when it happened before subscribing', async () => {
    const { bridge, storageListeners } = fakeBridge({ 'session:storageStatus': () => ({ ok: true, value: { storage: 'memory' } }) });
    const listener = vi.fn();
    createDesktopPlatform(bridge).session.onSecureStorageUnavailable!(listener);
    await vi.waitFor(() => expect(listener).toHaveBeenCalledTimes(1));
    storageListeners.forEach((notify) => notify());
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('stays quiet while the keychain works', async () => {
    const { bridge, calls } = fakeBridge({ 'session:storageStatus': () => ({ ok: true, value: { storage: 'keychain' } }) });
    const listener = vi.fn();
    createDesktopPlatform(bridge).session.onSecureStorageUnavailable!(listener);
    await vi.waitFor(() => expect(calls['session:storageStatus']).toHaveLength(1));
    expect(listener).not.toHaveBeenCalled();
  });
});
