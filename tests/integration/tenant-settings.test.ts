import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, customFields, memberCustomFieldValues, policies, tenants } from '../../src/server/db/schema';
import { DEMO_ADMIN, DEMO_MEMBER, type TestServer, startTestServer } from '../fixtures/testServer';
import { samplePdf, samplePng } from '../fixtures/sampleFiles';
import { apiClient } from './helpers/client';

/** Tenant settings of the admin console (docs/decisions/0045-tenant-settings.md) and My page's custom fields. */
let server: TestServer;
let api: ReturnType<typeof apiClient>;
let admin: string;
let member: string;
let memberId: number;
let adminId: number;
let otherAdmin: string;

beforeAll(async () => {
  server = await startTestServer({ extraTenants: ['other'] });
  api = apiClient(server);
  const signedInAdmin = await api.signIn(DEMO_ADMIN);
  admin = signedInAdmin.access_token;
  adminId = signedInAdmin.member.id;
  const signedInMember = await api.signIn(DEMO_MEMBER);
  member = signedInMember.access_token;
  memberId = signedInMember.member.id;
  otherAdmin = (await api.signIn(DEMO_ADMIN, 'other')).access_token;
});
afterAll(() => server?.close());

interface Upload {
  name: string;
  bytes: Buffer;
  type?: string;
}

async function upload(path: string, token: string | undefined, files: Upload[], tenant?: string) {
  const form = new FormData();
  for (const file of files) form.append('files', new Blob([new Uint8Array(file.bytes)], { type: file.type ?? 'application/octet-stream' }), file.name);
  const headers: Record<string, string> = {};
  if (token) headers['x-access-token'] = token;
  if (tenant) headers['x-subdomain'] = tenant;
  const response = await fetch(`${server.apiBase}${path}`, { method: 'POST', headers, body: form });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- arbitrary JSON, checked by the assertions
  return { status: response.status, body: (await response.json()) as any };
}

/** A path the server gave (`/api/v1/…`) fetched without a token, as an <img> or a link would. */
const fetchPublic = (path: string, tenant?: string) => fetch(`${server.url}${path}`, { headers: tenant ? { 'x-subdomain': tenant } : {} });

const png = { name: 'logo.png', bytes: samplePng(), type: 'image/png' };
const pdf = { name: 'terms.pdf', bytes: samplePdf(['Terms']), type: 'application/pdf' };

