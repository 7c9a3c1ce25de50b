import { describe, expect, it } from 'vitest';
import { ApiError } from '../../shared/api';
import type { AuthorizedRequest } from '../auth/authSession';
import type { EventPayload } from '../../shared/ipc/contract';
import { type BridgeSender, createBridgeFetch } from './bridgeFetch';

const API_BASE = 'https://api.test/api/v1';

/** A window: its id and the progress events main sent it. */
function windowNamed(id: number) {
  const progress: EventPayload<'http:progress'>[] = [];
  const sender: BridgeSender = { id, send: (_channel, payload) => progress.push(payload) };
  return Object.assign(sender, { progress });
}
const WINDOW = windowNamed(1);
const OTHER_WINDOW = windowNamed(2);

/** A network whose requests stay open until their signal aborts them or the test answers them. */
function pendingNetwork() {
  const calls = new Map<string, { signal: AbortSignal; answer: () => void }>();
  const session = {
    authorizedFetch: (url: string, init: AuthorizedRequest) =>
      new Promise<Response>((resolve, reject) => {
        const signal = init.signal!;
        calls.set(new URL(url).pathname, { signal, answer: () => resolve(new Response('{"ok":true}', { status: 200 })) });
        signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')), { once: true });
      }),
  };
  const call = (path: string) => calls.get(`/api/v1${path}`)!;
  return { bridgeFetch: createBridgeFetch(session, () => API_BASE), call };
}

const get = (path: string) => ({ url: `${API_BASE}${path}`, method: 'GET' as const, headers: [], body: null });

describe('bridge fetch cancellation', () => {
  it('aborts only the named request of the window that asks', async () => {
    const { bridgeFetch, call } = pendingNetwork();
    const [first, second] = [crypto.randomUUID(), crypto.randomUUID()];
    const slow = bridgeFetch.fetch(WINDOW, first, get('/slow/'));
    const other = bridgeFetch.fetch(WINDOW, second, get('/other/'));
    const sameIdOtherWindow = bridgeFetch.fetch(OTHER_WINDOW, first, get('/elsewhere/'));

    bridgeFetch.cancel(OTHER_WINDOW.id, second); // another window cannot name this window's request
    expect(call('/other/').signal.aborted).toBe(false);

    bridgeFetch.cancel(WINDOW.id, first);
    expect(call('/slow/').signal.aborted).toBe(true);
    await expect(slow).rejects.toEqual(new ApiError(0, null, 'Cancelled'));
    expect(call('/other/').signal.aborted).toBe(false);
    expect(call('/elsewhere/').signal.aborted).toBe(false);

    call('/other/').answer();
    call('/elsewhere/').answer();
    expect((await other).status).toBe(200);
    expect((await sameIdOtherWindow).status).toBe(200);
  });

  it('forgets a request once it is done, so a late cancel aborts nothing and the id is free again', async () => {
    const { bridgeFetch, call } = pendingNetwork();
    const requestId = crypto.randomUUID();
    const done = bridgeFetch.fetch(WINDOW, requestId, get('/once/'));
    await expect(bridgeFetch.fetch(WINDOW, requestId, get('/twice/'))).rejects.toMatchObject({ status: 409 });
    call('/once/').answer();
    await done;
    bridgeFetch.cancel(WINDOW.id, requestId);
    expect(call('/once/').signal.aborted).toBe(false);

    const again = bridgeFetch.fetch(WINDOW, requestId, get('/again/'));
    call('/again/').answer();
    expect((await again).status).toBe(200);
  });

  it('stops every request of a closed window and none of another', async () => {
    const { bridgeFetch, call } = pendingNetwork();
    const closing = [bridgeFetch.fetch(WINDOW, crypto.randomUUID(), get('/a/')), bridgeFetch.fetch(WINDOW, crypto.randomUUID(), get('/b/'))];
    const staying = bridgeFetch.fetch(OTHER_WINDOW, crypto.randomUUID(), get('/c/'));

    bridgeFetch.cancelAllOf(WINDOW.id);
    await Promise.all(closing.map((request) => expect(request).rejects.toMatchObject({ status: 0 })));
    expect(call('/c/').signal.aborted).toBe(false);
    call('/c/').answer();
    expect((await staying).status).toBe(200);
  });
});

