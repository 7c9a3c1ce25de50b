import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customFields, files, mailOutbox, memberGroupLinks, members, plans, policies, tenants, verificationCodes } from '../../src/server/db/schema';
import { createFileStore } from '../../src/server/storage/fileStore';
import { VERIFICATION_CODE_MAX_ATTEMPTS } from '../../src/shared/domain/signup';
import { type FakeSmsProvider, startFakeSmsProvider } from '../fixtures/fakeSmsProvider';
import { type SmtpSink, startSmtpSink } from '../fixtures/smtpSink';
import { DEMO_ADMIN, type TestServer, startTestServer } from '../fixtures/testServer';
import { apiClient } from './helpers/client';

let server: TestServer;
let sink: SmtpSink;
let provider: FakeSmsProvider;
let api: ReturnType<typeof apiClient>;
const PASSWORD = 'Signup!Kq234';
/** A tenant that offers codes by text message too. */
const TEXTING_TENANT = 'texting';

beforeAll(async () => {
  // The SMTP server refuses lost@ for now (451), as one that is down would refuse every mail.
  sink = await startSmtpSink({ refuse: (address) => (address.startsWith('lost@') ? 451 : undefined) });
  provider = await startFakeSmsProvider();
  server = await startTestServer({
    extraTenants: ['auto', 'solo', 'closed', 'full', TEXTING_TENANT],
    config: {
      SMTP_URL: sink.url,
      SIGN_UP_RATE_LIMIT: 10_000,
      // What the mail sender sends (approvals, welcomes) arrives within half a second rather than two.
      JOB_POLL_INTERVAL_SECONDS: 0.5,
      TWILIO_ACCOUNT_SID: provider.accountSid,
      TWILIO_AUTH_TOKEN: provider.authToken,
      TWILIO_FROM: '+15005550006',
      TWILIO_API_BASE: provider.url,
    },
  });
  api = apiClient(server);
  await server.db
    .update(tenants)
    .set({ verificationMethods: ['email', 'sms'] })
    .where(eq(tenants.subdomain, TEXTING_TENANT));
  await server.db.update(tenants).set({ signupApproval: 'auto' }).where(eq(tenants.subdomain, 'auto'));
  await server.db.update(tenants).set({ signupApproval: 'individual' }).where(eq(tenants.subdomain, 'solo'));
  await server.db.update(tenants).set({ ssoOnly: true }).where(eq(tenants.subdomain, 'closed'));
  const [full] = await server.db.select().from(tenants).where(eq(tenants.subdomain, 'full'));
  await server.db.update(plans).set({ memberLimit: 2 }).where(eq(plans.id, full!.planId!));
});
afterAll(async () => {
  await server?.close();
  await sink?.close();
  await provider?.close();
});

/** The code of the newest verification mail to `email`. */
function mailedCode(email: string): string {
  const mail = sink.received.filter((m) => m.envelopeTo.includes(email)).at(-1);
  const code = mail?.parsed.text?.match(/\b\d{6}\b/)?.[0];
  if (!code) throw new Error(`no code mailed to ${email}`);
  return code;
}

async function sendCode(email: string, tenant?: string) {
  return api.call('/auth/code/', { method: 'POST', body: { email, language: 'en' }, tenant });
}

async function form(tenant?: string) {
  const groups = await api.call('/member-groups/', { tenant });
  const fields = await api.call('/custom-fields/', { tenant });
  const policies = await api.call('/policies/', { tenant });
  const field = (name: string) => fields.body.items.find((f: { field_name: string }) => f.field_name === name).id as number;
  return {
    groupId: groups.body.items.find((g: { is_default: boolean }) => g.is_default).id as number,
    department: field('Department'),
    employeeNumber: field('Employee number'),
    mandatoryPolicies: policies.body.items.filter((p: { is_mandatory: boolean }) => p.is_mandatory).map((p: { id: number }) => p.id) as number[],
  };
}

