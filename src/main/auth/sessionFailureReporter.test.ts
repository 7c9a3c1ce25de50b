import { describe, expect, it } from 'vitest';
import { createTokenVault } from '../keychain/tokenVault';
import { createAuthSession, type NetworkFetch } from './authSession';
import { createSessionFailureReporter } from './sessionFailureReporter';

const apiBase = 'http://api.test/api/v1';

/**
 * Desktop session calls run in main; on a network where each one fails, every failure must reach
 * log-error once, as on the web, and never with the password or the refresh token.
 */
async function sessionOnFailingNetwork(failure: 'status_500' | 'network') {
  const reports: Array<{ url: string; body: string }> = [];
  const fetch: NetworkFetch = async (url, init) => {
    if (url.endsWith('/log-error/')) {
      reports.push({ url, body: String(init.body) });
      return Response.json({ ok: true });
    }
    if (failure === 'network') throw new TypeError('fetch failed');
    return Response.json({ code: 'internal_error', message: 'boom' }, { status: 500 });
  };
  const vault = createTokenVault({ get: async () => null, set: async () => undefined, delete: async () => undefined }, () => undefined);
  await vault.save('service', { accessToken: 'ACCESS-SECRET', refreshToken: 'REFRESH-SECRET' });
  const settings = () => ({ apiBase, subdomain: null });
  const session = createAuthSession({
    fetch,
    settings,
    vault,
    serviceName: () => 'service',
    onEnded: () => undefined,
    onCallFailure: createSessionFailureReporter({ fetch, userAgent: 'desktop-test' }),
  });
  return { session, reports };
}

const sessionCalls = {
  'sign-in': (session: ReturnType<typeof createAuthSession>) => session.signIn({ email: 'ada@demo.test', password: 'secret-password' }).catch(() => undefined),
  refresh: (session: ReturnType<typeof createAuthSession>) => session.restore(),
  'sign-out': (session: ReturnType<typeof createAuthSession>) => session.signOut(),
};

describe('desktop session calls that fail are reported to log-error from main', () => {
  it.each([
    ['sign-in', 'status_500', '/auth/sign-in/', 500],
    ['refresh', 'status_500', '/auth/refresh/', 500],
    ['sign-out', 'status_500', '/auth/sign-out/', 500],
    ['sign-in', 'network', '/auth/sign-in/', 0],
    ['refresh', 'network', '/auth/refresh/', 0],
    ['sign-out', 'network', '/auth/sign-out/', 0],
  ] as const)('%s failing with %s: one report naming the call', async (call, failure, path, status) => {
    const { session, reports } = await sessionOnFailingNetwork(failure);

    await sessionCalls[call](session);

    await expect.poll(() => reports.length).toBe(1);
    expect(reports[0]!.url).toBe(`${apiBase}/log-error/`);
    const report = JSON.parse(reports[0]!.body) as { message: string; source: string };
    expect(report.message).toContain(`POST ${path} failed with ${status}`);
    expect(report.source).toBe('desktop-main');
    expect(reports[0]!.body).not.toContain('secret-password');
    expect(reports[0]!.body).not.toContain('REFRESH-SECRET');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(reports).toHaveLength(1);
  });
});
