import { mkdtemp } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createAuthSession } from '../../src/main/auth/authSession';
import { createSsoBrowserFlow } from '../../src/main/auth/ssoBrowserFlow';
import { createChatProxy } from '../../src/main/chat/chatProxy';
import { createBridgeFetch } from '../../src/main/http/bridgeFetch';
import { createInvokeHandlers } from '../../src/main/ipc/invokeHandlers';
import { createSenderGuard, registerInvokeHandlers, type InvokeEvent } from '../../src/main/ipc/registerInvokeHandlers';
import type { SecretStore } from '../../src/main/keychain/secretStore';
import { createTokenVault } from '../../src/main/keychain/tokenVault';
import { createSettingsStore } from '../../src/main/settings/settingsStore';
import type { ChatFrame } from '../../src/shared/api';
import type { ChatStreamEvent, IpcResult } from '../../src/shared/ipc/contract';
import { startFakeLlmUpstream, type FakeLlmUpstream } from '../fixtures/fakeLlmUpstream';
import { OIDC_CLIENT, signInAtProvider, startOidcProvider } from '../fixtures/oidcProvider';
import { DEMO_ADMIN, DEMO_MEMBER, startTestServer, type TestServer } from '../fixtures/testServer';

/**
 * Main's HTTP and chat proxy as the renderer reaches it: calls go through the registered IPC
 * handlers (zod parsing and sender check included) to the real server, whose LLM is the fake
 * OpenAI-compatible upstream. Only Electron itself is absent: the network is Node's fetch (net.fetch
 * in the app) and this machine has no keychain in this project, so the vault runs memory-only.
 */
let server: TestServer;
let upstream: FakeLlmUpstream;
let chatbotId: number;

beforeAll(async () => {
  upstream = await startFakeLlmUpstream();
  server = await startTestServer({ llm: { baseUrl: upstream.baseUrl } });
});

afterAll(async () => {
  await server?.close();
  await upstream?.close();
});

afterEach(() => {
  vi.useRealTimers();
  upstream.setBehaviour({ delayMs: 0 });
});

const noKeychain: SecretStore = {
  get: () => Promise.reject(new Error('no Secret Service in this test')),
  set: () => Promise.reject(new Error('no Secret Service in this test')),
  delete: () => Promise.reject(new Error('no Secret Service in this test')),
};

/**
 * An OS keychain that works (a map) and can hold its next read or delete until `release()`: main
 * awaiting the keychain, the moment a compromised renderer would use to change the server.
 */
function holdableKeychain() {
  const secrets = new Map<string, string>();
  let next: 'get' | 'delete' | null = null;
  let held: (() => void) | null = null;
  const pass = async (operation: 'get' | 'delete') => {
    if (next !== operation) return;
    next = null;
    await new Promise<void>((resolve) => (held = resolve));
  };
  const store: SecretStore = {
    async get(service, account) {
      await pass('get');
      return secrets.get(`${service}|${account}`) ?? null;
    },
    async set(service, account, secret) {
      secrets.set(`${service}|${account}`, secret);
    },
    async delete(service, account) {
      await pass('delete');
      secrets.delete(`${service}|${account}`);
    },
  };
  return {
    store,
    holdNext(operation: 'get' | 'delete') {
      next = operation;
    },
    isHolding: () => held !== null,
    release() {
      held?.();
      held = null;
    },
  };
}

/** Another server on loopback that records whatever reaches it (it answers 200 `{}`). */
async function startRecordingServer() {
  const received: Array<{ url: string; headers: IncomingHttpHeaders; body: string }> = [];
  const recorder = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      received.push({ url: request.url ?? '', headers: request.headers, body });
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => recorder.listen(0, '127.0.0.1', resolve));
  return {
    apiBase: `http://127.0.0.1:${(recorder.address() as AddressInfo).port}/api/v1`,
    received,
    close: () => new Promise<void>((resolve) => recorder.close(() => resolve())),
  };
}