async function body(email: string, overrides: Record<string, unknown> = {}, tenant?: string) {
  const f = await form(tenant);
  return {
    email,
    password: PASSWORD,
    name: 'New Member',
    language: 'en',
    custom_fields: [{ custom_field_id: f.department, value: 'Research' }],
    auth_code: '000000',
    default_member_group_id: f.groupId,
    member_group_ids: [],
    agreements: f.mandatoryPolicies,
    ...overrides,
  };
}

/** Sends a code and signs up with it; `overrides` may replace any field of the body. */
async function signUp(email: string, overrides: Record<string, unknown> = {}, tenant?: string) {
  expect((await sendCode(email, tenant)).status).toBe(200);
  return api.call('/auth/sign-up/', { method: 'POST', body: await body(email, { auth_code: mailedCode(email), ...overrides }, tenant), tenant });
}

async function adminToken() {
  return (await api.signIn(DEMO_ADMIN)).access_token;
}

describe('public sign-up data', () => {
  it('lists the groups with is_default, the sign-up fields with their flags and the policies', async () => {
    const groups = await api.call('/member-groups/');
    expect(groups.status).toBe(200);
    expect(groups.body.items).toEqual([{ id: expect.any(Number), ko_name: '기본 그룹', en_name: 'Default group', is_default: true }]);
    expect(groups.body.total_items).toBe(1);
    expect((await api.call('/member-groups/?is_default=false')).body.items).toEqual([]);

    const fields = await api.call('/custom-fields/');
    expect(fields.body.items).toEqual([
      expect.objectContaining({ field_name: 'Department', field_type: 'text', is_required: true, is_unique: false, is_signup_field: true }),
      expect.objectContaining({ field_name: 'Employee number', field_type: 'number', is_required: false, is_unique: true }),
    ]);
    const policies = await api.call('/policies/');
    expect(policies.body.items.map((p: { policy_name: string; is_mandatory: boolean; kind: string }) => [p.policy_name, p.kind, p.is_mandatory])).toEqual([
      ['Terms of service', 'markdown', true],
      ['Product news by email', 'markdown', false],
    ]);
  });

  it("serves a file policy's document to anyone, and nothing else by that path", async () => {
    const [auto] = await server.db.select().from(tenants).where(eq(tenants.subdomain, 'auto'));
    await createFileStore(server.config).put('policies/rules.txt', Buffer.from('House rules'), { contentType: 'text/plain' });
    const [file] = await server.db
      .insert(files)
      .values({
        tenantId: auto!.id,
        name: 'rules.txt',
        mimeType: 'text/plain',
        sizeBytes: 11,
        storageKey: 'policies/rules.txt',
        shouldExpire: false,
        parseStatus: 'parsed',
      })
      .returning();
    const [policy] = await server.db.insert(policies).values({ tenantId: auto!.id, policyName: 'House rules', kind: 'file', fileId: file!.id }).returning();
    const listed = (await api.call('/policies/', { tenant: 'auto' })).body.items.find((p: { id: number }) => p.id === policy!.id);
    expect(listed).toMatchObject({ kind: 'file', file_url: `/api/v1/policies/${policy!.id}/file/` });
    const download = await fetch(`${server.url}${listed.file_url}`, { headers: { 'x-subdomain': 'auto' } });
    expect([download.status, await download.text()]).toEqual([200, 'House rules']);
    // Another tenant's policy id, and a markdown policy, have no file here.
    expect((await api.call(`/policies/${policy!.id}/file/`)).status).toBe(404);
    const markdown = (await api.call('/policies/')).body.items[0].id;
    expect((await api.call(`/policies/${markdown}/file/`)).status).toBe(404);
  });

  it('describes the tenant settings: admin approval by email on the demo, closed on an SSO-only tenant', async () => {
    expect((await api.call('/tenants/sign-up-settings/')).body).toEqual({
      signup_open: true,
      sso_only: false,
      sso_whitelist_only: false,
      group_change_approval: true,
      approval: 'admin',
      verification_methods: ['email'],
    });
    expect((await api.call('/tenants/sign-up-settings/', { tenant: 'closed' })).body).toMatchObject({ signup_open: true, sso_only: true });
  });

  it('counts members against the plan limit', async () => {
    expect((await api.call('/tenants/member-count-check/')).body).toMatchObject({ member_limit: 50, can_add_member: true });
    expect((await api.call('/tenants/member-count-check/', { tenant: 'full' })).body).toEqual({ member_count: 2, member_limit: 2, can_add_member: false });
  });
});

