import { createHash, randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { members, ssoPlatforms, ssoWhitelist, tenants, verificationCodes } from '../../src/server/db/schema';
import { type FakeSmsProvider, startFakeSmsProvider } from '../fixtures/fakeSmsProvider';
import { OIDC_CLIENT, type OidcProviderFixture, signInAtProvider, startOidcProvider } from '../fixtures/oidcProvider';
import { DIRECTORY_ADMIN, DIRECTORY_BASE, hasSlapd, type Slapd, startSlapd } from '../fixtures/slapd';
import { type SmtpSink, startSmtpSink } from '../fixtures/smtpSink';
import { DEMO_ADMIN, DEMO_MEMBER, type TestServer, startTestServer } from '../fixtures/testServer';
import { apiClient } from './helpers/client';

const REDIRECT = 'http://127.0.0.1:9/auth/sso/callback';

let server: TestServer;
let sink: SmtpSink;
let sms: FakeSmsProvider;
let oidc: OidcProviderFixture;
let directory: Slapd | undefined;
let api: ReturnType<typeof apiClient>;
let oidcId: number;
let directoryId: number;

const desktop = { 'x-client-kind': 'desktop' };

beforeAll(async () => {
  sink = await startSmtpSink();
  sms = await startFakeSmsProvider();
  oidc = await startOidcProvider([REDIRECT]);
  if (hasSlapd) {
    directory = await startSlapd([
      { uid: 'grace', password: 'Directory!1', name: 'Grace Hopper', email: 'grace@example.test', phone: '+821055501234' },
      { uid: 'alan', password: 'Directory!2', name: 'Alan Turing', email: 'alan@example.test' },
      { uid: 'ada', password: 'Directory!3', name: 'Ada Lovelace', email: 'ada@example.test', phone: '+821055505678' },
    ]);
  }
  server = await startTestServer({
    extraTenants: ['ssoonly'],
    config: {
      SMTP_URL: sink.url,
      SIGN_UP_RATE_LIMIT: 10_000,
      TWILIO_ACCOUNT_SID: sms.accountSid,
      TWILIO_AUTH_TOKEN: sms.authToken,
      TWILIO_FROM: '+15005550006',
      TWILIO_API_BASE: sms.url,
    },
  });
  api = apiClient(server);
  const admin = (await api.signIn(DEMO_ADMIN)).access_token;
  const created = await api.call('/admin/sso-platforms/', {
    method: 'POST',
    token: admin,
    body: {
      sso_platform_name: 'Company portal',
      settings: { kind: 'oidc', issuer: oidc.issuer, client_id: OIDC_CLIENT.id, client_secret: OIDC_CLIENT.secret },
    },
  });
  expect(created.status).toBe(200);
  oidcId = created.body.id;
  const dir = await api.call('/admin/sso-platforms/', {
    method: 'POST',
    token: admin,
    body: {
      sso_platform_name: 'Staff directory',
      settings: {
        kind: 'directory',
        url: directory?.url ?? 'ldap://127.0.0.1:9',
        bind_dn: DIRECTORY_ADMIN.dn,
        bind_password: DIRECTORY_ADMIN.password,
        search_base: DIRECTORY_BASE,
        user_id_attribute: 'uid',
        email_attribute: 'mail',
        name_attribute: 'cn',
        phone_attribute: 'mobile',
      },
    },
  });
  directoryId = dir.body.id;
});

afterAll(async () => {
  await server?.close();
  await sink?.close();
  await sms?.close();
  await oidc?.close();
  await directory?.close();
});

/** The client's half of PKCE: a verifier and state it keeps, and the challenge it sends. */
function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url'), state: randomBytes(16).toString('base64url') };
}

/** The whole OpenID Connect round trip: authorize, sign in at the provider as `login`, verify the code. */
async function oidcIdentity(login: string) {
  const { verifier, challenge, state } = pkce();
  const authorized = await api.call(`/sso-platforms/${oidcId}/authorize/`, {
    method: 'POST',
    body: { redirect_url: REDIRECT, code_challenge: challenge, state },
  });
  expect(authorized.status).toBe(200);
  const back = await signInAtProvider(authorized.body.authorization_url, login);
  expect(back.origin + back.pathname).toBe(REDIRECT);
  return api.call(`/sso-platforms/${oidcId}/verify/`, {
    method: 'POST',
    body: {
      code: back.searchParams.get('code'),
      code_verifier: verifier,
      state: back.searchParams.get('state'),
      iss: back.searchParams.get('iss') ?? undefined,
      redirect_url: REDIRECT,
    },
  });
}

