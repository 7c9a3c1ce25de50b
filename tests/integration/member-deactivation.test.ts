import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, chatbots, llmModels, members, tenants } from '../../src/server/db/schema';
import { hashPassword } from '../../src/server/domains/auth/service';
import { DEMO_ADMIN, DEMO_MEMBER, type TestServer, startTestServer } from '../fixtures/testServer';
import { apiClient } from './helpers/client';

let server: TestServer;
let api: ReturnType<typeof apiClient>;
let adminToken: string;
let adminId: number;
let memberToken: string;
let tenantId: number;
let passwordHash: string;
const PASSWORD = 'Password!123';

/** An approved member of the demo tenant (or another status), signed in with PASSWORD. */
async function addMember(email: string, status: 'approved' | 'pending' = 'approved', tenant = tenantId) {
  const [row] = await server.db
    .insert(members)
    .values({ tenantId: tenant, email, name: email.split('@')[0]!, passwordHash, status })
    .returning();
  return row!;
}

const setStatus = (id: number, memberStatus: string, token = adminToken) =>
  api.call(`/admin/members/${id}/`, { method: 'PATCH', token, body: { member_status: memberStatus } });
const signInAs = (email: string) =>
  api.call('/auth/sign-in/', { method: 'POST', body: { email, password: PASSWORD }, headers: { 'x-client-kind': 'desktop' } });

beforeAll(async () => {
  server = await startTestServer({ extraTenants: ['acme'] });
  api = apiClient(server);
  ({
    access_token: adminToken,
    member: { id: adminId },
  } = await api.signIn(DEMO_ADMIN));
  memberToken = (await api.signIn(DEMO_MEMBER)).access_token;
  const [demo] = await server.db.select().from(tenants).where(eq(tenants.subdomain, 'demo'));
  tenantId = demo!.id;
  passwordHash = await hashPassword(PASSWORD);
});
afterAll(() => server?.close());

describe('deactivating a member (PATCH /admin/members/{id}/ member_status)', () => {
  it('stops their sessions, refresh, sign-in, API keys and public chatbot at the next request; reactivation lets them sign in again', async () => {
    const target = await addMember('leaving@demo.test');
    const session = await api.signIn({ email: target.email, password: PASSWORD });
    const token = session.access_token;
    const key = await api.call('/apikeys/', {
      method: 'POST',
      token,
      body: { name: 'Leaving bot', chatbot_ids: [(await api.call('/chatbots/?include_default=true', { token })).body.items[0].id] },
    });
    expect(key.status).toBe(200);
    // A chatbot of theirs, published: the whole tenant and visitors use it.
    const [model] = await server.db
      .select()
      .from(llmModels)
      .where(and(eq(llmModels.tenantId, tenantId), eq(llmModels.name, 'swift-lite')));
    const [bot] = await server.db
      .insert(chatbots)
      .values({
        tenantId,
        hashId: 'leaving-bot',
        enName: 'Leaving Bot',
        koName: '떠나는 봇',
        llmModelId: model!.id,
        creatorId: target.id,
        isPublic: true,
        publishStatus: 'approved',
      })
      .returning();
    const apiKeyCall = () => api.call('/openai/models', { headers: { authorization: `Bearer ${key.body.key}` } });
    expect((await api.call('/chatbots/', { token })).status).toBe(200);
    expect((await apiKeyCall()).status).toBe(200);
    expect((await api.call(`/chatbots/${bot!.id}/`, { token: memberToken })).status).toBe(200);
    expect((await api.call('/public/chatbots/leaving-bot/')).status).toBe(200);

    const deactivated = await setStatus(target.id, 'deactivated');
    expect(deactivated.status).toBe(200);
    expect(deactivated.body.member_status).toBe('deactivated');
    const [audit] = await server.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'member.status'), eq(auditLog.targetId, String(target.id))));
    expect(audit).toMatchObject({ actorId: adminId, changes: { member_status: { from: 'approved', to: 'deactivated' } } });

    // The very next request of each kind.
    const refused = await api.call('/chatbots/', { token });
    expect([refused.status, refused.body.code]).toEqual([403, 'account_deactivated']);
    const refresh = await api.call('/auth/refresh/', {
      method: 'POST',
      body: { refresh_token: session.refresh_token },
      headers: { 'x-client-kind': 'desktop' },
    });
    expect([refresh.status, refresh.body.code]).toEqual([403, 'account_deactivated']);
    const signIn = await signInAs(target.email);
    expect([signIn.status, signIn.body.code]).toEqual([403, 'account_deactivated']);
    const keyRefused = await apiKeyCall();
    expect([keyRefused.status, keyRefused.body.error?.code]).toEqual([401, 'invalid_api_key']);
    expect((await api.call(`/chatbots/${bot!.id}/`, { token: memberToken })).status).toBe(404);
    expect((await api.call('/chatbots/?is_public=true', { token: memberToken })).body.items.map((item: { id: number }) => item.id)).not.toContain(bot!.id);
    expect((await api.call('/public/chatbots/leaving-bot/')).status).toBe(404);
    // The admin still sees and manages them.
    expect((await api.call(`/admin/members/${target.id}/`, { token: adminToken })).body.member_status).toBe('deactivated');

    // Reactivated: a new sign-in works and the chatbot is back; the old session stays ended.
    const reactivated = await setStatus(target.id, 'approved');
    expect([reactivated.status, reactivated.body.member_status]).toEqual([200, 'approved']);
    const again = await signInAs(target.email);
    expect(again.status).toBe(200);
    expect((await api.call('/chatbots/', { token: again.body.access_token })).status).toBe(200);
    expect((await api.call('/chatbots/', { token })).status).toBe(401);
    expect((await apiKeyCall()).status).toBe(200);
    expect((await api.call(`/chatbots/${bot!.id}/`, { token: memberToken })).status).toBe(200);
    const audits = await server.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'member.status'), eq(auditLog.targetId, String(target.id))));
    expect(audits.map((row) => row.changes)).toEqual([
      { member_status: { from: 'approved', to: 'deactivated' } },
      { member_status: { from: 'deactivated', to: 'approved' } },
    ]);
  });

  it('refuses one’s own account, a member still pending (422), another tenant’s member (404), a member (403), an unknown status (400)', async () => {
    expect([(await setStatus(adminId, 'deactivated')).status, (await setStatus(adminId, 'deactivated')).body.code]).toEqual([422, 'own_account']);
    const pending = await addMember('waiting@demo.test', 'pending');
    expect((await setStatus(pending.id, 'deactivated')).status).toBe(422);
    expect((await setStatus(pending.id, 'approved')).status).toBe(422);
    const [acme] = await server.db.select().from(tenants).where(eq(tenants.subdomain, 'acme'));
    const stranger = await addMember('stranger@acme.test', 'approved', acme!.id);
    expect((await setStatus(stranger.id, 'deactivated')).status).toBe(404);
    expect((await setStatus(pending.id, 'deactivated', memberToken)).status).toBe(403);
    expect((await setStatus(pending.id, 'rejected')).status).toBe(400);
    const rows = await server.db.select().from(members).where(eq(members.id, stranger.id));
    expect(rows[0]!.status).toBe('approved');
  });
});