describe('POST /auth/code/', () => {
  it('mails a code in the asked language, stores only its hash, and answers the expiry and resend time', async () => {
    const result = await api.call('/auth/code/', { method: 'POST', body: { email: 'Code.Me@Example.test', language: 'ko' } });
    expect(result.status).toBe(200);
    expect(Date.parse(result.body.expires_at) - Date.now()).toBeGreaterThan(9 * 60_000);
    expect(Date.parse(result.body.resend_available_at)).toBeGreaterThan(Date.now());
    const mail = sink.received.at(-1)!;
    expect(mail.envelopeTo).toEqual(['code.me@example.test']);
    expect(mail.parsed.subject).toBe('이메일 인증 코드');
    const code = mailedCode('code.me@example.test');
    const rows = await server.db.select().from(verificationCodes).where(eq(verificationCodes.email, 'code.me@example.test'));
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(code);
  });

  it('refuses a resend within the cooldown with 429 and the seconds left', async () => {
    expect((await sendCode('cooldown@example.test')).status).toBe(200);
    const again = await sendCode('cooldown@example.test');
    expect(again.status).toBe(429);
    expect(again.body.code).toBe('code_cooldown');
    expect(again.body.details.retry_after_seconds).toBeGreaterThan(50);
    expect(Number(again.headers.get('retry-after'))).toBeGreaterThan(50);
  });

  it('answers 400 malformed or invalid email (spec §8), 409 registered, 403 closed', async () => {
    expect((await api.call('/auth/code/', { method: 'POST', body: { email: 'x@example.test' } })).status).toBe(400);
    const invalid = await sendCode('not-an-email');
    expect([invalid.status, invalid.body.code]).toEqual([400, 'invalid_email']);
    const registered = await sendCode(DEMO_ADMIN.email);
    expect([registered.status, registered.body.code]).toEqual([409, 'already_registered']);
    const closed = await sendCode('someone@example.test', 'closed');
    expect([closed.status, closed.body.code]).toEqual([403, 'signup_closed']);
  });

  it('answers 424 when the mail cannot be sent, keeping no code so the member may retry at once', async () => {
    const first = await sendCode('lost@example.test');
    expect([first.status, first.body.code]).toEqual([424, 'mail_failed']);
    const second = await sendCode('lost@example.test');
    expect(second.status).toBe(424);
    expect(await server.db.select().from(verificationCodes).where(eq(verificationCodes.email, 'lost@example.test'))).toEqual([]);
    // Both mails are failed for good, although the refusal was for now: a code the member was told did not go never arrives later.
    expect(await server.db.select({ status: mailOutbox.status }).from(mailOutbox).where(eq(mailOutbox.recipient, 'lost@example.test'))).toEqual([
      { status: 'failed' },
      { status: 'failed' },
    ]);
  });
});

