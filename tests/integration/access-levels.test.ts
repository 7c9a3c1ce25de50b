import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ssoPlatforms, tenants } from '../../src/server/db/schema';
import * as api from '../../src/shared/api';
import type { AccessLevel, Endpoint } from '../../src/shared/api/endpoint';
import { freePort, startConnectionRecorder } from '../fixtures/ports';
import { DEMO_ADMIN, DEMO_MEMBER, type TestServer, startTestServer } from '../fixtures/testServer';
import { apiClient } from './helpers/client';

/**
 * The endpoints anyone may call without a token (spec: tenant data, active and latest
 * announcements, sign-in; plus refresh and sign-out, which carry their own refresh token, and the
 * client error log, which must work before sign-in). Opening another endpoint to the world means
 * adding it here on purpose.
 */
const EXPECTED_PUBLIC = [
  'POST /auth/sign-in/',
  'POST /auth/refresh/',
  'POST /auth/sign-out/',
  // Forgot password: asking for the mail and setting the new password with its token (no session yet).
  'POST /auth/reset-password/',
  'POST /auth/reset-password/confirm/',
  'GET /tenants/',
  'GET /announcements/active/',
  'GET /announcements/latest/',
  'POST /log-error/',
  // Shared sessions and visitors' chats with public chatbots (spec §6, §7).
  'GET /public/sessions/:hash/',
  'GET /public/sessions/:hash/history/',
  'PATCH /public/sessions/:hash/generate-title/',
  'POST /public/chatbots/:id/chat/',
  'GET /public/chatbots/:hash/',
  // A public chatbot's documents and any chatbot's profile picture (docs/decisions/0043-chat-files.md).
  'GET /public/chatbots/:hash/files/:id/',
  // The files of a shared session, to whoever has its link (docs/decisions/0014-shared-session-files.md).
  'GET /public/sessions/:hash/files/:id/',
  // Sign-up happens before anyone is signed in (spec §6): its settings, groups, fields, policies,
  // the member limit, the verification code and the sign-up itself (docs/decisions/0040-sign-up.md).
  'GET /tenants/sign-up-settings/',
  'GET /tenants/member-count-check/',
  'GET /member-groups/',
  'GET /custom-fields/',
  'GET /policies/',
  'GET /policies/:id/file/',
  'POST /auth/code/',
  'POST /auth/sign-up/',
  // SSO before anyone is signed in: the platforms, the OpenID Connect redirect, the directory's two
  // steps and its code, and signing in or up with the verified identity (docs/decisions/0042-sso.md).
  'GET /sso-platforms/',
  'POST /sso-platforms/:id/authorize/',
  'POST /sso-platforms/:id/verify/',
  'POST /sso-platforms/:id/send-code/',
  'POST /auth/sso-sign-in/',
  'POST /auth/sso-sign-up/',
  // The invitee has no account yet: the accept page (docs/decisions/0041-invitations.md).
  'GET /invitations/:hash/verify/',
  'POST /invitations/:hash/accept/',
  // The tenant's uploaded logo: the sign-in page shows it before anyone is signed in (docs/decisions/0045-tenant-settings.md).
  'GET /tenants/logo/:id/',
].sort();

type Operation = { method: string; path: string; access: AccessLevel };

/** Every endpoint of the shared contract, found by walking the api index (nothing listed by hand). */
function contractEndpoints(): Operation[] {
  const found: Operation[] = [];
  for (const exported of Object.values(api)) {
    if (!exported || typeof exported !== 'object') continue;
    for (const candidate of Object.values(exported as Record<string, unknown>)) {
      const endpoint = candidate as Partial<Endpoint>;
      if (endpoint && typeof endpoint === 'object' && typeof endpoint.method === 'string' && typeof endpoint.path === 'string' && 'response' in endpoint) {
        found.push({ method: endpoint.method, path: endpoint.path, access: endpoint.access as AccessLevel });
      }
    }
  }
  return found;
}

const key = (operation: { method: string; path: string }) => `${operation.method} ${operation.path}`;
/** Any value fills a path parameter: the guard answers before the handler looks anything up. */
const concretePath = (path: string) => path.replace(/:([A-Za-z_]+)/g, (_, name: string) => (name === 'hash' ? 'abcdef123456' : '1'));

let server: TestServer;
let client: ReturnType<typeof apiClient>;
let memberToken: string;
let adminToken: string;
const endpoints = contractEndpoints();

beforeAll(async () => {
  // As in production: no internal address is allowed for tenants' SSO platforms.
  server = await startTestServer({ extraTenants: ['acme'], config: { OUTBOUND_ALLOW: [] } });
  client = apiClient(server);
  memberToken = (await client.signIn(DEMO_MEMBER)).access_token;
  adminToken = (await client.signIn(DEMO_ADMIN)).access_token;
});
afterAll(() => server?.close());