describe('branding and support', () => {
  it('is admin-only: 401 without a token, 403 for a member', async () => {
    expect((await api.call('/admin/tenant-settings/')).status).toBe(401);
    expect((await api.call('/admin/tenant-settings/', { token: member })).status).toBe(403);
    expect((await api.call('/admin/tenant-settings/', { method: 'PATCH', token: member, body: { tenant_name: 'X' } })).status).toBe(403);
    expect((await upload('/admin/tenant-settings/logo/', member, [png])).status).toBe(403);
    expect((await api.call('/admin/tenant-settings/logo/', { method: 'DELETE', token: member })).status).toBe(403);
  });

  it('changes the name, support address and manual link; GET /tenants/ carries name and manual link', async () => {
    const saved = await api.call('/admin/tenant-settings/', {
      method: 'PATCH',
      token: admin,
      body: { tenant_name: '  Acme Research  ', support_email: 'help@acme.example', manual_url: 'https://docs.acme.example/manual' },
    });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ tenant_name: 'Acme Research', support_email: 'help@acme.example', manual_url: 'https://docs.acme.example/manual' });
    expect((await api.call('/admin/tenant-settings/', { token: admin })).body).toEqual(saved.body);
    expect((await api.call('/tenants/')).body).toMatchObject({ tenant_name: 'Acme Research', manual_url: 'https://docs.acme.example/manual' });
    // Another tenant is untouched.
    expect((await api.call('/tenants/', { tenant: 'other' })).body.tenant_name).not.toBe('Acme Research');

    const cleared = await api.call('/admin/tenant-settings/', { method: 'PATCH', token: admin, body: { support_email: null, manual_url: null } });
    expect(cleared.body).toMatchObject({ tenant_name: 'Acme Research', support_email: null, manual_url: null });
    expect((await api.call('/tenants/')).body.manual_url).toBeNull();
  });

  it('sets the minimum length of new passwords (8 to 64): audited, on GET /tenants/ for the password forms (issue 20)', async () => {
    const saved = await api.call('/admin/tenant-settings/', { method: 'PATCH', token: admin, body: { password_min_length: 12 } });
    expect(saved.status).toBe(200);
    expect(saved.body.password_min_length).toBe(12);
    expect((await api.call('/admin/tenant-settings/', { token: admin })).body.password_min_length).toBe(12);
    expect((await api.call('/tenants/')).body.password_min_length).toBe(12);
    expect((await api.call('/tenants/', { tenant: 'other' })).body.password_min_length).toBe(8);
    const [entry] = await server.db.select().from(auditLog).where(eq(auditLog.action, 'tenant_settings.update')).orderBy(desc(auditLog.id)).limit(1);
    expect(JSON.stringify(entry!.changes)).toContain('password_min_length');
    await api.call('/admin/tenant-settings/', { method: 'PATCH', token: admin, body: { password_min_length: 8 } });
  });

  it.each([
    ['a minimum password length under 8', { password_min_length: 7 }],
    ['a minimum password length over 64', { password_min_length: 65 }],
    ['a fractional minimum password length', { password_min_length: 10.5 }],
    ['a minimum password length as text', { password_min_length: '12' }],
    ['an empty body', {}],
    ['a blank name', { tenant_name: '   ' }],
    ['a long name', { tenant_name: 'x'.repeat(101) }],
    ['a malformed address', { support_email: 'not-an-address' }],
    ['a javascript: manual link', { manual_url: 'javascript:alert(1)' }],
    ['an ftp manual link', { manual_url: 'ftp://files.example/manual' }],
  ])('refuses %s (400)', async (_, body) => {
    const result = await api.call('/admin/tenant-settings/', { method: 'PATCH', token: admin, body });
    expect(result.status).toBe(400);
    expect(result.body.code).toBe('validation_error');
  });

  it('takes a logo, serves it publicly, replaces and removes it', async () => {
    const first = await upload('/admin/tenant-settings/logo/', admin, [png]);
    expect(first.status).toBe(200);
    expect(first.body.logo_url).toMatch(/^\/api\/v1\/tenants\/logo\/\d+\/$/);
    expect((await api.call('/tenants/')).body.logo_url).toBe(first.body.logo_url);
    const image = await fetchPublic(first.body.logo_url);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    // The desktop renderer shows it from its own origin (app://bundle).
    expect(image.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    expect(Buffer.from(await image.arrayBuffer()).equals(png.bytes)).toBe(true);
    // Not the other tenant's logo.
    expect((await fetchPublic(first.body.logo_url, 'other')).status).toBe(404);

    const second = await upload('/admin/tenant-settings/logo/', admin, [{ ...png, name: 'new.png' }]);
    expect(second.body.logo_url).not.toBe(first.body.logo_url);
    expect((await fetchPublic(first.body.logo_url)).status).toBe(404);
    expect((await fetchPublic(second.body.logo_url)).status).toBe(200);

    const removed = await api.call('/admin/tenant-settings/logo/', { method: 'DELETE', token: admin });
    expect(removed.status).toBe(200);
    expect(removed.body.logo_url).toBeNull();
    expect((await fetchPublic(second.body.logo_url)).status).toBe(404);
    expect((await api.call('/tenants/')).body.logo_url).toBeNull();
  });

  it('refuses a logo that is not an image (415), too large (413), missing or several (422), not multipart (400)', async () => {
    expect((await upload('/admin/tenant-settings/logo/', admin, [pdf])).status).toBe(415);
    // A PNG named .jpg: the content decides, and it must agree with the name.
    expect((await upload('/admin/tenant-settings/logo/', admin, [{ ...png, name: 'logo.jpg', type: 'image/jpeg' }])).status).toBe(415);
    const big = Buffer.concat([png.bytes, Buffer.alloc(1024 * 1024)]);
    expect((await upload('/admin/tenant-settings/logo/', admin, [{ ...png, bytes: big }])).body.code).toBe('file_too_large');
    expect((await upload('/admin/tenant-settings/logo/', admin, [])).status).toBe(422);
    expect((await upload('/admin/tenant-settings/logo/', admin, [png, png])).status).toBe(422);
    expect((await api.call('/admin/tenant-settings/logo/', { method: 'POST', token: admin, body: { logo: 'x' } })).status).toBe(400);
    expect((await api.call('/tenants/')).body.logo_url).toBeNull();
  });

  it('serves no logo for an unknown id (404)', async () => {
    expect((await fetchPublic('/api/v1/tenants/logo/999999/')).status).toBe(404);
  });
});