describe('bridge fetch never hands the renderer a credential', () => {
  /** A server that answers every request with the given response. */
  const answering = (respond: () => Response, tokenEndpointPaths?: readonly string[]) => {
    const calls: string[] = [];
    const session = {
      authorizedFetch: async (url: string) => {
        calls.push(url);
        return respond();
      },
    };
    return { bridgeFetch: createBridgeFetch(session, () => API_BASE, tokenEndpointPaths), calls };
  };

  it('drops set-cookie headers and forwards the rest', async () => {
    const headers = new Headers({ 'content-type': 'application/json', 'x-request-id': 'r1' });
    headers.append('set-cookie', 'refresh_token=secret; HttpOnly');
    headers.append('set-cookie', 'other=1');
    const { bridgeFetch } = answering(() => new Response('{"ok":true}', { headers }));
    const answer = await bridgeFetch.fetch(WINDOW, crypto.randomUUID(), get('/members/me/'));
    expect(answer.headers.map(([name]) => name).sort()).toEqual(['content-type', 'x-request-id']);
    expect(JSON.stringify(answer)).not.toContain('secret');
  });

  it('refuses an answer with a token field even from an endpoint the contract does not mark', async () => {
    const { bridgeFetch, calls } = answering(() => Response.json({ member: { id: 1 }, session: { access_token: 'leaked' } }), []);
    const result = bridgeFetch.fetch(WINDOW, crypto.randomUUID(), get('/invitations/abc/accept/'));
    await expect(result).rejects.toMatchObject({ status: 403, body: { code: 'forbidden' } });
    await expect(result).rejects.not.toHaveProperty('body.message', expect.stringContaining('leaked'));
    expect(calls).toHaveLength(1);
  });

  it('refuses a token endpoint before any request is sent', async () => {
    const { bridgeFetch, calls } = answering(() => Response.json({ ok: true }));
    await expect(bridgeFetch.fetch(WINDOW, crypto.randomUUID(), get('/auth/%73ign-in/'))).rejects.toMatchObject({ status: 403 });
    expect(calls).toEqual([]);
  });
});

describe('bridge fetch with progress', () => {
  /** A server that reads the whole body it is sent and answers `answer` bytes; the first call may be refused with 401. */
  function server(answer: Uint8Array, { unauthorizedFirst = false } = {}) {
    const received: number[] = [];
    const session = {
      async authorizedFetch(_url: string, init: AuthorizedRequest) {
        const send = async () => {
          const body = typeof init.body === 'function' ? init.body() : init.body;
          received.push(body instanceof ReadableStream ? (await new Response(body).arrayBuffer()).byteLength : 0);
        };
        await send();
        // Like the auth session: after a refresh the same request goes again, with a fresh body.
        if (unauthorizedFirst) await send();
        return new Response(answer, { headers: { 'content-length': String(answer.byteLength) } });
      },
    };
    return { bridgeFetch: createBridgeFetch(session, () => API_BASE), received };
  }

  const upload = (bytes: number) => ({ url: `${API_BASE}/files/`, method: 'POST' as const, headers: [], body: new Uint8Array(bytes), progress: true });

  it('tells the window how much of an upload went out and how much of the answer came in, ending at the totals', async () => {
    const window = windowNamed(7);
    const { bridgeFetch, received } = server(new Uint8Array(300_000));
    const requestId = crypto.randomUUID();
    const answer = await bridgeFetch.fetch(window, requestId, upload(1_000_000));
    expect(received).toEqual([1_000_000]);
    expect(answer.body.byteLength).toBe(300_000);
    const uploads = window.progress.filter((step) => step.direction === 'upload');
    const downloads = window.progress.filter((step) => step.direction === 'download');
    expect(uploads.at(-1)).toEqual({ requestId, direction: 'upload', loaded: 1_000_000, total: 1_000_000 });
    expect(downloads.at(-1)).toEqual({ requestId, direction: 'download', loaded: 300_000, total: 300_000 });
    expect(uploads.map((step) => step.loaded)).toEqual([...uploads.map((step) => step.loaded)].sort((a, b) => a - b));
  });

  it('sends the whole body again when the request is repeated after a refresh', async () => {
    const { bridgeFetch, received } = server(new Uint8Array(10), { unauthorizedFirst: true });
    await bridgeFetch.fetch(windowNamed(8), crypto.randomUUID(), upload(200_000));
    expect(received).toEqual([200_000, 200_000]);
  });

  it('sends no progress unless asked', async () => {
    const window = windowNamed(9);
    const { bridgeFetch } = server(new Uint8Array(10));
    await bridgeFetch.fetch(window, crypto.randomUUID(), { ...upload(100), progress: undefined, body: new Uint8Array(100) });
    expect(window.progress).toEqual([]);
  });
});