interface DesktopMainOptions {
  /** Replaces the contract's list, to play an endpoint that answers with tokens but is not marked. */
  tokenEndpointPaths?: readonly string[];
  openExternal?: (url: string) => Promise<void>;
  /** The OS keychain; by default none (memory only), as on this machine. */
  keychain?: SecretStore;
}

/** A desktop main process wired like src/main/index.ts, talking to the test server. */
async function desktopMain({ tokenEndpointPaths, openExternal = async () => undefined, keychain = noKeychain }: DesktopMainOptions = {}) {
  const requests: Array<{ url: string; method: string; signal?: AbortSignal }> = [];
  const settings = await createSettingsStore(join(await mkdtemp(join(tmpdir(), 'desktop-proxy-')), 'settings.json'), server.apiBase);
  const vault = createTokenVault(keychain, () => undefined);
  const ended: string[] = [];
  const session = createAuthSession({
    fetch: (url, init) => {
      requests.push({ url, method: init.method ?? 'GET', signal: init.signal ?? undefined });
      return fetch(url, init);
    },
    settings: settings.get,
    vault,
    serviceName: ({ apiBase, subdomain }) => `${apiBase}|${subdomain}`,
    onEnded: (reason) => ended.push(reason),
  });
  const apiBase = () => settings.get().apiBase;
  const chatProxy = createChatProxy(session, apiBase);
  const handlers = new Map<string, (event: InvokeEvent, ...args: unknown[]) => unknown>();
  registerInvokeHandlers(
    { handle: (channel, listener) => handlers.set(channel, listener) },
    createInvokeHandlers({
      session,
      chatProxy,
      bridgeFetch: createBridgeFetch(session, apiBase, tokenEndpointPaths),
      settings,
      vault,
      openAdminWindow: () => undefined,
      openExternal,
      ssoFlow: createSsoBrowserFlow({ post: session.postPublic, openExternal }),
    }),
    createSenderGuard({ trustedOrigins: ['app://bundle'], isOwnWebContents: (id) => id === 1 || id === 2 }),
  );

  const streamEvents: Array<ChatStreamEvent & { at: number }> = [];
  const page: InvokeEvent = {
    sender: { id: 1, send: (_channel, payload) => streamEvents.push({ ...(payload as ChatStreamEvent), at: Date.now() }) },
    senderFrame: { url: 'app://bundle/chat', parent: null },
  };
  /** A second window of the app, for what one window may not do to another's requests. */
  const otherPage: InvokeEvent = { sender: { id: 2, send: () => undefined }, senderFrame: { url: 'app://bundle/chat', parent: null } };
  async function invoke<T = unknown>(channel: string, args?: unknown, from = page): Promise<IpcResult<T>> {
    return (await handlers.get(channel)!(from, args)) as IpcResult<T>;
  }
  async function get(path: string) {
    const result = await invoke<{ status: number; body: Uint8Array }>('http:fetch', {
      requestId: crypto.randomUUID(),
      url: `${server.apiBase}${path}`,
      method: 'GET',
      headers: [],
      body: null,
    });
    if (!result.ok) throw new Error(`bridge failed: ${JSON.stringify(result.error)}`);
    return { status: result.value.status, json: JSON.parse(new TextDecoder().decode(result.value.body)) as unknown };
  }
  /** Resolves with the frames of one request once main reported it done. */
  async function framesOf(requestId: string): Promise<ChatFrame[]> {
    await vi.waitFor(() => expect(streamEvents.some((e) => e.requestId === requestId && e.event.type !== 'frame')).toBe(true), { timeout: 15_000 });
    return streamEvents.flatMap((e) => (e.requestId === requestId && e.event.type === 'frame' ? [e.event.frame] : []));
  }
  return { invoke, otherPage, get, framesOf, streamEvents, requests, vault, ended, chatProxy };
}

async function signedIn() {
  const main = await desktopMain();
  const result = await main.invoke('session:signIn', DEMO_MEMBER);
  expect(result.ok).toBe(true);
  if (!chatbotId) {
    const list = (await main.get('/chatbots/?include_default=true')).json as { items: Array<{ id: number }> };
    chatbotId = list.items[0]!.id;
  }
  return main;
}

