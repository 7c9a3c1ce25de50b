/**
 * Issue 19, point 1: the first refresh after a restart on the embedded database. A fresh process
 * knows no tenant's signing key yet, and the refresh once read it on the outer database handle
 * while holding its transaction: PGlite has one connection, so the request never answered and
 * neither did any later one that touched the database, for any tenant. Real server processes on one
 * PGlite directory, stopped hard and started again, as an operator's restart does.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openPglite } from '../../src/server/db/client';
import { seedDemoTenant } from '../../src/server/db/seed';
import { API_PREFIX, REFRESH_COOKIE } from '../../src/shared/domain/http';
import { type BuiltServer, startServerProcess, stopBuiltServer, stopStartedServers } from '../fixtures/builtServer';
import { migratedPgliteDirectory } from '../fixtures/pgliteDirectory';
import { serverBundleArgs } from '../fixtures/serverBundle';
import { DEMO_ADMIN, DEMO_MEMBER } from '../fixtures/testServer';

const SECOND_TENANT = 'second';

let directory: string;
let server: BuiltServer | undefined;

beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'fault-restart-'));
});
afterEach(async () => {
  // Also a process whose start the test's timeout cut short.
  await stopStartedServers();
  server = undefined;
  rmSync(directory, { recursive: true, force: true });
});

const start = async () => {
  server = await startServerProcess(await serverBundleArgs(), {
    ...process.env,
    DATA_DIR: join(directory, 'pglite'),
    DATABASE_URL: '',
    FILES_DIR: join(directory, 'files'),
    SMS_OUTBOX_DIR: join(directory, 'sms-outbox'),
    WEB_DIST_DIR: join(directory, 'no-web'),
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: 'warn',
  });
  return server;
};

/** A request of the web client; a frozen server fails the test by its timeout, with the process's output. */
const request = (path: string, init: { method?: string; tenant?: string; cookie?: string; body?: unknown } = {}) =>
  fetch(`${server!.origin}${API_PREFIX}${path}`, {
    method: init.method ?? 'GET',
    headers: {
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(init.tenant ? { 'x-subdomain': init.tenant } : {}),
      ...(init.cookie ? { cookie: init.cookie } : {}),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
    signal: AbortSignal.timeout(20_000),
  }).catch((error: unknown) => {
    throw new Error(`${init.method ?? 'GET'} ${path} got no answer (${String(error)}); server output:\n${server!.output()}`);
  });

/** The refresh cookie the web client keeps from a sign-in. */
const refreshCookieOf = (response: Response) => {
  const cookie = response.headers.getSetCookie().find((line) => line.startsWith(`${REFRESH_COOKIE}=`));
  if (!cookie) throw new Error('no refresh cookie');
  return cookie.split(';')[0]!;
};

describe('a restart on the same embedded database', () => {
  it('answers the first refresh with a new session, and every tenant is still served', async () => {
    // A second tenant in the same directory, so that "every tenant" means more than the one refreshed.
    // From the migrated template: the restarts are the point, not a first migration.
    await migratedPgliteDirectory(join(directory, 'pglite'));
    const seeding = await openPglite(join(directory, 'pglite'));
    await seedDemoTenant(seeding.db, { subdomain: SECOND_TENANT, tenantName: 'Second workspace' });
    await seeding.close();

    await start();
    const signIn = await request('/auth/sign-in/', { method: 'POST', body: DEMO_ADMIN });
    expect(signIn.status).toBe(200);
    const cookie = refreshCookieOf(signIn);
    await stopBuiltServer(server!.child, 'SIGKILL');

    await start();
    const refreshed = await request('/auth/refresh/', { method: 'POST', cookie, body: {} });
    expect(refreshed.status).toBe(200);
    const { access_token: accessToken, member } = (await refreshed.json()) as { access_token: string; member: { id: number } };

    const me = await fetch(`${server!.origin}${API_PREFIX}/members/${member.id}/`, {
      headers: { 'x-access-token': accessToken },
      signal: AbortSignal.timeout(20_000),
    });
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ email: DEMO_ADMIN.email });
    const secondTenant = await request('/tenants/', { tenant: SECOND_TENANT });
    expect(secondTenant.status).toBe(200);
    expect(await secondTenant.json()).toMatchObject({ subdomain: SECOND_TENANT });
    const secondSignIn = await request('/auth/sign-in/', { method: 'POST', tenant: SECOND_TENANT, body: DEMO_MEMBER });
    expect(secondSignIn.status).toBe(200);
    // The rotated cookie works again in the same process (its key is now cached).
    expect((await request('/auth/refresh/', { method: 'POST', cookie: refreshCookieOf(refreshed), body: {} })).status).toBe(200);
  }, 60_000);
});