describe('POST /auth/sign-up/ with admin approval (the demo)', () => {
  it('creates a pending member who gets 403 at sign-in until an admin approves, then signs in', async () => {
    const result = await signUp('pending.one@example.test', { member_group_ids: [] });
    expect(result.status).toBe(200);
    expect(result.body).toEqual({ outcome: 'pending', member_id: expect.any(Number) });

    const refused = await api.call('/auth/sign-in/', { method: 'POST', body: { email: 'pending.one@example.test', password: PASSWORD } });
    expect([refused.status, refused.body.code, refused.body.details.member_type]).toEqual([403, 'not_approved', 'organization']);
    expect(await server.db.select().from(memberGroupLinks).where(eq(memberGroupLinks.memberId, result.body.member_id))).toEqual([]);

    const token = await adminToken();
    const before = sink.received.length;
    const approved = await api.call(`/admin/members/${result.body.member_id}/process-pending-request/`, { method: 'POST', token, body: { approve: true } });
    expect(approved.body).toEqual({ member_status: 'approved', request_type: 'registration' });
    expect((await sink.mailsAfter(before))[0]!.parsed.subject).toContain('was approved');
    const links = await server.db.select().from(memberGroupLinks).where(eq(memberGroupLinks.memberId, result.body.member_id));
    expect(links).toHaveLength(1);

    const signedIn = await api.signIn({ email: 'pending.one@example.test', password: PASSWORD });
    expect(signedIn.member).toMatchObject({ name: 'New Member', member_status: 'approved' });
    // Every field of the tenant, with the value given at sign-up or none.
    expect(signedIn.member.custom_fields).toEqual([
      expect.objectContaining({ field_name: 'Department', value: 'Research', is_required: true }),
      expect.objectContaining({ field_name: 'Employee number', value: null, is_unique: true }),
    ]);
    // Done once: a second decision finds no pending request.
    expect(
      (await api.call(`/admin/members/${result.body.member_id}/process-pending-request/`, { method: 'POST', token, body: { approve: true } })).status,
    ).toBe(404);
  });

  it('rejects with a required reason, mailed to the requester', async () => {
    const result = await signUp('rejected.one@example.test');
    const token = await adminToken();
    const path = `/admin/members/${result.body.member_id}/process-pending-request/`;
    expect((await api.call(path, { method: 'POST', token, body: { approve: false } })).status).toBe(422);
    const before = sink.received.length;
    expect((await api.call(path, { method: 'POST', token, body: { approve: false, reason: 'Unknown department' } })).body).toEqual({
      member_status: 'rejected',
      request_type: 'registration',
    });
    expect((await sink.mailsAfter(before))[0]!.parsed.text).toContain('Unknown department');
    expect((await api.call(path, { method: 'POST', body: { approve: true } })).status).toBe(401);
  });

  it('answers 401 for a wrong code, counts the tries, and spends the code after too many', async () => {
    await sendCode('wrong.code@example.test');
    const code = mailedCode('wrong.code@example.test');
    const wrong = code === '111111' ? '222222' : '111111';
    for (let i = 0; i < VERIFICATION_CODE_MAX_ATTEMPTS; i += 1) {
      const result = await api.call('/auth/sign-up/', { method: 'POST', body: await body('wrong.code@example.test', { auth_code: wrong }) });
      expect([result.status, result.body.code]).toEqual([401, 'invalid_code']);
    }
    const spent = await api.call('/auth/sign-up/', { method: 'POST', body: await body('wrong.code@example.test', { auth_code: code }) });
    expect([spent.status, spent.body.code]).toEqual([401, 'code_expired']);
  });

  it('answers 401 code_expired for an expired code or none at all', async () => {
    await sendCode('late@example.test');
    const code = mailedCode('late@example.test');
    await server.db
      .update(verificationCodes)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(verificationCodes.email, 'late@example.test'));
    const late = await api.call('/auth/sign-up/', { method: 'POST', body: await body('late@example.test', { auth_code: code }) });
    expect([late.status, late.body.code]).toEqual([401, 'code_expired']);
    const never = await api.call('/auth/sign-up/', { method: 'POST', body: await body('never@example.test') });
    expect([never.status, never.body.code]).toEqual([401, 'code_expired']);
  });

  it('only the newest code works after a resend', async () => {
    await sendCode('resend@example.test');
    const first = mailedCode('resend@example.test');
    await server.db
      .update(verificationCodes)
      .set({ createdAt: new Date(Date.now() - 120_000) })
      .where(eq(verificationCodes.email, 'resend@example.test'));
    expect((await sendCode('resend@example.test')).status).toBe(200);
    const second = mailedCode('resend@example.test');
    if (first !== second) {
      const old = await api.call('/auth/sign-up/', { method: 'POST', body: await body('resend@example.test', { auth_code: first }) });
      expect(old.status).toBe(401);
    }
    expect((await api.call('/auth/sign-up/', { method: 'POST', body: await body('resend@example.test', { auth_code: second }) })).status).toBe(200);
  });

  it.each([
    ['invalid email', { email: 'nope' }, 422, 'invalid_email'],
    ['weak password', { password: 'password' }, 422, 'invalid_password'],
    // Issue 20: a common password dressed up to pass the character rule.
    ['common password', { password: 'Password123!' }, 422, 'common_password'],
    ['common password with letter swaps', { password: 'P@ssw0rd2024' }, 422, 'common_password'],
    ['short name', { name: 'A' }, 422, 'invalid_name'],
    ['member type', { member_type: 'individual' }, 422, 'invalid_member_type'],
    ['SSO user type', { sso_user_type: 'staff' }, 422, 'invalid_sso_user_type'],
    ['unknown member group', { default_member_group_id: 999_999 }, 422, 'invalid_member_group'],
    ['unknown extra group', { member_group_ids: [999_999] }, 422, 'invalid_member_group'],
    ['field not a sign-up field', { custom_fields: [{ custom_field_id: 999_999, value: 'x' }] }, 422, 'invalid_signup_field'],
    ['missing required field', { custom_fields: [] }, 422, 'required_field_missing'],
    ['no mandatory agreement', { agreements: [] }, 422, 'policy_agreement_required'],
    ['malformed body', { default_member_group_id: 'one' }, 400, 'validation_error'],
  ])('refuses %s', async (_name, overrides, status, code) => {
    const result = await api.call('/auth/sign-up/', { method: 'POST', body: await body('reasons@example.test', overrides) });
    expect([result.status, result.body.code]).toEqual([status, code]);
  });

  it("holds a new member's password to the tenant's minimum length (issue 20)", async () => {
    await server.db.update(tenants).set({ passwordMinLength: 16 }).where(eq(tenants.subdomain, 'demo'));
    try {
      const result = await api.call('/auth/sign-up/', { method: 'POST', body: await body('longer@example.test', { password: 'Xq7#vLp2mK9!' }) });
      expect([result.status, result.body.code, result.body.details?.min_length]).toEqual([422, 'invalid_password', 16]);
      expect((await signUp('longer@example.test', { password: 'Xq7#vLp2mK9!Wz4$' })).status).toBe(200);
    } finally {
      await server.db.update(tenants).set({ passwordMinLength: 8 }).where(eq(tenants.subdomain, 'demo'));
    }
  });

  it('names the field: "{field_name} is required." and "{field_name} must be a number."', async () => {
    const f = await form();
    const missing = await api.call('/auth/sign-up/', { method: 'POST', body: await body('fields@example.test', { custom_fields: [] }) });
    expect(missing.body).toMatchObject({ message: 'Department is required.', details: { field_name: 'Department' } });
    const notNumber = await api.call('/auth/sign-up/', {
      method: 'POST',
      body: await body('fields@example.test', {
        custom_fields: [
          { custom_field_id: f.department, value: 'R' },
          { custom_field_id: f.employeeNumber, value: 'abc' },
        ],
      }),
    });
    expect([notNumber.status, notNumber.body.code, notNumber.body.message]).toEqual([422, 'invalid_field_value', 'Employee number must be a number.']);
    // A Korean sign-up hears the field's Korean name.
    const korean = await api.call('/auth/sign-up/', {
      method: 'POST',
      body: { ...(await body('fields@example.test', { custom_fields: [] })), language: 'ko' },
    });
    expect(korean.body).toMatchObject({ message: '부서 is required.', details: { field_name: '부서', custom_field_id: f.department } });
  });

  it('answers 409 for a unique field value already used and for an already registered email', async () => {
    const f = await form();
    const fields = [
      { custom_field_id: f.department, value: 'R' },
      { custom_field_id: f.employeeNumber, value: '4242' },
    ];
    expect((await signUp('unique.one@example.test', { custom_fields: fields })).status).toBe(200);
    const taken = await signUp('unique.two@example.test', { custom_fields: fields });
    expect([taken.status, taken.body.code, taken.body.details]).toEqual([
      409,
      'value_already_used',
      { field_name: 'Employee number', custom_field_id: f.employeeNumber },
    ]);
    const twice = await api.call('/auth/sign-up/', { method: 'POST', body: await body('unique.one@example.test') });
    expect([twice.status, twice.body.code]).toEqual([409, 'already_registered']);
  });
});