describe('custom fields', () => {
  const create = (body: object, token = admin) => api.call('/admin/custom-fields/', { method: 'POST', token, body });
  const patch = (id: number, body: object, token = admin) => api.call(`/admin/custom-fields/${id}/`, { method: 'PATCH', token, body });

  it('is admin-only', async () => {
    expect((await api.call('/admin/custom-fields/')).status).toBe(401);
    expect((await api.call('/admin/custom-fields/', { token: member })).status).toBe(403);
    expect((await create({ field_name: 'Team' }, member)).status).toBe(403);
    expect((await patch(1, { is_required: true }, member)).status).toBe(403);
    expect((await api.call('/admin/custom-fields/1/', { method: 'DELETE', token: member })).status).toBe(403);
  });

  it('creates, lists (every field with its value count), edits and deletes a field', async () => {
    const created = await create({ field_name: ' Office ', is_required: true, is_searchable: true });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      field_name: 'Office',
      field_type: 'text',
      is_signup_field: true,
      is_required: true,
      is_searchable: true,
      is_editable: true,
      is_unique: false,
      value_count: 0,
    });
    const id = created.body.id as number;
    const hidden = await create({ field_name: 'Cost centre', is_signup_field: false });
    const listed = await api.call('/admin/custom-fields/', { token: admin });
    expect(listed.body.items.map((f: { field_name: string }) => f.field_name)).toEqual(expect.arrayContaining(['Department', 'Office', 'Cost centre']));
    // The public sign-up read shows sign-up fields only.
    const publicNames = (await api.call('/custom-fields/')).body.items.map((f: { field_name: string }) => f.field_name);
    expect(publicNames).toContain('Office');
    expect(publicNames).not.toContain('Cost centre');

    const edited = await patch(id, { field_name: 'Site', field_type: 'number', is_required: false, is_editable: false });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ id, field_name: 'Site', field_type: 'number', is_required: false, is_editable: false });

    await server.db.insert(memberCustomFieldValues).values({ tenantId: await tenantId(), memberId, customFieldId: id, value: '12' });
    expect((await api.call('/admin/custom-fields/', { token: admin })).body.items.find((f: { id: number }) => f.id === id).value_count).toBe(1);

    expect((await api.call(`/admin/custom-fields/${id}/`, { method: 'DELETE', token: admin })).status).toBe(200);
    // The values went with it.
    expect(await server.db.select().from(memberCustomFieldValues).where(eq(memberCustomFieldValues.customFieldId, id))).toHaveLength(0);
    expect((await api.call(`/admin/custom-fields/${id}/`, { method: 'DELETE', token: admin })).status).toBe(404);
    expect((await patch(id, { is_required: true })).status).toBe(404);
    await api.call(`/admin/custom-fields/${hidden.body.id}/`, { method: 'DELETE', token: admin });
  });

  it('refuses a name in use in any letter case (409), a blank or long name and bad flags (400)', async () => {
    const taken = await create({ field_name: 'department' });
    expect(taken.status).toBe(409);
    expect(taken.body).toMatchObject({ code: 'field_name_taken', details: { field_name: 'department' } });
    const office = await create({ field_name: 'Desk' });
    expect((await patch(office.body.id, { field_name: 'DEPARTMENT' })).status).toBe(409);
    // Renaming to its own name in another case is fine.
    expect((await patch(office.body.id, { field_name: 'DESK' })).status).toBe(200);
    expect((await create({ field_name: '  ' })).status).toBe(400);
    expect((await create({ field_name: 'x'.repeat(101) })).status).toBe(400);
    expect((await create({ field_name: 'Kind', field_type: 'date' })).status).toBe(400);
    expect((await create({ field_name: 'Kind', is_required: 'yes' })).status).toBe(400);
    expect((await patch(office.body.id, {})).status).toBe(400);
    await api.call(`/admin/custom-fields/${office.body.id}/`, { method: 'DELETE', token: admin });
  });

  it('needs a Korean or an English name, not both; each is unique against both names of every other field (409)', async () => {
    const koOnly = await create({ ko_name: ' 직급 ' });
    expect(koOnly).toMatchObject({ status: 200, body: { ko_name: '직급', en_name: '', field_name: '직급' } });
    // A second field without an English name is no clash.
    const secondKoOnly = await create({ ko_name: '사무실' });
    expect(secondKoOnly).toMatchObject({ status: 200, body: { en_name: '' } });
    const enOnly = await create({ en_name: 'Shift' });
    expect(enOnly).toMatchObject({ status: 200, body: { ko_name: '', en_name: 'Shift', field_name: 'Shift' } });
    expect((await create({})).status).toBe(400);
    expect((await create({ ko_name: ' ', en_name: '' })).status).toBe(400);
    // A name is another field's in either language, in any letter case: the upload could not tell their columns apart.
    expect(await create({ ko_name: 'DEPARTMENT' })).toMatchObject({ status: 409, body: { code: 'field_name_taken', details: { field: 'ko_name' } } });
    expect(await create({ ko_name: '근무', en_name: '직급' })).toMatchObject({ status: 409, body: { details: { field: 'en_name', field_name: '직급' } } });
    expect(await patch(enOnly.body.id, { ko_name: '부서' })).toMatchObject({ status: 409, body: { details: { field: 'ko_name' } } });
    // Taking away the only name is refused; giving the other one first is fine.
    expect(await patch(enOnly.body.id, { en_name: '' })).toMatchObject({ status: 422, body: { code: 'field_name_required' } });
    expect(await patch(enOnly.body.id, { ko_name: '근무조', en_name: '' })).toMatchObject({
      status: 200,
      body: { ko_name: '근무조', en_name: '', field_name: '근무조' },
    });
    for (const field of [koOnly, secondKoOnly, enOnly]) await api.call(`/admin/custom-fields/${field.body.id}/`, { method: 'DELETE', token: admin });
  });

  it("gives `field_name` in the reader's language, else the other name, and takes the spec's `field_name` as the admin's language's name", async () => {
    const koOnly = (await create({ ko_name: '직급' })).body;
    const enOnly = (await create({ en_name: 'Shift' })).body;
    const namesFor = (items: { id: number; field_name: string }[]) =>
      Object.fromEntries(items.filter((f) => [koOnly.id, enOnly.id].includes(f.id)).map((f) => [f.id, f.field_name]));
    const setLanguage = (token: string, id: number, language: string) => api.call(`/members/${id}/`, { method: 'PATCH', token, body: { language } });
    try {
      // The English admin (the demo's) sees English, the Korean name where there is no English one.
      expect(namesFor((await api.call('/admin/custom-fields/', { token: admin })).body.items)).toEqual({ [koOnly.id]: '직급', [enOnly.id]: 'Shift' });
      const department = (await api.call('/admin/custom-fields/', { token: admin })).body.items.find((f: { en_name: string }) => f.en_name === 'Department');
      expect(department).toMatchObject({ ko_name: '부서', field_name: 'Department' });
      // A public reader asks for a language; a signed-in member gets their own.
      const publicKo = (await api.call('/custom-fields/?language=ko')).body.items;
      expect(publicKo.find((f: { id: number }) => f.id === department.id).field_name).toBe('부서');
      expect(namesFor(publicKo)).toEqual({ [koOnly.id]: '직급', [enOnly.id]: 'Shift' });
      expect((await api.call('/custom-fields/')).body.items.find((f: { id: number }) => f.id === department.id).field_name).toBe('Department');
      expect((await setLanguage(member, memberId, 'ko')).status).toBe(200);
      const mine = (await api.call(`/members/${memberId}/`, { token: member })).body.custom_fields;
      expect(mine.find((f: { custom_field_id: number }) => f.custom_field_id === department.id).field_name).toBe('부서');
      expect(mine.find((f: { custom_field_id: number }) => f.custom_field_id === enOnly.id).field_name).toBe('Shift');
      // A Korean admin's spec-shaped `field_name` is the Korean name, and their member list names fields in Korean.
      expect((await setLanguage(admin, adminId, 'ko')).status).toBe(200);
      const spec = await create({ field_name: '근무지' });
      expect(spec).toMatchObject({ status: 200, body: { ko_name: '근무지', en_name: '', field_name: '근무지' } });
      expect(await patch(spec.body.id, { field_name: '근무 장소', en_name: 'Workplace' })).toMatchObject({
        status: 200,
        body: { ko_name: '근무 장소', en_name: 'Workplace', field_name: '근무 장소' },
      });
      const listed = (await api.call(`/admin/members/${memberId}/`, { token: admin })).body.custom_fields;
      expect(listed.find((f: { custom_field_id: number }) => f.custom_field_id === department.id).field_name).toBe('부서');
      await api.call(`/admin/custom-fields/${spec.body.id}/`, { method: 'DELETE', token: admin });
    } finally {
      await setLanguage(member, memberId, 'en');
      await setLanguage(admin, adminId, 'en');
      for (const field of [koOnly, enOnly]) await api.call(`/admin/custom-fields/${field.id}/`, { method: 'DELETE', token: admin });
    }
  });

  it('refuses to make a field unique while members share a value, or a number field while a value is not a number (409)', async () => {
    const field = await create({ field_name: 'Badge' });
    const id = field.body.id as number;
    const tenant = await tenantId();
    await server.db.insert(memberCustomFieldValues).values([
      { tenantId: tenant, memberId, customFieldId: id, value: 'B-7' },
      { tenantId: tenant, memberId: adminId, customFieldId: id, value: 'B-7' },
    ]);
    const unique = await patch(id, { is_unique: true });
    expect(unique.status).toBe(409);
    expect(unique.body).toMatchObject({ code: 'values_not_unique', details: { field_name: 'Badge', value: 'B-7' } });
    const number = await patch(id, { field_type: 'number' });
    expect(number.status).toBe(409);
    expect(number.body.code).toBe('values_not_numbers');

    await server.db
      .update(memberCustomFieldValues)
      .set({ value: '8' })
      .where(and(eq(memberCustomFieldValues.customFieldId, id), eq(memberCustomFieldValues.memberId, adminId)));
    await server.db
      .update(memberCustomFieldValues)
      .set({ value: '7' })
      .where(and(eq(memberCustomFieldValues.customFieldId, id), eq(memberCustomFieldValues.memberId, memberId)));
    expect((await patch(id, { is_unique: true, field_type: 'number' })).body).toMatchObject({ is_unique: true, field_type: 'number', value_count: 2 });
    await api.call(`/admin/custom-fields/${id}/`, { method: 'DELETE', token: admin });
  });

  it("never touches another tenant's field (404)", async () => {
    const [foreign] = await server.db
      .select({ id: customFields.id })
      .from(customFields)
      .innerJoin(tenants, eq(tenants.id, customFields.tenantId))
      .where(eq(tenants.subdomain, 'other'));
    expect((await patch(foreign!.id, { is_required: false })).status).toBe(404);
    expect((await api.call(`/admin/custom-fields/${foreign!.id}/`, { method: 'DELETE', token: admin })).status).toBe(404);
    expect((await api.call('/admin/custom-fields/', { token: otherAdmin, tenant: 'other' })).body.items.some((f: { id: number }) => f.id === foreign!.id)).toBe(
      true,
    );
  });
});