async function signUpBody(token: string, platformId: number) {
  const groups = await api.call('/member-groups/');
  const fields = await api.call('/custom-fields/');
  const policies = await api.call('/policies/');
  const department = fields.body.items.find((f: { field_name: string }) => f.field_name === 'Department').id;
  return {
    sso_access_token: token,
    sso_platform_id: platformId,
    name: 'Ignored unless changed',
    language: 'en',
    custom_fields: [{ custom_field_id: department, value: 'Research' }],
    default_member_group_id: groups.body.items.find((g: { is_default: boolean }) => g.is_default).id,
    agreements: policies.body.items.filter((p: { is_mandatory: boolean }) => p.is_mandatory).map((p: { id: number }) => p.id),
  };
}

describe('GET /sso-platforms/', () => {
  it('lists the platforms with their kind and code methods, never their settings', async () => {
    const listed = await api.call('/sso-platforms/');
    expect(listed.body.items).toEqual([
      { id: oidcId, sso_platform_name: 'Company portal', kind: 'oidc', verification_methods: ['email'] },
      { id: directoryId, sso_platform_name: 'Staff directory', kind: 'directory', verification_methods: ['email', 'sms'] },
    ]);
    expect(JSON.stringify(listed.body)).not.toContain(OIDC_CLIENT.secret);
    // Another tenant has none: the page says no SSO platforms are available.
    expect((await api.call('/sso-platforms/', { tenant: 'ssoonly' })).body).toEqual({ items: [], sso_only: false });
  });

  it('masks the secrets in the admin answers and keeps them when an update leaves them empty', async () => {
    const admin = (await api.signIn(DEMO_ADMIN)).access_token;
    const listed = await api.call('/admin/sso-platforms/', { token: admin });
    expect(listed.body.items[0]).toMatchObject({ has_secret: true, settings: { kind: 'oidc', client_secret: '' } });
    expect(JSON.stringify(listed.body)).not.toContain(DIRECTORY_ADMIN.password);
    const renamed = await api.call(`/admin/sso-platforms/${oidcId}/`, {
      method: 'PUT',
      token: admin,
      body: { sso_platform_name: 'Company portal', settings: { kind: 'oidc', issuer: oidc.issuer, client_id: OIDC_CLIENT.id, client_secret: '' } },
    });
    expect(renamed.body.has_secret).toBe(true);
    const [row] = await server.db.select().from(ssoPlatforms).where(eq(ssoPlatforms.id, oidcId));
    expect(row!.config).toMatchObject({ client_secret: OIDC_CLIENT.secret });
    // Plain http only for a provider on loopback; members cannot manage platforms.
    const insecure = await api.call('/admin/sso-platforms/', {
      method: 'POST',
      token: admin,
      body: { sso_platform_name: 'Bad', settings: { kind: 'oidc', issuer: 'http://idp.example.test', client_id: 'x', client_secret: 'y' } },
    });
    expect([insecure.status, insecure.body.code]).toEqual([422, 'validation_error']);
    const member = (await api.signIn(DEMO_MEMBER)).access_token;
    expect((await api.call('/admin/sso-platforms/', { token: member })).status).toBe(403);
  });
});

