import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { getPlatform, setPlatformForTests } from '.';

/**
 * The web platform as the app builds it (getPlatform), on a network where every session call
 * fails: each failure must reach log-error once, like any other call, and never with the password.
 */
const logErrors: Request[] = [];

function serverFailingSessionCalls(failure: 'status_500' | 'network') {
  return vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    const path = new URL(request.url).pathname;
    if (path.endsWith('/log-error/')) {
      logErrors.push(request);
      return Response.json({ ok: true });
    }
    if (failure === 'network') throw new TypeError('Failed to fetch');
    return Response.json({ code: 'internal_error', message: 'boom' }, { status: 500 });
  });
}

beforeEach(() => {
  logErrors.length = 0;
  setPlatformForTests(null);
});
afterEach(() => {
  setPlatformForTests(null);
  vi.unstubAllGlobals();
});

const sessionCalls = {
  'sign-in': () =>
    getPlatform()
      .session.signIn({ email: 'ada@demo.test', password: 'secret-password' })
      .catch(() => undefined),
  refresh: () => getPlatform().session.restore(),
  'sign-out': () => getPlatform().session.signOut(),
};

describe('session calls that fail are reported to log-error', () => {
  it.each([
    ['sign-in', 'status_500', '/auth/sign-in/'],
    ['refresh', 'status_500', '/auth/refresh/'],
    ['sign-out', 'status_500', '/auth/sign-out/'],
    ['sign-in', 'network', '/auth/sign-in/'],
    ['refresh', 'network', '/auth/refresh/'],
    ['sign-out', 'network', '/auth/sign-out/'],
  ] as const)('%s failing with %s: one report naming the call', async (call, failure, path) => {
    vi.stubGlobal('fetch', serverFailingSessionCalls(failure));

    await sessionCalls[call]();

    await vi.waitFor(() => expect(logErrors).toHaveLength(1));
    const report = await logErrors[0]!.text();
    expect(JSON.parse(report).message).toContain(`POST ${path}`);
    expect(report).not.toContain('secret-password');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(logErrors).toHaveLength(1);
  });
});