describe('bulk (PATCH /admin/members/bulk/ member_status)', () => {
  it('deactivates the approved members among the ids and reactivates them, skipping others; all sessions end', async () => {
    const first = await addMember('bulk-one@demo.test');
    const second = await addMember('bulk-two@demo.test');
    const pending = await addMember('bulk-pending@demo.test', 'pending');
    const [acme] = await server.db.select().from(tenants).where(eq(tenants.subdomain, 'acme'));
    const stranger = await addMember('bulk-stranger@acme.test', 'approved', acme!.id);
    const tokens = [
      (await api.signIn({ email: first.email, password: PASSWORD })).access_token,
      (await api.signIn({ email: second.email, password: PASSWORD })).access_token,
    ];
    const ids = [first.id, second.id, pending.id, stranger.id];

    const bulk = (memberStatus: string, memberIds = ids) =>
      api.call('/admin/members/bulk/', { method: 'PATCH', token: adminToken, body: { member_ids: memberIds, member_status: memberStatus } });
    const deactivated = await bulk('deactivated');
    expect([deactivated.status, deactivated.body]).toEqual([200, { updated: 2 }]);
    for (const token of tokens) expect((await api.call('/chatbots/', { token })).body.code).toBe('account_deactivated');
    const statuses = async () =>
      (await server.db.select().from(members).where(eq(members.tenantId, tenantId)))
        .filter((row) => ids.includes(row.id))
        .map((row) => [row.email, row.status]);
    expect(await statuses()).toEqual(
      expect.arrayContaining([
        ['bulk-one@demo.test', 'deactivated'],
        ['bulk-two@demo.test', 'deactivated'],
        ['bulk-pending@demo.test', 'pending'],
      ]),
    );
    expect((await server.db.select().from(members).where(eq(members.id, stranger.id)))[0]!.status).toBe('approved');
    expect(
      (await server.db.select().from(auditLog).where(eq(auditLog.action, 'member.status'))).filter((row) => ids.map(String).includes(row.targetId!)),
    ).toHaveLength(2);

    // Their own account among the ids: nothing changes.
    const own = await bulk('approved', [first.id, adminId]);
    expect([own.status, own.body.code]).toEqual([422, 'own_account']);
    expect((await server.db.select().from(members).where(eq(members.id, first.id)))[0]!.status).toBe('deactivated');

    expect((await bulk('approved')).body).toEqual({ updated: 2 });
    expect((await signInAs(first.email)).status).toBe(200);
    // Neither field: 400.
    expect((await api.call('/admin/members/bulk/', { method: 'PATCH', token: adminToken, body: { member_ids: ids } })).status).toBe(400);
  });
});