describe('OpenID Connect', () => {
  it('signs up a new identity through the provider, then signs in with one click', async () => {
    const verified = await oidcIdentity('katherine');
    expect(verified.status).toBe(200);
    expect(verified.body).toMatchObject({ step: 'verified', email: 'katherine@example.test', name: 'Katherine', registered: false });

    const notYet = await api.call('/auth/sso-sign-in/', { method: 'POST', body: { code: verified.body.sso_access_token, sso_platform_id: oidcId } });
    expect([notYet.status, notYet.body.code, notYet.body.details]).toEqual([
      404,
      'sso_account_not_found',
      { email: 'katherine@example.test', name: 'Katherine' },
    ]);

    const signedUp = await api.call('/auth/sso-sign-up/', {
      method: 'POST',
      body: { ...(await signUpBody(verified.body.sso_access_token, oidcId)), name: 'Katherine Johnson' },
    });
    expect(signedUp.body).toMatchObject({ outcome: 'pending' });
    const [row] = await server.db.select().from(members).where(eq(members.email, 'katherine@example.test'));
    expect(row).toMatchObject({ name: 'Katherine Johnson', passwordHash: null, ssoPlatformId: oidcId, ssoId: 'katherine', status: 'pending' });
    // Pending like any sign-up: 403 until an administrator approves.
    const pending = await api.call('/auth/sso-sign-in/', { method: 'POST', body: { code: verified.body.sso_access_token, sso_platform_id: oidcId } });
    expect([pending.status, pending.body.code]).toEqual([403, 'not_approved']);
    await server.db.update(members).set({ status: 'approved' }).where(eq(members.id, row!.id));

    const again = await oidcIdentity('katherine');
    expect(again.body.registered).toBe(true);
    const signedIn = await api.call('/auth/sso-sign-in/', {
      method: 'POST',
      headers: desktop,
      body: { code: again.body.sso_access_token, sso_platform_id: oidcId },
    });
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.member).toMatchObject({ email: 'katherine@example.test', sso_platform_id: oidcId, has_password: false });
    expect(signedIn.body.refresh_token).toEqual(expect.any(String));
    // The web client gets the refresh token as the HttpOnly cookie, never in the body.
    const web = await api.call('/auth/sso-sign-in/', { method: 'POST', body: { code: again.body.sso_access_token, sso_platform_id: oidcId } });
    expect(web.body.refresh_token).toBeUndefined();
    expect(web.headers.get('set-cookie')).toMatch(/HttpOnly/i);
  });

  it('refuses a code replayed, a wrong verifier, and a token of another platform', async () => {
    const { verifier, challenge, state } = pkce();
    const authorized = await api.call(`/sso-platforms/${oidcId}/authorize/`, {
      method: 'POST',
      body: { redirect_url: REDIRECT, code_challenge: challenge, state },
    });
    const back = await signInAtProvider(authorized.body.authorization_url, 'mallory');
    const callback = { code: back.searchParams.get('code'), state, iss: back.searchParams.get('iss') ?? undefined, redirect_url: REDIRECT };
    const wrongVerifier = await api.call(`/sso-platforms/${oidcId}/verify/`, { method: 'POST', body: { ...callback, code_verifier: pkce().verifier } });
    expect([wrongVerifier.status, wrongVerifier.body.code]).toEqual([401, 'sso_rejected']);
    const right = await api.call(`/sso-platforms/${oidcId}/verify/`, { method: 'POST', body: { ...callback, code_verifier: verifier } });
    expect(right.body).toMatchObject({ step: 'verified', email: 'mallory@example.test' });
    // A code is good once at the provider.
    const replayed = await api.call(`/sso-platforms/${oidcId}/verify/`, { method: 'POST', body: { ...callback, code_verifier: verifier } });
    expect([replayed.status, replayed.body.code]).toEqual([401, 'sso_rejected']);

    const verified = await oidcIdentity('mallory');
    const elsewhere = await api.call('/auth/sso-sign-in/', { method: 'POST', body: { code: verified.body.sso_access_token, sso_platform_id: directoryId } });
    expect([elsewhere.status, elsewhere.body.code]).toEqual([401, 'sso_identity_expired']);
    const forged = await api.call('/auth/sso-sign-in/', { method: 'POST', body: { code: `${verified.body.sso_access_token}x`, sso_platform_id: oidcId } });
    expect([forged.status, forged.body.code]).toEqual([401, 'sso_identity_expired']);
    // An identity is not an access token.
    expect((await api.call('/members/1/', { token: verified.body.sso_access_token })).status).toBe(401);
  });

  it('answers 424 when the provider cannot be reached', async () => {
    const admin = (await api.signIn(DEMO_ADMIN)).access_token;
    const down = await api.call('/admin/sso-platforms/', {
      method: 'POST',
      token: admin,
      body: { sso_platform_name: 'Down', settings: { kind: 'oidc', issuer: 'http://127.0.0.1:9', client_id: 'x', client_secret: 'y' } },
    });
    const { challenge, state } = pkce();
    const result = await api.call(`/sso-platforms/${down.body.id}/authorize/`, {
      method: 'POST',
      body: { redirect_url: REDIRECT, code_challenge: challenge, state },
    });
    expect([result.status, result.body.code]).toEqual([424, 'sso_unavailable']);
    await api.call(`/admin/sso-platforms/${down.body.id}/`, { method: 'DELETE', token: admin });
  });
});