describe('desktop main against the real server', () => {
  it('uploads a file and downloads it back through main, the renderer holding no token', async () => {
    const main = await signedIn();
    // The multipart body exactly as the renderer's Request serializes it for the bridge.
    const form = new FormData();
    form.append('files', new Blob(['Minutes of the desktop meeting']), 'minutes.txt');
    const request = new Request(`${server.apiBase}/files/`, { method: 'POST', body: form });
    const uploaded = await main.invoke<{ status: number; body: Uint8Array }>('http:fetch', {
      requestId: crypto.randomUUID(),
      url: request.url,
      method: 'POST',
      headers: [...request.headers.entries()],
      body: new Uint8Array(await request.arrayBuffer()),
    });
    if (!uploaded.ok) throw new Error(JSON.stringify(uploaded.error));
    expect(uploaded.value.status).toBe(200);
    const [file] = (JSON.parse(new TextDecoder().decode(uploaded.value.body)) as { items: { id: number; url: string }[] }).items;
    const downloaded = await main.invoke<{ status: number; headers: [string, string][]; body: Uint8Array }>('http:fetch', {
      requestId: crypto.randomUUID(),
      url: `${server.url}${file!.url}`,
      method: 'GET',
      headers: [],
      body: null,
    });
    if (!downloaded.ok) throw new Error(JSON.stringify(downloaded.error));
    expect(new TextDecoder().decode(downloaded.value.body)).toBe('Minutes of the desktop meeting');
    expect(downloaded.value.headers).toContainEqual(['content-disposition', `attachment; filename="minutes.txt"; filename*=UTF-8''minutes.txt`]);
  });

  it('signs in with the tokens kept in main: the renderer gets the member only', async () => {
    const main = await desktopMain();
    const result = await main.invoke<Record<string, unknown>>('session:signIn', DEMO_MEMBER);
    expect(result).toMatchObject({ ok: true, value: { email: DEMO_MEMBER.email } });
    expect(JSON.stringify(result)).not.toMatch(/token/i);
    const stored = await main.vault.load(`${server.apiBase}|null`);
    expect(stored?.refreshToken).toBeTruthy();
    expect(main.vault.storage()).toBe('memory');
    expect((await main.get('/chatbots/')).status).toBe(200);
  });

  it('streams an answer frame by frame, under its request id, then reports it done', async () => {
    const main = await signedIn();
    upstream.setBehaviour({ delayMs: 40 });
    const upstreamCalls = upstream.requests.length;
    const requestId = crypto.randomUUID();
    const started = await main.invoke('chat:start', { requestId, chatbotId, body: { text: 'Hello?' } });
    expect(started).toMatchObject({ ok: true, value: { session_created: true, model: expect.any(String) } });

    const record = await upstream.waitForRequest(upstreamCalls + 1);
    await vi.waitFor(() => expect(main.streamEvents.some((e) => e.event.type === 'frame' && e.event.frame.type === 'text')).toBe(true));
    // The first words reached the renderer while the upstream was still producing the rest.
    expect(record.chunksSent).toBeLessThan(6);

    const frames = await main.framesOf(requestId);
    const text = frames.flatMap((frame) => (frame.type === 'text' ? [frame.delta] : [])).join('');
    expect(text).toBe('Hello from the fake upstream.');
    expect(frames.filter((frame) => frame.type === 'text').length).toBeGreaterThan(1);
    expect(frames.at(-1)).toMatchObject({ type: 'end', finish_reason: 'stop' });
    expect(main.streamEvents.every((e) => e.requestId === requestId)).toBe(true);
  });

  it('passes thinking and image frames to the renderer unchanged', async () => {
    const main = await signedIn();
    const list = (await main.get('/chatbots/?include_default=true')).json as { items: Array<{ id: number; en_name: string }> };
    const general = list.items.find((bot) => bot.en_name === 'General Assistant')!.id;
    upstream.setBehaviour({ reasoningChunks: ['Weighing', ' it'] });
    const thinkingId = crypto.randomUUID();
    await main.invoke('chat:start', { requestId: thinkingId, chatbotId: general, body: { text: 'Which?', thinking: true } });
    const thought = await main.framesOf(thinkingId);
    expect(thought.filter((frame) => frame.type === 'thinking')).toEqual([
      { type: 'thinking', delta: 'Weighing' },
      { type: 'thinking', delta: ' it' },
    ]);
    upstream.setBehaviour({ reasoningChunks: undefined });

    const imageId = crypto.randomUUID();
    await main.invoke('chat:start', { requestId: imageId, chatbotId: general, body: { text: 'A fox', image_generation: true } });
    const image = (await main.framesOf(imageId)).find((frame) => frame.type === 'image');
    expect(image).toEqual({ type: 'image', url: expect.stringMatching(/^\/api\/v1\/files\/\d+\/$/) });
  });

  it('cancelling mid-stream aborts the HTTP request and the upstream LLM call', async () => {
    const main = await signedIn();
    upstream.setBehaviour({ delayMs: 150 });
    const upstreamCalls = upstream.requests.length;
    const requestId = crypto.randomUUID();
    expect((await main.invoke('chat:start', { requestId, chatbotId, body: { text: 'Tell me a long story' } })).ok).toBe(true);
    const record = await upstream.waitForRequest(upstreamCalls + 1);
    await vi.waitFor(() => expect(main.streamEvents.some((e) => e.event.type === 'frame' && e.event.frame.type === 'text')).toBe(true));

    expect(await main.invoke('chat:cancel', { requestId })).toEqual({ ok: true, value: { ok: true } });
    await record.settled;
    expect(record.aborted).toBe(true);
    expect(record.chunksSent).toBeLessThan(6);
    const frames = await main.framesOf(requestId);
    expect(frames.map((frame) => (frame.type === 'text' ? frame.delta : '')).join('')).not.toBe('Hello from the fake upstream.');
  });

  it('a closed window stops every stream it was receiving', async () => {
    const main = await signedIn();
    upstream.setBehaviour({ delayMs: 150 });
    const upstreamCalls = upstream.requests.length;
    expect((await main.invoke('chat:start', { requestId: crypto.randomUUID(), chatbotId, body: { text: 'Keep going' } })).ok).toBe(true);
    const record = await upstream.waitForRequest(upstreamCalls + 1);
    main.chatProxy.cancelAllOf(1); // what main does on the window's 'destroyed' event
    await record.settled;
    expect(record.aborted).toBe(true);
  });

  it('cancelling an ordinary request aborts it in main, and only when its own window asks', async () => {
    const main = await signedIn();
    upstream.setBehaviour({ delayMs: 150 });
    const upstreamCalls = upstream.requests.length;
    const requestId = crypto.randomUUID();
    // A chat answer read whole through http:fetch is a request that takes seconds, like a slow download.
    const slow = main.invoke('http:fetch', {
      requestId,
      url: `${server.apiBase}/chatbots/${chatbotId}/chat/`,
      method: 'POST',
      headers: [['content-type', 'application/json']],
      body: new TextEncoder().encode(JSON.stringify({ text: 'Tell me a long story' })),
    });
    const record = await upstream.waitForRequest(upstreamCalls + 1);
    const network = main.requests.at(-1)!;
    expect(network.url).toMatch(/\/chat\/$/);

    expect(await main.invoke('http:cancel', { requestId }, main.otherPage)).toEqual({ ok: true, value: { ok: true } });
    expect(network.signal?.aborted).toBe(false);

    expect(await main.invoke('http:cancel', { requestId })).toEqual({ ok: true, value: { ok: true } });
    expect(network.signal?.aborted).toBe(true);
    expect(await slow).toEqual({ ok: false, error: { status: 0, body: null } });
    await record.settled;
    expect(record.aborted).toBe(true);
    expect(record.chunksSent).toBeLessThan(6);
  });

  it('gives errors known before streaming the same status and body as a direct HTTP call', async () => {
    const main = await signedIn();
    const viaBridge = await main.invoke('chat:start', { requestId: crypto.randomUUID(), chatbotId, body: { text: '' } });
    const direct = await fetch(`${server.apiBase}/chatbots/${chatbotId}/chat/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-access-token': (await main.vault.load(`${server.apiBase}|null`))!.accessToken },
      body: JSON.stringify({ text: '' }),
    });
    expect(direct.status).toBeGreaterThanOrEqual(400);
    expect(viaBridge).toEqual({ ok: false, error: { status: direct.status, body: await direct.json() } });
  });

  it('refreshes an expired access token once for several concurrent calls', async () => {
    const main = await signedIn();
    const before = await main.vault.load(`${server.apiBase}|null`);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 60 * 60_000); // an hour later: the 15-minute access token has expired

    const answers = await Promise.all(Array.from({ length: 5 }, () => main.get('/chatbots/')));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200]);
    expect(main.requests.filter((request) => request.url.endsWith('/auth/refresh/'))).toHaveLength(1);
    const after = await main.vault.load(`${server.apiBase}|null`);
    expect(after?.accessToken).not.toBe(before?.accessToken);
    expect(after?.refreshToken).not.toBe(before?.refreshToken);
    expect(main.ended).toEqual([]);
  });

  it.each([
    ['another origin', () => 'http://127.0.0.1:9/api/v1/chatbots/'],
    ['the same server outside the API base', () => `${server.url}/openapi.json`],
    ['a path escaping the API base', () => `${server.apiBase}/../admin/`],
    ['the token refresh endpoint', () => `${server.apiBase}/auth/refresh/`],
    ['the sign-in endpoint', () => `${server.apiBase}/auth/sign-in/`],
  ])('refuses a URL to %s without touching the network', async (_name, url) => {
    const main = await signedIn();
    const sent = main.requests.length;
    const result = await main.invoke('http:fetch', {
      requestId: crypto.randomUUID(),
      url: url(),
      method: 'POST',
      headers: [],
      body: new TextEncoder().encode('{}'),
    });
    expect(result).toMatchObject({ ok: false, error: { status: 403, body: { code: 'forbidden' } } });
    expect(main.requests).toHaveLength(sent);
  });

  /** What a script in the renderer would send to get tokens: the demo credentials, web style. */
  const askForTokens = (main: Awaited<ReturnType<typeof desktopMain>>, url: string) =>
    main.invoke('http:fetch', {
      requestId: crypto.randomUUID(),
      url,
      method: 'POST',
      headers: [['content-type', 'application/json']],
      body: new TextEncoder().encode(JSON.stringify({ ...DEMO_MEMBER, refresh_token: 'x' })),
    });

  it.each([
    ['percent-encoded', '/auth/%73ign-in/'],
    ['percent-encoded refresh', '/auth/%72efresh/'],
    ['encoded dash', '/auth/sign%2Din/'],
    ['double-encoded', '/auth/%2573ign-in/'],
    ['upper case', '/AUTH/SIGN-IN/'],
    ['mixed case', '/Auth/Refresh/'],
    ['without the trailing slash', '/auth/sign-in'],
    ['with doubled slashes', '//auth//sign-in/'],
    ['through ..', '/chatbots/../auth/sign-in/'],
    ['through an encoded ..', '/chatbots/%2e%2e/auth/sign-in/'],
    ['through an encoded slash', '/auth%2fsign-in/'],
    ['with a ;parameter', '/auth/sign-in;x/'],
    ['with a query', '/auth/sign-in/?next=/chatbots/'],
    ['sign-out', '/auth/sign-out/'],
  ])('refuses the token endpoints written %s, so no token reaches the renderer', async (_name, path) => {
    const main = await signedIn();
    const sent = main.requests.length;
    const result = await askForTokens(main, `${server.apiBase}${path}`);
    expect(result).toMatchObject({ ok: false, error: { status: 403, body: { code: 'forbidden' } } });
    expect(JSON.stringify(result)).not.toMatch(/token/i);
    expect(main.requests).toHaveLength(sent);
  });

  it('refuses every variant the real server routes to sign-in, and more', async () => {
    const statusOf = async (path: string) =>
      (await fetch(`${server.apiBase}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(DEMO_MEMBER) })).status;
    // Fastify decodes one round of escapes and Node's URL resolves dot segments: these reach sign-in…
    for (const path of ['/auth/%73ign-in/', '/auth/sign%2Din/', '/chatbots/../auth/sign-in/', '/chatbots/%2e%2e/auth/sign-in/']) {
      expect(await statusOf(path), path).toBe(200);
    }
    // …while its router is case-, slash- and trailing-slash-sensitive and decodes once. The bridge
    // refuses all of them anyway (test above): another server behind the same contract may route them.
    for (const path of ['/AUTH/SIGN-IN/', '//auth//sign-in/', '/auth/sign-in', '/auth/%2573ign-in/', '/auth%2fsign-in/', '/auth/sign-in;x/']) {
      expect(await statusOf(path), path).toBe(404);
    }
  });

  it('refuses an answer carrying tokens even from an endpoint missing from the contract, and never forwards set-cookie', async () => {
    const main = await desktopMain({ tokenEndpointPaths: [] }); // as if sign-in were a new endpoint someone forgot to mark
    const signIn = await askForTokens(main, `${server.apiBase}/auth/sign-in/`);
    expect(main.requests.at(-1)?.url).toBe(`${server.apiBase}/auth/sign-in/`); // it did reach the server…
    expect(signIn).toMatchObject({ ok: false, error: { status: 403, body: { code: 'forbidden' } } }); // …but not the renderer
    expect(JSON.stringify(signIn)).not.toMatch(/token/i);

    const signOut = await askForTokens(main, `${server.apiBase}/auth/sign-out/`);
    const direct = await fetch(`${server.apiBase}/auth/sign-out/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(direct.headers.getSetCookie()).not.toEqual([]);
    expect(signOut).toMatchObject({ ok: true, value: { status: 200 } });
    const headers = (signOut as { value: { headers: Array<[string, string]> } }).value.headers;
    expect(headers.map(([name]) => name)).not.toContain('set-cookie');
    expect(headers.length).toBeGreaterThan(0);
  });

  it('refuses to switch to an http server outside this computer, so the session never travels in clear text', async () => {
    const main = await signedIn();
    const refused = await main.invoke('settings:set', { apiBase: 'http://chat.example/api/v1' });
    expect(refused).toMatchObject({ ok: false, error: { status: 400 } });
    expect(await main.invoke('settings:get')).toMatchObject({ ok: true, value: { apiBase: server.apiBase } });
    expect(await main.invoke('settings:set', { apiBase: 'https://chat.example/api/v1' })).toMatchObject({
      ok: true,
      value: { apiBase: 'https://chat.example/api/v1' },
    });
  });

  it('signs out: the tokens are gone and the server no longer accepts the session', async () => {
    const main = await signedIn();
    const stored = await main.vault.load(`${server.apiBase}|null`);
    expect(await main.invoke('session:signOut')).toEqual({ ok: true, value: { ok: true } });
    expect(await main.vault.load(`${server.apiBase}|null`)).toBeNull();
    expect((await main.get('/chatbots/')).status).toBe(401);
    const reuse = await fetch(`${server.apiBase}/auth/refresh/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-client-kind': 'desktop' },
      body: JSON.stringify({ refresh_token: stored!.refreshToken }),
    });
    expect(reuse.status).toBe(401);
    expect(await main.invoke('session:restore')).toEqual({ ok: true, value: null });
  });
});

