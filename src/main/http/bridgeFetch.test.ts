import { describe, expect, it } from 'vitest';
import { ApiError } from '../../shared/api';
import type { AuthorizedRequest } from '../auth/authSession';
import { createBridgeFetch } from './bridgeFetch';

const API_BASE = 'https://api.test/api/v1';
const WINDOW = 1;
const OTHER_WINDOW = 2;

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

    bridgeFetch.cancel(OTHER_WINDOW, second); // another window cannot name this window's request
    expect(call('/other/').signal.aborted).toBe(false);

    bridgeFetch.cancel(WINDOW, first);
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
    bridgeFetch.cancel(WINDOW, requestId);
    expect(call('/once/').signal.aborted).toBe(false);

    const again = bridgeFetch.fetch(WINDOW, requestId, get('/again/'));
    call('/again/').answer();
    expect((await again).status).toBe(200);
  });

  it('stops every request of a closed window and none of another', async () => {
    const { bridgeFetch, call } = pendingNetwork();
    const closing = [bridgeFetch.fetch(WINDOW, crypto.randomUUID(), get('/a/')), bridgeFetch.fetch(WINDOW, crypto.randomUUID(), get('/b/'))];
    const staying = bridgeFetch.fetch(OTHER_WINDOW, crypto.randomUUID(), get('/c/'));

    bridgeFetch.cancelAllOf(WINDOW);
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