describe.skipIf(!hasSlapd)('directory credentials (slapd)', () => {
  const codeOf = (to: string) => {
    const mail = sink.received.filter((m) => m.envelopeTo.includes(to)).at(-1);
    return mail?.parsed.text?.match(/\b\d{6}\b/)?.[0] ?? '';
  };

  it('checks the password against the directory, mails a code, and vouches for the user after it', async () => {
    const wrong = await api.call(`/sso-platforms/${directoryId}/verify/`, { method: 'POST', body: { user_id: 'grace', user_pw: 'nope', method: 'email' } });
    expect([wrong.status, wrong.body.code]).toEqual([401, 'sso_rejected']);
    const unknown = await api.call(`/sso-platforms/${directoryId}/verify/`, {
      method: 'POST',
      body: { user_id: 'nobody', user_pw: 'Directory!1', method: 'email' },
    });
    expect([unknown.status, unknown.body.code]).toEqual([401, 'sso_rejected']);

    const first = await api.call(`/sso-platforms/${directoryId}/verify/`, {
      method: 'POST',
      body: { user_id: 'grace', user_pw: 'Directory!1', method: 'email' },
    });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ step: 'code_sent', method: 'email', destination: 'g***@example.test' });
    const code = codeOf('grace@example.test');
    expect(code).toMatch(/^\d{6}$/);

    const bad = await api.call(`/sso-platforms/${directoryId}/verify/`, {
      method: 'POST',
      body: { code: code === '000000' ? '111111' : '000000', verification_id: first.body.verification_id, auth_token: first.body.auth_token },
    });
    expect([bad.status, bad.body.code]).toEqual([401, 'invalid_code']);
    const second = await api.call(`/sso-platforms/${directoryId}/verify/`, {
      method: 'POST',
      body: { code, verification_id: first.body.verification_id, auth_token: first.body.auth_token },
    });
    expect(second.body).toMatchObject({ step: 'verified', email: 'grace@example.test', name: 'Grace Hopper', registered: false });
    // A code is good once.
    const reused = await api.call(`/sso-platforms/${directoryId}/verify/`, {
      method: 'POST',
      body: { code, verification_id: first.body.verification_id, auth_token: first.body.auth_token },
    });
    expect([reused.status, reused.body.code]).toEqual([401, 'code_expired']);

    const signedUp = await api.call('/auth/sso-sign-up/', {
      method: 'POST',
      body: { ...(await signUpBody(second.body.sso_access_token, directoryId)), name: 'Grace Hopper' },
    });
    expect(signedUp.body.outcome).toBe('pending');
  });

  it('texts the code to the directory phone, and resends only after the cooldown', async () => {
    const first = await api.call(`/sso-platforms/${directoryId}/verify/`, {
      method: 'POST',
      body: { user_id: 'ada', user_pw: 'Directory!3', method: 'sms', language: 'ko' },
    });
    expect(first.body).toMatchObject({ step: 'code_sent', method: 'sms', destination: '+82******5678' });
    expect(sms.received.at(-1)).toMatchObject({ to: '+821055505678' });
    const resend = await api.call(`/sso-platforms/${directoryId}/send-code/`, {
      method: 'POST',
      body: { method: 'email', user_id: 'ada', verification_id: first.body.verification_id, auth_token: first.body.auth_token },
    });
    expect([resend.status, resend.body.code]).toEqual([429, 'code_cooldown']);
    // After the cooldown the code comes again, the other way if asked.
    await server.db
      .update(verificationCodes)
      .set({ createdAt: new Date(Date.now() - 120_000) })
      .where(eq(verificationCodes.email, 'ada@example.test'));
    const resent = await api.call(`/sso-platforms/${directoryId}/send-code/`, {
      method: 'POST',
      body: { method: 'email', user_id: 'ada', verification_id: first.body.verification_id, auth_token: first.body.auth_token },
    });
    expect(resent.body).toMatchObject({ step: 'code_sent', method: 'email', destination: 'a***@example.test' });
    // The first code was voided by the new one.
    const old = await api.call(`/sso-platforms/${directoryId}/verify/`, {
      method: 'POST',
      body: { code: '123456', verification_id: first.body.verification_id, auth_token: first.body.auth_token },
    });
    expect([old.status, old.body.code]).toEqual([401, 'code_expired']);
    // The token binds the user: another user ID cannot ride on it.
    const other = await api.call(`/sso-platforms/${directoryId}/send-code/`, {
      method: 'POST',
      body: { method: 'email', user_id: 'alan', verification_id: first.body.verification_id, auth_token: first.body.auth_token },
    });
    expect([other.status, other.body.code]).toEqual([401, 'sso_identity_expired']);
    // Alan's entry holds no phone: SMS is refused for him.
    const noPhone = await api.call(`/sso-platforms/${directoryId}/verify/`, {
      method: 'POST',
      body: { user_id: 'alan', user_pw: 'Directory!2', method: 'sms' },
    });
    expect([noPhone.status, noPhone.body.code]).toEqual([422, 'invalid_phone']);
  });

  it('connects an existing account to a directory identity and disconnects it', async () => {
    const member = await api.signIn(DEMO_MEMBER);
    const first = await api.call(`/sso-platforms/${directoryId}/verify/`, {
      method: 'POST',
      body: { user_id: 'alan', user_pw: 'Directory!2', method: 'email' },
    });
    const second = await api.call(`/sso-platforms/${directoryId}/verify/`, {
      method: 'POST',
      body: { code: codeOf('alan@example.test'), verification_id: first.body.verification_id, auth_token: first.body.auth_token },
    });
    const connected = await api.call(`/members/${member.member.id}/sso-account/`, {
      method: 'PUT',
      token: member.access_token,
      body: { sso_access_token: second.body.sso_access_token, sso_platform_id: directoryId },
    });
    expect(connected.body).toMatchObject({ sso_platform_id: directoryId, has_password: true });
    // One click from now on: the identity signs in to the demo member.
    const signedIn = await api.call('/auth/sso-sign-in/', { method: 'POST', body: { code: second.body.sso_access_token, sso_platform_id: directoryId } });
    expect(signedIn.body.member.email).toBe(DEMO_MEMBER.email);
    // Someone else cannot take it, and nobody connects for another member.
    const admin = await api.signIn(DEMO_ADMIN);
    const taken = await api.call(`/members/${admin.member.id}/sso-account/`, {
      method: 'PUT',
      token: admin.access_token,
      body: { sso_access_token: second.body.sso_access_token, sso_platform_id: directoryId },
    });
    expect([taken.status, taken.body.code]).toEqual([409, 'sso_account_in_use']);
    expect((await api.call(`/members/${member.member.id}/sso-account/`, { method: 'DELETE', token: admin.access_token })).status).toBe(403);

    const disconnected = await api.call(`/members/${member.member.id}/sso-account/`, { method: 'DELETE', token: member.access_token });
    expect(disconnected.body.sso_platform_id).toBeNull();
    const gone = await api.call('/auth/sso-sign-in/', { method: 'POST', body: { code: second.body.sso_access_token, sso_platform_id: directoryId } });
    expect(gone.body.code).toBe('sso_account_not_found');
  });
});

