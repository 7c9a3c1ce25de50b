import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../shared/api';
import { INVOKE_CHANNELS } from '../../shared/ipc/channels';
import { createSenderGuard, registerInvokeHandlers, type InvokeEvent, type InvokeHandlers } from './registerInvokeHandlers';

const APP = 'app://bundle';
const OWN_CONTENTS_ID = 7;

function setup() {
  const registered = new Map<string, (event: InvokeEvent, ...args: unknown[]) => unknown>();
  const handlers = Object.fromEntries(INVOKE_CHANNELS.map((channel) => [channel, vi.fn(async () => ({ ok: true }))])) as unknown as Record<
    keyof InvokeHandlers,
    ReturnType<typeof vi.fn>
  >;
  registerInvokeHandlers(
    { handle: (channel, listener) => registered.set(channel, listener) },
    handlers as unknown as InvokeHandlers,
    createSenderGuard({ trustedOrigins: [APP], isOwnWebContents: (id) => id === OWN_CONTENTS_ID }),
  );
  const invoke = (channel: string, event: InvokeEvent, ...args: unknown[]) => Promise.resolve(registered.get(channel)!(event, ...args));
  return { registered, handlers, invoke };
}

const ownPage = (url = `${APP}/chat`): InvokeEvent => ({ sender: { id: OWN_CONTENTS_ID, send: vi.fn() }, senderFrame: { url, parent: null } });

describe('IPC invoke handlers', () => {
  it('registers every channel of the contract and nothing else', () => {
    expect([...setup().registered.keys()].sort()).toEqual([...INVOKE_CHANNELS].sort());
  });

  it('runs the handler with the parsed argument for our own page', async () => {
    const { invoke, handlers } = setup();
    const result = await invoke('shell:openExternal', ownPage(), { url: 'https://example.org/docs' });
    expect(result).toEqual({ ok: true, value: { ok: true } });
    expect(handlers['shell:openExternal']).toHaveBeenCalledWith({ url: 'https://example.org/docs' }, expect.anything());
  });

  it.each([
    ['session:signIn', { email: 'a@b.c' }],
    ['session:signIn', { email: 'a@b.c', password: 42 }],
    ['chat:start', { requestId: 'not-a-uuid', chatbotId: 1, body: { text: 'hi' } }],
    ['chat:start', { requestId: crypto.randomUUID(), chatbotId: -1, body: { text: 'hi' } }],
    ['http:fetch', { requestId: crypto.randomUUID(), url: 'https://api/x', method: 'TRACE', headers: [], body: null }],
    ['http:fetch', { requestId: crypto.randomUUID(), url: 'https://api/x', method: 'POST', headers: [], body: 'text instead of bytes' }],
    ['http:fetch', { url: 'https://api/x', method: 'GET', headers: [], body: null }],
    ['http:cancel', { requestId: 'not-a-uuid' }],
    ['settings:set', { apiBase: 'file:///etc/passwd' }],
    ['settings:set', { apiBase: 'https://user:pw@host/api/v1' }],
    ['settings:set', { subdomain: 'Not A Label!' }],
    ['settings:set', { unknownKey: true }],
    ['shell:openExternal', { url: 'javascript:alert(1)' }],
    ['shell:openExternal', { url: 'file:///etc/passwd' }],
    ['session:restore', { unexpected: true }],
  ])('answers 400 and never runs the handler for malformed %s arguments', async (channel, args) => {
    const { invoke, handlers } = setup();
    const result = await invoke(channel, ownPage(), args);
    expect(result).toMatchObject({ ok: false, error: { status: 400, body: { code: 'bad_request' } } });
    expect(handlers[channel as keyof InvokeHandlers]).not.toHaveBeenCalled();
  });

  it('refuses extra positional arguments', async () => {
    const { invoke, handlers } = setup();
    const result = await invoke('session:restore', ownPage(), undefined, 'extra');
    expect(result).toMatchObject({ ok: false, error: { status: 400 } });
    expect(handlers['session:restore']).not.toHaveBeenCalled();
  });

  it.each([
    ['a remote page', { sender: { id: OWN_CONTENTS_ID, send: vi.fn() }, senderFrame: { url: 'https://evil.example/', parent: null } }],
    ['an iframe inside our page', { sender: { id: OWN_CONTENTS_ID, send: vi.fn() }, senderFrame: { url: `${APP}/`, parent: {} } }],
    ['another webContents', { sender: { id: 99, send: vi.fn() }, senderFrame: { url: `${APP}/`, parent: null } }],
    ['a file:// page', { sender: { id: OWN_CONTENTS_ID, send: vi.fn() }, senderFrame: { url: 'file:///tmp/x.html', parent: null } }],
    ['a destroyed frame', { sender: { id: OWN_CONTENTS_ID, send: vi.fn() }, senderFrame: null }],
  ])('rejects a call from %s without running the handler', async (_name, event) => {
    const { invoke, handlers } = setup();
    await expect(invoke('session:restore', event as InvokeEvent, undefined)).rejects.toThrow(/not this app's page/);
    expect(handlers['session:restore']).not.toHaveBeenCalled();
  });

  it('turns an ApiError into the same status and body the web transport gives', async () => {
    const { invoke, handlers } = setup();
    handlers['session:signIn'].mockRejectedValueOnce(new ApiError(401, { code: 'invalid_credentials', message: 'Wrong email or password' }));
    const result = await invoke('session:signIn', ownPage(), { email: 'a@b.c', password: 'nope' });
    expect(result).toEqual({ ok: false, error: { status: 401, body: { code: 'invalid_credentials', message: 'Wrong email or password' } } });
  });

  it('hides the details of an unexpected failure', async () => {
    const { invoke, handlers } = setup();
    // Put back afterwards: the next test file in this worker shares the console (vitest.config.ts).
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    handlers['settings:get'].mockRejectedValueOnce(new Error('ENOENT /home/user/secret/path'));
    const result = await invoke('settings:get', ownPage(), undefined).finally(() => quiet.mockRestore());
    expect(result).toMatchObject({ ok: false, error: { status: 500, body: { code: 'internal_error' } } });
    expect(JSON.stringify(result)).not.toContain('secret/path');
  });
});