describe('access levels', () => {
  it('every endpoint states a level, and the public ones are exactly the expected set', () => {
    expect(endpoints.length).toBeGreaterThan(20);
    for (const endpoint of endpoints) expect(['public', 'member', 'admin', 'apiKey'], key(endpoint)).toContain(endpoint.access);
    expect(
      endpoints
        .filter((e) => e.access === 'public')
        .map(key)
        .sort(),
    ).toEqual(EXPECTED_PUBLIC);
    // Admin screens live under /admin/ and nothing else there is open to members.
    for (const endpoint of endpoints) expect(endpoint.access === 'admin', key(endpoint)).toBe(endpoint.path.startsWith('/admin/'));
    // API keys open the OpenAI-compatible API and nothing else.
    expect(
      endpoints
        .filter((e) => e.access === 'apiKey')
        .map(key)
        .sort(),
    ).toEqual(['GET /openai/models', 'POST /openai/chat/completions']);
  });

  it('the OpenAPI document lists exactly the contract, each operation with its level and security requirement', async () => {
    const document = (await client.call('/openapi.json')).body as {
      paths: Record<string, Record<string, { 'x-access'?: string; security?: unknown[] }>>;
    };
    const documented = new Map<string, { 'x-access'?: string; security?: unknown[] }>();
    for (const [path, methods] of Object.entries(document.paths)) {
      const contractPath = path.replace(/^\/api\/v1/, '').replace(/\{([A-Za-z_]+)\}/g, ':$1');
      for (const [method, operation] of Object.entries(methods)) documented.set(`${method.toUpperCase()} ${contractPath}`, operation);
    }
    expect([...documented.keys()].sort()).toEqual(endpoints.map(key).sort());
    for (const endpoint of endpoints) {
      const operation = documented.get(key(endpoint))!;
      expect(operation['x-access'], key(endpoint)).toBe(endpoint.access);
      const security = endpoint.access === 'public' ? [] : endpoint.access === 'apiKey' ? [{ apiKey: [] }] : [{ accessToken: [] }];
      expect(operation.security, key(endpoint)).toEqual(security);
    }
    expect((document as unknown as { components: { securitySchemes: Record<string, unknown> } }).components.securitySchemes.apiKey).toMatchObject({
      type: 'http',
      scheme: 'bearer',
    });
  });

  it('answers a signed-out caller of the public file paths 404 for what is not shared, never 401 (a browser’s <img> has no token)', async () => {
    for (const path of ['/public/chatbots/:hash/files/:id/', '/public/sessions/:hash/files/:id/']) {
      const endpoint = endpoints.find((e) => e.path === path)!;
      expect(endpoint.access, path).toBe('public');
      for (const headers of [{}, { 'x-access-token': 'public' }] as Record<string, string>[]) {
        expect((await client.call(concretePath(path), { headers })).status, path).toBe(404);
      }
    }
  });

  it('refuses every member and admin endpoint without a token (401)', async () => {
    const answered: string[] = [];
    for (const endpoint of endpoints.filter((e) => e.access !== 'public')) {
      const result = await client.call(concretePath(endpoint.path), { method: endpoint.method });
      answered.push(`${key(endpoint)} → ${result.status}`);
    }
    expect(answered).toEqual(endpoints.filter((e) => e.access !== 'public').map((e) => `${key(e)} → 401`));
  });

  it('refuses a token signed in another tenant on every member and admin endpoint (401, nothing leaks)', async () => {
    const answered: string[] = [];
    for (const endpoint of endpoints.filter((e) => e.access !== 'public')) {
      const result = await client.call(concretePath(endpoint.path), { method: endpoint.method, token: adminToken, tenant: 'acme' });
      answered.push(`${key(endpoint)} → ${result.status}`);
      expect(JSON.stringify(result.body), key(endpoint)).not.toMatch(/"items"|"email"/);
    }
    expect(answered).toEqual(endpoints.filter((e) => e.access !== 'public').map((e) => `${key(e)} → 401`));
  });

  it('refuses the access token of a signed-out session on every member and admin endpoint (401 session_expired), at once (issue 20)', async () => {
    const session = await client.signIn(DEMO_ADMIN);
    expect(
      (await client.call('/auth/sign-out/', { method: 'POST', body: { refresh_token: session.refresh_token }, headers: { 'x-client-kind': 'desktop' } }))
        .status,
    ).toBe(200);
    const answered: string[] = [];
    for (const endpoint of endpoints.filter((e) => e.access === 'member' || e.access === 'admin')) {
      const result = await client.call(concretePath(endpoint.path), { method: endpoint.method, token: session.access_token });
      answered.push(`${key(endpoint)} → ${result.status} ${result.body?.code}`);
    }
    expect(answered).toEqual(endpoints.filter((e) => e.access === 'member' || e.access === 'admin').map((e) => `${key(e)} → 401 session_expired`));
    // The other sessions of the same admin are untouched.
    expect((await client.call('/admin/tenant-settings/', { token: adminToken })).status).toBe(200);
  });

  it('apiKey endpoints take no access token (as header or bearer), and an API key opens no member endpoint', async () => {
    const chatbots = (await client.call('/chatbots/?include_default=true', { token: memberToken })).body.items as { id: number }[];
    const created = await client.call('/apikeys/', { method: 'POST', token: memberToken, body: { name: 'probe', chatbot_ids: [chatbots[0]!.id] } });
    const apiKey = created.body.key as string;
    for (const endpoint of endpoints.filter((e) => e.access === 'apiKey')) {
      const withToken = await client.call(concretePath(endpoint.path), { method: endpoint.method, token: adminToken });
      const asBearer = await client.call(concretePath(endpoint.path), { method: endpoint.method, headers: { authorization: `Bearer ${adminToken}` } });
      expect([withToken.status, asBearer.status], key(endpoint)).toEqual([401, 401]);
    }
    for (const endpoint of endpoints.filter((e) => e.access === 'member' || e.access === 'admin')) {
      const result = await client.call(concretePath(endpoint.path), { method: endpoint.method, headers: { authorization: `Bearer ${apiKey}` } });
      expect(`${key(endpoint)} → ${result.status}`).toBe(`${key(endpoint)} → 401`);
    }
    expect((await client.call('/openai/models', { headers: { authorization: `Bearer ${apiKey}` } })).status).toBe(200);
  });

  it('refuses a member’s token on every admin endpoint (403) but lets an admin through the guard', async () => {
    const adminEndpoints = endpoints.filter((e) => e.access === 'admin');
    expect(adminEndpoints.length).toBeGreaterThan(0);
    for (const endpoint of adminEndpoints) {
      const asMember = await client.call(concretePath(endpoint.path), { method: endpoint.method, token: memberToken });
      expect(`${key(endpoint)} → ${asMember.status}`).toBe(`${key(endpoint)} → 403`);
      const asAdmin = await client.call(concretePath(endpoint.path), {
        method: endpoint.method,
        token: adminToken,
        body: endpoint.method === 'GET' || endpoint.method === 'DELETE' ? undefined : {},
      });
      expect([401, 403], key(endpoint)).not.toContain(asAdmin.status);
    }
  });
});