describe('tenant rules', () => {
  it('whitelist mode: only listed emails may use SSO (403 not eligible)', async () => {
    const [demo] = await server.db.select().from(tenants).where(eq(tenants.subdomain, server.config.DEFAULT_TENANT));
    await server.db.update(tenants).set({ ssoWhitelistOnly: true }).where(eq(tenants.id, demo!.id));
    try {
      const outsider = await oidcIdentity('eve');
      expect([outsider.status, outsider.body.code]).toEqual([403, 'not_eligible']);
      await server.db.insert(ssoWhitelist).values({ tenantId: demo!.id, email: 'eve@example.test' });
      const listed = await oidcIdentity('eve');
      expect(listed.body).toMatchObject({ step: 'verified', email: 'eve@example.test' });
    } finally {
      await server.db.update(tenants).set({ ssoWhitelistOnly: false }).where(eq(tenants.id, demo!.id));
    }
  });

  it('an SSO-only tenant refuses password sign-in to members (not to administrators) and normal sign-up', async () => {
    const [demo] = await server.db.select().from(tenants).where(eq(tenants.subdomain, server.config.DEFAULT_TENANT));
    await server.db.update(tenants).set({ ssoOnly: true }).where(eq(tenants.id, demo!.id));
    try {
      const member = await api.call('/auth/sign-in/', { method: 'POST', body: DEMO_MEMBER });
      expect([member.status, member.body.code]).toEqual([403, 'sso_only']);
      expect((await api.call('/auth/sign-in/', { method: 'POST', body: DEMO_ADMIN })).status).toBe(200);
      const signUp = await api.call('/auth/code/', { method: 'POST', body: { email: 'someone@example.test', language: 'en' } });
      expect([signUp.status, signUp.body.code]).toEqual([403, 'signup_closed']);
      // SSO sign-up stays open: it is how members arrive here.
      const verified = await oidcIdentity('dorothy');
      const viaSso = await api.call('/auth/sso-sign-up/', {
        method: 'POST',
        body: { ...(await signUpBody(verified.body.sso_access_token, oidcId)), name: 'Dorothy Vaughan' },
      });
      expect(viaSso.body.outcome).toBe('pending');
    } finally {
      await server.db.update(tenants).set({ ssoOnly: false }).where(eq(tenants.id, demo!.id));
    }
  });

  it('SSO sign-up refuses an identity already registered, and a closed sign-up', async () => {
    const verified = await oidcIdentity('katherine');
    const twice = await api.call('/auth/sso-sign-up/', {
      method: 'POST',
      body: { ...(await signUpBody(verified.body.sso_access_token, oidcId)), name: 'Katherine Again' },
    });
    expect([twice.status, twice.body.code]).toEqual([409, 'already_registered']);
  });
});