async function tenantId(subdomain = 'demo'): Promise<number> {
  const [row] = await server.db.select({ id: tenants.id }).from(tenants).where(eq(tenants.subdomain, subdomain));
  return row!.id;
}

describe('policies', () => {
  const create = (body: object, token = admin) => api.call('/admin/policies/', { method: 'POST', token, body });
  const patch = (id: number, body: object, token = admin) => api.call(`/admin/policies/${id}/`, { method: 'PATCH', token, body });

  it('is admin-only', async () => {
    expect((await api.call('/admin/policies/')).status).toBe(401);
    expect((await api.call('/admin/policies/', { token: member })).status).toBe(403);
    expect((await create({ policy_name: 'P', kind: 'markdown', markdown_content: 'x' }, member)).status).toBe(403);
    expect((await patch(1, { is_mandatory: false }, member)).status).toBe(403);
    expect((await api.call('/admin/policies/1/', { method: 'DELETE', token: member })).status).toBe(403);
    expect((await upload('/admin/policies/files/', member, [pdf])).status).toBe(403);
  });

  it('creates a markdown and a video policy, lists them publicly, edits and deletes them', async () => {
    const markdown = await create({ policy_name: 'Privacy', kind: 'markdown', markdown_content: '## Privacy\n\nWe keep little.' });
    expect(markdown.status).toBe(200);
    expect(markdown.body).toMatchObject({
      policy_name: 'Privacy',
      kind: 'markdown',
      is_mandatory: true,
      markdown_content: '## Privacy\n\nWe keep little.',
      video_url: null,
      file_url: null,
      file_id: null,
    });
    const video = await create({ policy_name: 'Safety video', kind: 'video', video_url: 'https://media.example/safety.mp4', is_mandatory: false });
    expect(video.body).toMatchObject({ kind: 'video', is_mandatory: false, video_url: 'https://media.example/safety.mp4' });
    const publicList = (await api.call('/policies/')).body.items;
    expect(publicList.map((p: { policy_name: string }) => p.policy_name)).toEqual(expect.arrayContaining(['Privacy', 'Safety video']));

    // Switching the kind keeps only the new kind's content.
    const switched = await patch(video.body.id, { kind: 'markdown', markdown_content: 'Watch carefully.', is_mandatory: true });
    expect(switched.body).toMatchObject({ kind: 'markdown', markdown_content: 'Watch carefully.', video_url: null, is_mandatory: true });
    expect((await patch(markdown.body.id, { policy_name: 'Privacy notice' })).body.policy_name).toBe('Privacy notice');

    for (const id of [markdown.body.id, video.body.id]) expect((await api.call(`/admin/policies/${id}/`, { method: 'DELETE', token: admin })).status).toBe(200);
    expect((await api.call(`/admin/policies/${markdown.body.id}/`, { method: 'DELETE', token: admin })).status).toBe(404);
    expect((await patch(markdown.body.id, { is_mandatory: false })).status).toBe(404);
  });

  it('refuses missing content (422) and a video URL that is not https (400)', async () => {
    expect((await create({ policy_name: 'Empty', kind: 'markdown' })).status).toBe(422);
    expect((await create({ policy_name: 'Blank', kind: 'markdown', markdown_content: '   ' })).status).toBe(422);
    expect((await create({ policy_name: 'No video', kind: 'video' })).status).toBe(422);
    expect((await create({ policy_name: 'No file', kind: 'file' })).status).toBe(422);
    expect((await create({ policy_name: 'Plain', kind: 'video', video_url: 'http://media.example/a.mp4' })).status).toBe(400);
    expect((await create({ policy_name: 'Script', kind: 'video', video_url: 'javascript:alert(1)' })).status).toBe(400);
    expect((await create({ policy_name: '', kind: 'markdown', markdown_content: 'x' })).status).toBe(400);
    expect((await create({ policy_name: 'Kind', kind: 'pdf', markdown_content: 'x' })).status).toBe(400);
    const made = await create({ policy_name: 'Stays', kind: 'markdown', markdown_content: 'x' });
    // Switching to video without a URL: the policy would have nothing to show.
    expect((await patch(made.body.id, { kind: 'video' })).status).toBe(422);
    expect((await patch(made.body.id, {})).status).toBe(400);
    await api.call(`/admin/policies/${made.body.id}/`, { method: 'DELETE', token: admin });
  });

  it('takes an uploaded document for a file policy, serves it publicly, and deletes it with the policy', async () => {
    const uploaded = await upload('/admin/policies/files/', admin, [pdf]);
    expect(uploaded.status).toBe(200);
    expect(uploaded.body).toMatchObject({ name: 'terms.pdf', type: 'application/pdf', size: pdf.bytes.length });
    const policy = await create({ policy_name: 'Terms (PDF)', kind: 'file', file_id: uploaded.body.file_id });
    expect(policy.status).toBe(200);
    expect(policy.body).toMatchObject({
      kind: 'file',
      file_id: uploaded.body.file_id,
      file_name: 'terms.pdf',
      file_url: `/api/v1/policies/${policy.body.id}/file/`,
    });
    const document = await fetchPublic(policy.body.file_url);
    expect(document.status).toBe(200);
    expect(document.headers.get('content-type')).toBe('application/pdf');

    // One document, one policy.
    expect((await create({ policy_name: 'Copy', kind: 'file', file_id: uploaded.body.file_id })).status).toBe(422);
    // A chat file of the admin is not a policy document.
    const chatFile = await upload('/files/', admin, [pdf]);
    expect((await create({ policy_name: 'Chat file', kind: 'file', file_id: chatFile.body.items[0].id })).status).toBe(422);

    // A new document replaces the old one, which is deleted.
    const replacement = await upload('/admin/policies/files/', admin, [{ ...pdf, name: 'terms-v2.pdf' }]);
    const replaced = await patch(policy.body.id, { file_id: replacement.body.file_id });
    expect(replaced.body).toMatchObject({ file_id: replacement.body.file_id, file_name: 'terms-v2.pdf' });
    expect((await create({ policy_name: 'Old', kind: 'file', file_id: uploaded.body.file_id })).status).toBe(422);

    expect((await api.call(`/admin/policies/${policy.body.id}/`, { method: 'DELETE', token: admin })).status).toBe(200);
    expect((await fetchPublic(policy.body.file_url)).status).toBe(404);
    expect((await create({ policy_name: 'Gone', kind: 'file', file_id: replacement.body.file_id })).status).toBe(422);
  });

  it('refuses a document of another type (415) and no file (422)', async () => {
    expect((await upload('/admin/policies/files/', admin, [png])).status).toBe(415);
    expect((await upload('/admin/policies/files/', admin, [{ name: 'tool.exe', bytes: Buffer.from([0x4d, 0x5a, 0x90, 0x00, 0x03]) }])).status).toBe(415);
    expect((await upload('/admin/policies/files/', admin, [])).status).toBe(422);
  });

  it("never touches another tenant's policy (404)", async () => {
    const [foreign] = await server.db
      .select({ id: policies.id })
      .from(policies)
      .where(eq(policies.tenantId, await tenantId('other')));
    expect((await patch(foreign!.id, { is_mandatory: false })).status).toBe(404);
    expect((await api.call(`/admin/policies/${foreign!.id}/`, { method: 'DELETE', token: admin })).status).toBe(404);
  });
});