describe('other tenant settings', () => {
  it('auto-approval creates an approved member who is welcomed by mail and may sign in at once', async () => {
    const before = sink.received.length;
    const result = await signUp('auto.one@example.test', {}, 'auto');
    expect(result.body.outcome).toBe('approved');
    // The code mail went out before the code's answer; the welcome follows the sign-up.
    const [welcome] = await sink.mailsAfter(before + 1);
    expect(welcome!.envelopeTo).toEqual(['auto.one@example.test']);
    expect(welcome!.parsed.subject).toContain('was approved');
    const signedIn = await api.signIn({ email: 'auto.one@example.test', password: PASSWORD }, 'auto');
    expect(signedIn.member).toMatchObject({ member_status: 'approved', member_type: 'organization' });
  });

  it('an individual tenant registers individual members directly', async () => {
    const result = await signUp('solo.one@example.test', { member_type: 'individual' }, 'solo');
    expect(result.body.outcome).toBe('registered');
    const signedIn = await api.signIn({ email: 'solo.one@example.test', password: PASSWORD }, 'solo');
    expect(signedIn.member.member_type).toBe('individual');
  });

  it('an individual member left pending gets the 403 that points to customer support', async () => {
    const [solo] = await server.db.select().from(tenants).where(eq(tenants.subdomain, 'solo'));
    await server.db
      .update(members)
      .set({ status: 'pending' })
      .where(and(eq(members.tenantId, solo!.id), eq(members.email, 'solo.one@example.test')));
    const refused = await api.call('/auth/sign-in/', { method: 'POST', tenant: 'solo', body: { email: 'solo.one@example.test', password: PASSWORD } });
    expect([refused.status, refused.body.details.member_type]).toEqual([403, 'individual']);
  });

  it('answers 402 when the plan member limit is reached', async () => {
    await sendCode('one.too.many@example.test', 'full');
    const result = await api.call('/auth/sign-up/', {
      method: 'POST',
      tenant: 'full',
      body: await body('one.too.many@example.test', { auth_code: mailedCode('one.too.many@example.test') }, 'full'),
    });
    expect([result.status, result.body.code]).toEqual([402, 'member_limit_reached']);
  });

  it('an SSO-only tenant refuses normal sign-up', async () => {
    const result = await api.call('/auth/sign-up/', { method: 'POST', tenant: 'closed', body: await body('sso@example.test', {}, 'closed') });
    expect([result.status, result.body.code]).toEqual([403, 'signup_closed']);
  });

  it('tenants keep their own fields apart', async () => {
    const demoField = (await form()).department;
    const result = await api.call('/auth/sign-up/', {
      method: 'POST',
      tenant: 'auto',
      body: await body('cross@example.test', { custom_fields: [{ custom_field_id: demoField, value: 'x' }] }, 'auto'),
    });
    expect(result.body.code).toBe('invalid_signup_field');
    expect(await server.db.select().from(customFields).where(eq(customFields.id, demoField))).toHaveLength(1);
  });
});