describe('changing the server while main holds a session', () => {
  /** What the server says of a refresh token: 200 while its session lives, 401 once revoked. */
  const refreshStatus = async (refreshToken: string) =>
    (
      await fetch(`${server.apiBase}/auth/refresh/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-client-kind': 'desktop' },
        body: JSON.stringify({ refresh_token: refreshToken }),
      })
    ).status;

  it('a sign-out waiting on the keychain while the renderer switches servers goes to the server that issued the tokens, and nowhere else', async () => {
    const elsewhere = await startRecordingServer();
    try {
      const keychain = holdableKeychain();
      const main = await desktopMain({ keychain: keychain.store });
      expect((await main.invoke('session:signIn', DEMO_MEMBER)).ok).toBe(true);
      const issued = (await main.vault.load(`${server.apiBase}|null`))!;

      keychain.holdNext('delete');
      const signingOut = main.invoke('session:signOut');
      await vi.waitFor(() => expect(keychain.isHolding()).toBe(true));
      // A compromised renderer changes the server while main awaits the keychain.
      expect(await main.invoke('settings:set', { apiBase: elsewhere.apiBase })).toMatchObject({ ok: true, value: { apiBase: elsewhere.apiBase } });
      keychain.release();
      expect(await signingOut).toEqual({ ok: true, value: { ok: true } });

      expect(elsewhere.received).toEqual([]);
      expect(await refreshStatus(issued.refreshToken)).toBe(401);
      expect(await main.vault.load(`${server.apiBase}|null`)).toBeNull();
    } finally {
      await elsewhere.close();
    }
  });

  it('a restore at start-up waiting on the keychain while the renderer switches servers sends the refresh token only to its own server', async () => {
    const elsewhere = await startRecordingServer();
    try {
      const keychain = holdableKeychain();
      const before = await desktopMain({ keychain: keychain.store });
      expect((await before.invoke('session:signIn', DEMO_MEMBER)).ok).toBe(true);
      const issued = (await before.vault.load(`${server.apiBase}|null`))!;

      // The app starts again: main finds the session in the keychain.
      const main = await desktopMain({ keychain: keychain.store });
      keychain.holdNext('get');
      const restoring = main.invoke('session:restore');
      await vi.waitFor(() => expect(keychain.isHolding()).toBe(true));
      const switching = main.invoke('settings:set', { apiBase: elsewhere.apiBase });
      // Let the switch run as far as it goes before the keychain answers.
      await new Promise((resolve) => setImmediate(resolve));
      keychain.release();
      expect(await switching).toMatchObject({ ok: true, value: { apiBase: elsewhere.apiBase } });
      await restoring;

      expect(elsewhere.received).toEqual([]);
      // Changing the server signed out of the old one: main holds no token of it, and the server revoked the session.
      expect(await main.vault.load(`${server.apiBase}|null`)).toBeNull();
      expect(await refreshStatus(issued.refreshToken)).toBe(401);
      expect(await main.invoke('session:restore')).toEqual({ ok: true, value: null });
    } finally {
      await elsewhere.close();
    }
  });

  it('switching the server while signed in signs out of the old one first: its tokens are revoked and gone from main', async () => {
    const elsewhere = await startRecordingServer();
    try {
      const main = await signedIn();
      const issued = (await main.vault.load(`${server.apiBase}|null`))!;
      expect(await main.invoke('settings:set', { apiBase: elsewhere.apiBase })).toMatchObject({ ok: true });
      expect(await main.vault.load(`${server.apiBase}|null`)).toBeNull();
      expect(await refreshStatus(issued.refreshToken)).toBe(401);
      // Nothing of the old session follows the user to the new server, whatever the renderer asks for there.
      await main.invoke('http:fetch', { requestId: crypto.randomUUID(), url: `${elsewhere.apiBase}/chatbots/`, method: 'GET', headers: [], body: null });
      expect(elsewhere.received.map((request) => request.headers['x-access-token'])).toEqual([undefined]);
      expect(JSON.stringify(elsewhere.received)).not.toContain(issued.refreshToken);
    } finally {
      await elsewhere.close();
    }
  });
});

describe('SSO on desktop', () => {
  it('signs in through the system browser and a loopback redirect: the keychain gets the tokens, the renderer the member', async () => {
    // RFC 8252: a native client's loopback redirect may use any port; the provider lists it without one.
    const provider = await startOidcProvider(['http://127.0.0.1/sso/callback'], { native: true });
    try {
      const admin = (await (
        await fetch(`${server.apiBase}/auth/sign-in/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(DEMO_ADMIN) })
      ).json()) as { access_token: string };
      const created = await fetch(`${server.apiBase}/admin/sso-platforms/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-access-token': admin.access_token },
        body: JSON.stringify({
          sso_platform_name: 'Portal',
          settings: { kind: 'oidc', issuer: provider.issuer, client_id: OIDC_CLIENT.id, client_secret: OIDC_CLIENT.secret },
        }),
      });
      const platform = (await created.json()) as { id: number };
      const browserVisits: string[] = [];
      // The "system browser": signs in at the provider as the demo member's SSO identity, then follows its redirect to main's listener.
      const main = await desktopMain({
        openExternal: async (url) => {
          browserVisits.push(url);
          const back = await signInAtProvider(url, 'desktop-user');
          void fetch(back);
        },
      });
      const authorized = await main.invoke<{ code: string; code_verifier: string; state: string; iss?: string; redirect_url: string }>('sso:authorize', {
        sso_platform_id: platform.id,
      });
      expect(authorized.ok).toBe(true);
      if (!authorized.ok) return;
      expect(browserVisits).toHaveLength(1);
      expect(authorized.value.redirect_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/sso\/callback$/);

      // The renderer has the server verify the code (an identity, not a session) through the bridge...
      const verifyRequest = new Request(`${server.apiBase}/sso-platforms/${platform.id}/verify/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(authorized.value),
      });
      const verified = await main.invoke<{ status: number; body: Uint8Array }>('http:fetch', {
        requestId: crypto.randomUUID(),
        url: verifyRequest.url,
        method: 'POST',
        headers: [['content-type', 'application/json']],
        body: new Uint8Array(await verifyRequest.arrayBuffer()),
      });
      expect(verified.ok && verified.value.status).toBe(200);
      const identity = verified.ok ? (JSON.parse(new TextDecoder().decode(verified.value.body)) as { sso_access_token: string; registered: boolean }) : null;
      expect(identity?.registered).toBe(false);

      // ...but may not call the sign-in itself: that answer carries tokens.
      const direct = await main.invoke('http:fetch', {
        requestId: crypto.randomUUID(),
        url: `${server.apiBase}/auth/sso-sign-in/`,
        method: 'POST',
        headers: [['content-type', 'application/json']],
        body: new TextEncoder().encode(JSON.stringify({ code: identity!.sso_access_token, sso_platform_id: platform.id })),
      });
      expect(direct.ok).toBe(false);

      // Not registered yet: main's sign-in answers the spec's error, and nothing is stored.
      const refused = await main.invoke('session:ssoSignIn', { code: identity!.sso_access_token, sso_platform_id: platform.id });
      expect(refused).toMatchObject({ ok: false, error: { status: 404, body: { code: 'sso_account_not_found' } } });

      // Once the demo member connected this identity (My page), the same identity signs the app in.
      const member = (await (
        await fetch(`${server.apiBase}/auth/sign-in/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(DEMO_MEMBER) })
      ).json()) as {
        access_token: string;
        member: { id: number };
      };
      const connected = await fetch(`${server.apiBase}/members/${member.member.id}/sso-account/`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json', 'x-access-token': member.access_token },
        body: JSON.stringify({ sso_access_token: identity!.sso_access_token, sso_platform_id: platform.id }),
      });
      expect(connected.status).toBe(200);
      const signedIn = await main.invoke<{ email: string }>('session:ssoSignIn', { code: identity!.sso_access_token, sso_platform_id: platform.id });
      expect(signedIn).toMatchObject({ ok: true, value: { email: DEMO_MEMBER.email } });
      expect(JSON.stringify(signedIn)).not.toMatch(/access_token|refresh_token/);
      // The session is main's: an ordinary call through the bridge is signed in.
      expect((await main.get(`/members/${member.member.id}/`)).status).toBe(200);
      await fetch(`${server.apiBase}/members/${member.member.id}/sso-account/`, { method: 'DELETE', headers: { 'x-access-token': member.access_token } });
    } finally {
      await provider.close();
    }
  });
});