describe('My page custom fields', () => {
  const patchMe = (custom_fields: { custom_field_id: number; value: string }[], token = member, id = memberId) =>
    api.call(`/members/${id}/`, { method: 'PATCH', token, body: { custom_fields } });

  it("lists every field with its flags and the member's value, and saves editable ones by the sign-up rules", async () => {
    const create = (body: object) => api.call('/admin/custom-fields/', { method: 'POST', token: admin, body });
    const nickname = (await create({ field_name: 'Nickname' })).body;
    const floor = (await create({ field_name: 'Floor', field_type: 'number', is_required: true })).body;
    const locker = (await create({ field_name: 'Locker', is_unique: true })).body;
    const grade = (await create({ field_name: 'Grade', is_editable: false, is_signup_field: false })).body;
    await server.db.insert(memberCustomFieldValues).values({ tenantId: await tenantId(), memberId: adminId, customFieldId: locker.id, value: 'L-1' });

    const before = await api.call(`/members/${memberId}/`, { token: member });
    expect(before.body.custom_fields).toEqual(
      expect.arrayContaining([
        {
          custom_field_id: nickname.id,
          ko_name: '',
          en_name: 'Nickname',
          field_name: 'Nickname',
          field_type: 'text',
          is_required: false,
          is_editable: true,
          is_unique: false,
          value: null,
        },
        {
          custom_field_id: grade.id,
          ko_name: '',
          en_name: 'Grade',
          field_name: 'Grade',
          field_type: 'text',
          is_required: false,
          is_editable: false,
          is_unique: false,
          value: null,
        },
      ]),
    );

    const saved = await patchMe([
      { custom_field_id: nickname.id, value: ' Kim ' },
      { custom_field_id: floor.id, value: '12' },
    ]);
    expect(saved.status).toBe(200);
    const values = Object.fromEntries(saved.body.custom_fields.map((f: { field_name: string; value: string | null }) => [f.field_name, f.value]));
    expect(values).toMatchObject({ Nickname: 'Kim', Floor: '12', Locker: null });

    const refused = async (fields: { custom_field_id: number; value: string }[], status: number, code: string) => {
      const result = await patchMe(fields);
      expect(result.status).toBe(status);
      expect(result.body.code).toBe(code);
      return result;
    };
    expect((await refused([{ custom_field_id: grade.id, value: 'A' }], 422, 'field_not_editable')).body.details).toEqual({
      field_name: 'Grade',
      custom_field_id: grade.id,
    });
    expect((await refused([{ custom_field_id: floor.id, value: '' }], 422, 'required_field_missing')).body.message).toBe('Floor is required.');
    expect((await refused([{ custom_field_id: floor.id, value: 'ten' }], 422, 'invalid_field_value')).body.message).toBe('Floor must be a number.');
    expect((await refused([{ custom_field_id: locker.id, value: 'L-1' }], 409, 'value_already_used')).body.details).toEqual({
      field_name: 'Locker',
      custom_field_id: locker.id,
    });
    await refused([{ custom_field_id: 999_999, value: 'x' }], 422, 'validation_error');
    await refused(
      [
        { custom_field_id: nickname.id, value: 'a' },
        { custom_field_id: nickname.id, value: 'b' },
      ],
      422,
      'validation_error',
    );
    // Nothing of a refused request was written (the name in the same request neither).
    const combined = await api.call(`/members/${memberId}/`, {
      method: 'PATCH',
      token: member,
      body: { name: 'Changed Name', custom_fields: [{ custom_field_id: grade.id, value: 'A' }] },
    });
    expect(combined.status).toBe(422);
    expect((await api.call(`/members/${memberId}/`, { token: member })).body.name).not.toBe('Changed Name');

    // Keeping one's own unique value is no clash; an empty optional value clears it.
    expect((await patchMe([{ custom_field_id: locker.id, value: 'L-2' }])).status).toBe(200);
    expect((await patchMe([{ custom_field_id: locker.id, value: 'L-2' }])).status).toBe(200);
    const cleared = await patchMe([{ custom_field_id: nickname.id, value: '' }]);
    expect(cleared.body.custom_fields.find((f: { field_name: string }) => f.field_name === 'Nickname').value).toBeNull();

    // Only oneself (an admin included: admins change members elsewhere).
    expect((await patchMe([{ custom_field_id: nickname.id, value: 'x' }], admin, memberId)).status).toBe(403);
    expect((await patchMe([{ custom_field_id: nickname.id, value: 'x' }], member, adminId)).status).toBe(403);
    // Another tenant's field is unknown here.
    const [foreign] = await server.db
      .select({ id: customFields.id })
      .from(customFields)
      .where(eq(customFields.tenantId, await tenantId('other')));
    await refused([{ custom_field_id: foreign!.id, value: 'x' }], 422, 'validation_error');

    for (const field of [nickname, floor, locker, grade]) await api.call(`/admin/custom-fields/${field.id}/`, { method: 'DELETE', token: admin });
  });
});