describe('PATCH /admin/sign-up-settings/', () => {
  it('lets an admin change the settings, which sign-up then follows', async () => {
    const token = await adminToken();
    const changed = await api.call('/admin/sign-up-settings/', { method: 'PATCH', token, body: { approval: 'auto', verification_methods: ['email', 'sms'] } });
    expect(changed.body).toEqual({
      signup_open: true,
      sso_only: false,
      sso_whitelist_only: false,
      group_change_approval: true,
      approval: 'auto',
      verification_methods: ['email', 'sms'],
    });
    expect((await api.call('/tenants/sign-up-settings/')).body.approval).toBe('auto');
    expect((await signUp('after.change@example.test')).body.outcome).toBe('approved');
    expect((await api.call('/admin/sign-up-settings/', { method: 'PATCH', token, body: { signup_open: false } })).body.signup_open).toBe(false);
    expect((await sendCode('closed.now@example.test')).body.code).toBe('signup_closed');
    const restored = await api.call('/admin/sign-up-settings/', {
      method: 'PATCH',
      token,
      body: { signup_open: true, approval: 'admin', verification_methods: ['email'] },
    });
    expect(restored.body).toMatchObject({ signup_open: true, approval: 'admin', verification_methods: ['email'] });
  });

  it('refuses members, no methods at all, a method twice and an empty change', async () => {
    const token = await adminToken();
    const member = (await api.signIn({ email: 'member@demo.test', password: 'DemoMember!234' })).access_token;
    expect((await api.call('/admin/sign-up-settings/', { method: 'PATCH', token: member, body: { approval: 'auto' } })).status).toBe(403);
    for (const body of [{ verification_methods: [] }, { verification_methods: ['email', 'email'] }, {}, { approval: 'anyone' }]) {
      expect((await api.call('/admin/sign-up-settings/', { method: 'PATCH', token, body })).status).toBe(400);
    }
  });
});