describe('what an anonymous caller can make the server connect to', () => {
  it('the public SSO steps never reach an internal address: the same 424 whether the port is open, closed or filtered, and no connection', async () => {
    const recorder = await startConnectionRecorder();
    try {
      const closed = await freePort();
      const [demo] = await server.db.select().from(tenants).where(eq(tenants.subdomain, server.config.DEFAULT_TENANT));
      // Platforms saved under an earlier allowance, or whose name resolves inside since it was saved:
      // the connection is checked when it is made, whatever the saved address looked like then.
      const destinations = [
        ['open', '127.0.0.1', recorder.port],
        ['open, by name', 'localhost', recorder.port],
        ['open, decimal', '2130706433', recorder.port],
        ['closed', '127.0.0.1', closed],
        ['filtered-looking (cloud metadata)', '169.254.169.254', 80],
        ['filtered-looking (private)', '10.255.255.1', 389],
      ] as const;
      const rows = await server.db
        .insert(ssoPlatforms)
        .values(
          destinations.flatMap(([name, host, port]) => [
            {
              tenantId: demo!.id,
              ssoPlatformName: `OIDC ${name}`,
              config: { kind: 'oidc' as const, issuer: `http://${host}:${port}/internal?secret=1`, client_id: 'x', client_secret: 'y' },
            },
            {
              tenantId: demo!.id,
              ssoPlatformName: `Directory ${name}`,
              config: {
                kind: 'directory' as const,
                url: `ldap://${host}:${port}`,
                bind_dn: 'cn=admin,dc=corp',
                bind_password: 'bind-secret',
                search_base: 'dc=corp',
                user_id_attribute: 'uid',
                email_attribute: 'mail',
                name_attribute: 'cn',
                phone_attribute: '',
              },
            },
          ]),
        )
        .returning({ id: ssoPlatforms.id, config: ssoPlatforms.config });
      const answers = new Set<string>();
      for (const row of rows) {
        const result =
          row.config.kind === 'oidc'
            ? await client.call(`/sso-platforms/${row.id}/authorize/`, {
                method: 'POST',
                body: { redirect_url: 'http://127.0.0.1:9/cb', code_challenge: 'c'.repeat(43), state: 's'.repeat(16) },
              })
            : await client.call(`/sso-platforms/${row.id}/verify/`, { method: 'POST', body: { user_id: 'grace', user_pw: 'Directory!1', method: 'email' } });
        expect(result.status, JSON.stringify(row.config)).toBe(424);
        answers.add(JSON.stringify(result.body));
      }
      // One generic answer for every destination and port state: nothing tells an open port from a closed one.
      expect([...answers]).toEqual([
        JSON.stringify({ code: 'sso_unavailable', message: 'The SSO sign-in service cannot be reached. Please try again later.' }),
      ]);
      expect(recorder.connections()).toBe(0);
      for (const row of rows) await server.db.delete(ssoPlatforms).where(eq(ssoPlatforms.id, row.id));
    } finally {
      await recorder.close();
    }
  });
});
