import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, prompts } from '../../src/server/db/schema';
import { PERSONAL_PROMPTS_MAX, PROMPT_NAME_MAX, PROMPT_TEXT_MAX } from '../../src/shared/domain/prompts';
import { DEMO_ADMIN, DEMO_MEMBER, type TestServer, startTestServer } from '../fixtures/testServer';
import { apiClient } from './helpers/client';

describe('prompt library', () => {
  let server: TestServer;
  let client: ReturnType<typeof apiClient>;
  let admin: string;
  let member: string;
  let acmeAdmin: string;
  let acmeMember: string;

  beforeAll(async () => {
    server = await startTestServer({ extraTenants: ['acme'] });
    client = apiClient(server);
    admin = (await client.signIn(DEMO_ADMIN)).access_token;
    member = (await client.signIn(DEMO_MEMBER)).access_token;
    acmeAdmin = (await client.signIn(DEMO_ADMIN, 'acme')).access_token;
    acmeMember = (await client.signIn(DEMO_MEMBER, 'acme')).access_token;
  });
  afterAll(() => server?.close());

  const adminCreate = (body: object, token = admin, tenant?: string) => client.call('/admin/prompts/', { method: 'POST', token, body, tenant });
  const ownCreate = (body: object, token = member, tenant?: string) => client.call('/prompts/', { method: 'POST', token, body, tenant });
  const listOwn = (token = member, tenant?: string) => client.call('/prompts/', { token, tenant });

  it('an admin adds a tenant prompt every member of the tenant can insert, with its variables; the write is audited', async () => {
    const created = await adminCreate({ name: '  Weekly report ', text: 'Summarise {{ topic }} for {{audience}}; keep {{topic}} short.' });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ scope: 'tenant', name: 'Weekly report', variables: ['topic', 'audience'] });
    const seen = await listOwn();
    expect(seen.body.items).toContainEqual(expect.objectContaining({ id: created.body.id, scope: 'tenant' }));
    const audits = await server.db.select().from(auditLog).where(eq(auditLog.action, 'prompt.create'));
    expect(audits).toEqual([expect.objectContaining({ targetId: String(created.body.id), actorEmail: DEMO_ADMIN.email })]);
    // Another tenant's members and admins never see it.
    expect((await listOwn(acmeMember, 'acme')).body.items).toEqual([]);
    expect((await client.call('/admin/prompts/', { token: acmeAdmin, tenant: 'acme' })).body.items).toEqual([]);
  });

  it('a member keeps personal prompts: listed after the tenant’s, by name, invisible to other members', async () => {
    const second = await ownCreate({ name: 'zeta notes', text: 'Notes on {{대상}}' });
    const first = await ownCreate({ name: 'Alpha', text: 'Plain text' });
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({ scope: 'personal', variables: ['대상'] });
    const items = (await listOwn()).body.items as { name: string; scope: string }[];
    expect(items.map((p) => `${p.scope}:${p.name}`)).toEqual(['tenant:Weekly report', 'personal:Alpha', 'personal:zeta notes']);
    // The admin is a member too: their list has the tenant prompt and none of this member's.
    expect(((await listOwn(admin)).body.items as { id: number }[]).map((p) => p.id)).not.toContain(first.body.id);
    // The admin console lists the tenant's prompts only.
    const console = await client.call('/admin/prompts/', { token: admin });
    expect(console.body).toMatchObject({ total_items: 1, items: [{ name: 'Weekly report' }] });
  });

  it('refuses a name in use in the same scope (letter case ignored) with 409, and allows it in the other scope', async () => {
    const clash = await ownCreate({ name: 'ALPHA', text: 'x' });
    expect(clash.status).toBe(409);
    expect(clash.body).toMatchObject({ code: 'prompt_name_taken', details: { field: 'name' } });
    expect((await adminCreate({ name: 'weekly REPORT', text: 'x' })).body.code).toBe('prompt_name_taken');
    // A personal prompt may share a tenant prompt's name, and another member may reuse a member's name.
    expect((await ownCreate({ name: 'Weekly report', text: 'mine' })).status).toBe(200);
    expect((await ownCreate({ name: 'Alpha', text: 'the admin’s own' }, admin)).status).toBe(200);
    // Renaming onto a name in use is the same 409.
    const zeta = ((await listOwn()).body.items as { id: number; name: string }[]).find((p) => p.name === 'zeta notes')!;
    const rename = await client.call(`/prompts/${zeta.id}/`, { method: 'PATCH', token: member, body: { name: 'alpha' } });
    expect(rename.status).toBe(409);
  });

  it('validates names, texts and variables with the contract’s rules (400, never 5xx)', async () => {
    const bad = [
      { name: '', text: 'x' },
      { name: '   ', text: 'x' },
      { name: 'x'.repeat(PROMPT_NAME_MAX + 1), text: 'x' },
      { name: 'two\nlines', text: 'x' },
      { name: 'ok', text: '' },
      { name: 'ok', text: 'x'.repeat(PROMPT_TEXT_MAX + 1) },
      { name: 'ok', text: 'Hello {{two words}}' },
      { name: 'ok', text: 'Hello {{}}' },
      { name: 'ok', text: 'Hello {{1st}}' },
      { name: 'ok', text: Array.from({ length: 11 }, (_, i) => `{{v${i}}}`).join(' ') },
      { name: 'ok', text: 'x', extra: true },
      { name: 'ok\ud800', text: 'x' },
    ];
    for (const body of bad) {
      const answer = await ownCreate(body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.code).toBe('validation_error');
    }
    expect((await adminCreate({ name: 'ok', text: '{{a b}}' })).status).toBe(400);
    // At the limits, and braces that are not placeholders, are fine.
    const edge = await ownCreate({ name: 'n'.repeat(PROMPT_NAME_MAX), text: `{ single } {{tone_2}} ${'x'.repeat(PROMPT_TEXT_MAX - 40)}` });
    expect(edge.status).toBe(200);
    expect(edge.body.variables).toEqual(['tone_2']);
  });

  it('members change only their own prompts: a tenant prompt or another member’s is a 404, through the member endpoints and the admin ones', async () => {
    const tenantPrompt = (await client.call('/admin/prompts/', { token: admin })).body.items[0];
    const adminsOwn = ((await listOwn(admin)).body.items as { id: number; scope: string }[]).find((p) => p.scope === 'personal')!;
    for (const id of [tenantPrompt.id, adminsOwn.id]) {
      expect((await client.call(`/prompts/${id}/`, { method: 'PATCH', token: member, body: { text: 'hijacked' } })).status).toBe(404);
      expect((await client.call(`/prompts/${id}/`, { method: 'DELETE', token: member })).status).toBe(404);
    }
    // The admin console's endpoints are admins' only, and address tenant prompts only.
    expect((await adminCreate({ name: 'sneaky', text: 'x' }, member)).status).toBe(403);
    expect((await client.call(`/admin/prompts/${tenantPrompt.id}/`, { method: 'PATCH', token: member, body: { text: 'x' } })).status).toBe(403);
    const membersOwn = ((await listOwn()).body.items as { id: number; scope: string }[]).find((p) => p.scope === 'personal')!;
    expect((await client.call(`/admin/prompts/${membersOwn.id}/`, { method: 'PATCH', token: admin, body: { text: 'x' } })).status).toBe(404);
    expect((await client.call(`/admin/prompts/${membersOwn.id}/`, { method: 'DELETE', token: admin })).status).toBe(404);
    // Another tenant's admin and member, by id: not found.
    expect((await client.call(`/admin/prompts/${tenantPrompt.id}/`, { method: 'DELETE', token: acmeAdmin, tenant: 'acme' })).status).toBe(404);
    expect((await client.call(`/prompts/${membersOwn.id}/`, { method: 'DELETE', token: acmeMember, tenant: 'acme' })).status).toBe(404);
    const [stored] = await server.db.select().from(prompts).where(eq(prompts.id, tenantPrompt.id));
    expect(stored!.text).toBe(tenantPrompt.text);
  });

  it('edits and deletes: the member’s own, and the tenant’s by an admin (audited)', async () => {
    const own = ((await listOwn()).body.items as { id: number; name: string }[]).find((p) => p.name === 'Alpha')!;
    const edited = await client.call(`/prompts/${own.id}/`, { method: 'PATCH', token: member, body: { text: 'Now with {{tone}}' } });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ name: 'Alpha', text: 'Now with {{tone}}', variables: ['tone'] });
    expect((await client.call(`/prompts/${own.id}/`, { method: 'PATCH', token: member, body: {} })).status).toBe(400);
    expect((await client.call(`/prompts/${own.id}/`, { method: 'DELETE', token: member })).body).toEqual({ ok: true });
    expect((await client.call(`/prompts/${own.id}/`, { method: 'DELETE', token: member })).status).toBe(404);

    const tenantPrompt = (await adminCreate({ name: 'Translate', text: 'Translate into {{language}}' })).body;
    const renamed = await client.call(`/admin/prompts/${tenantPrompt.id}/`, { method: 'PATCH', token: admin, body: { name: 'Translate text' } });
    expect(renamed.body).toMatchObject({ name: 'Translate text', scope: 'tenant' });
    expect((await client.call(`/admin/prompts/${tenantPrompt.id}/`, { method: 'DELETE', token: admin })).status).toBe(200);
    const actions = (
      await server.db
        .select()
        .from(auditLog)
        .where(eq(auditLog.targetId, String(tenantPrompt.id)))
    ).map((row) => row.action);
    expect(actions.sort()).toEqual(['prompt.create', 'prompt.delete', 'prompt.update']);
    // The admin console's search looks in names and texts.
    const search = await client.call('/admin/prompts/?search_term=audience', { token: admin });
    expect(search.body.items.map((p: { name: string }) => p.name)).toEqual(['Weekly report']);
  });

  it(`stops a member at ${PERSONAL_PROMPTS_MAX} personal prompts with 422`, async () => {
    const [owner] = await server.db.select({ memberId: prompts.memberId, tenantId: prompts.tenantId }).from(prompts).where(eq(prompts.name, 'zeta notes'));
    const have = (await listOwn()).body.items.filter((p: { scope: string }) => p.scope === 'personal').length;
    await server.db.insert(prompts).values(
      Array.from({ length: PERSONAL_PROMPTS_MAX - have }, (_, i) => ({
        tenantId: owner!.tenantId,
        memberId: owner!.memberId,
        name: `filler ${i}`,
        text: 'x',
      })),
    );
    const over = await ownCreate({ name: 'one too many', text: 'x' });
    expect(over.status).toBe(422);
    expect(over.body).toMatchObject({ code: 'prompt_limit_reached', details: { limit: PERSONAL_PROMPTS_MAX } });
  });

  it('publishes the endpoints in the OpenAPI document with their access level', async () => {
    const doc = (await client.call('/openapi.json')).body;
    expect(doc.paths['/api/v1/prompts/'].post['x-access']).toBe('member');
    expect(doc.paths['/api/v1/admin/prompts/{id}/'].patch['x-access']).toBe('admin');
    expect(Object.keys(doc.paths['/api/v1/prompts/'].post.responses)).toEqual(expect.arrayContaining(['200', '409', '422']));
  });
});