describe('codes by SMS', () => {
  const tenant = TEXTING_TENANT;
  const smsCode = (body: { email: string; phone?: string; method?: string }) =>
    api.call('/auth/code/', { method: 'POST', body: { language: 'ko', method: 'sms', ...body }, tenant });

  it('texts the code through the provider in the asked language, and it signs the email up', async () => {
    const result = await smsCode({ email: 'texted@example.test', phone: '+82 10-1234-5678' });
    expect(result.status).toBe(200);
    const message = provider.received.at(-1)!;
    expect(message).toMatchObject({ to: '+821012345678', from: '+15005550006' });
    expect(message.body).toMatch(/^인증 코드: \d{6} \(10분 동안 유효\)$/);
    const code = message.body.match(/\d{6}/)![0];
    const f = await (async () => {
      const groups = await api.call('/member-groups/', { tenant });
      const fields = await api.call('/custom-fields/', { tenant });
      const policies = await api.call('/policies/', { tenant });
      return {
        group: groups.body.items[0].id,
        department: fields.body.items.find((x: { field_name: string }) => x.field_name === 'Department').id,
        agreements: policies.body.items.filter((p: { is_mandatory: boolean }) => p.is_mandatory).map((p: { id: number }) => p.id),
      };
    })();
    const signed = await api.call('/auth/sign-up/', {
      method: 'POST',
      tenant,
      body: {
        email: 'texted@example.test',
        password: PASSWORD,
        name: 'Texted Member',
        language: 'ko',
        custom_fields: [{ custom_field_id: f.department, value: 'Ops' }],
        auth_code: code,
        default_member_group_id: f.group,
        agreements: f.agreements,
      },
    });
    expect(signed.body.outcome).toBe('pending');
  });

  it('answers 422 for a missing or malformed phone and for a method the tenant does not offer', async () => {
    expect((await smsCode({ email: 'nophone@example.test' })).body.code).toBe('invalid_phone');
    expect((await smsCode({ email: 'nophone@example.test', phone: '12345' })).body.code).toBe('invalid_phone');
    const notOffered = await api.call('/auth/code/', {
      method: 'POST',
      body: { email: 'x@example.test', language: 'en', method: 'sms', phone: '+821012345678' },
    });
    expect([notOffered.status, notOffered.body.code]).toEqual([422, 'validation_error']);
  });

  it('answers 424 when the provider refuses the message, keeping no code', async () => {
    provider.failWith = 400;
    try {
      const result = await smsCode({ email: 'refused@example.test', phone: '+821000000000' });
      expect([result.status, result.body.code]).toEqual([424, 'sms_failed']);
      expect(await server.db.select().from(verificationCodes).where(eq(verificationCodes.email, 'refused@example.test'))).toEqual([]);
    } finally {
      provider.failWith = null;
    }
  });
});

describe('rate limits', () => {
  it('limits code requests per client', async () => {
    const limited = await startTestServer({ config: { SMTP_URL: sink.url, SIGN_UP_RATE_LIMIT: 2 } });
    try {
      const limitedApi = apiClient(limited);
      const statuses = [];
      for (const n of [1, 2, 3])
        statuses.push((await limitedApi.call('/auth/code/', { method: 'POST', body: { email: `rl${n}@example.test`, language: 'en' } })).status);
      expect(statuses).toEqual([200, 200, 429]);
    } finally {
      await limited.close();
    }
  });
});
