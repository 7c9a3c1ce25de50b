import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  chatbotMemberGroups,
  chatbots,
  documentChunks,
  files,
  llmModels,
  memberGroupLinks,
  memberGroups,
  members,
  modelGroupPermissions,
  recentChatbots,
  tenants,
  usageRecords,
} from '../../src/server/db/schema';
import type { MemberRow } from '../../src/server/db/rows';
import { samplePng } from '../fixtures/sampleFiles';
import { DEMO_ADMIN, DEMO_MEMBER, type TestServer, startTestServer } from '../fixtures/testServer';
import { apiClient, readFrames } from './helpers/client';
import { fastJobSettings } from './helpers/crashJobs';

/**
 * The Studio's server side (issue 9): create, edit, delete, public link, access and documents of a
 * member's own chatbots, who may change them, and who sees them (spec §6).
 */
let server: TestServer;
let api: ReturnType<typeof apiClient>;
/** Tokens: the author (demo member), a colleague in the same group, a member of another group only, an admin, and the member of another tenant. */
const tokens = { author: '', colleague: '', outsider: '', admin: '', acme: '' };
let tenantId: number;
let defaultGroupId: number;
let salesGroupId: number;
let models: { lite: number; pro: number; deep: number };

type Token = keyof typeof tokens;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- arbitrary JSON, checked by the assertions
type Json = any;

const call = (who: Token | undefined, path: string, method = 'GET', body?: unknown) =>
  api.call(path, { method, token: who ? tokens[who] : undefined, tenant: who === 'acme' ? 'acme' : undefined, ...(body === undefined ? {} : { body }) });

async function create(who: Token = 'author') {
  const created = await call(who, '/chatbots/', 'POST');
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  return created.body as { id: number; hash_id: string; [key: string]: unknown };
}

/** A named chatbot of `who` (a nameless one is a draft). */
async function named(who: Token = 'author', name = 'Tax helper') {
  const chatbot = await create(who);
  expect((await call(who, `/chatbots/${chatbot.id}/`, 'PATCH', { en_name: name })).status).toBe(200);
  return chatbot;
}

async function upload(who: Token, path: string, parts: { name: string; bytes: Buffer; type?: string }[], fields: Record<string, string> = {}) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  for (const part of parts) form.append('files', new Blob([new Uint8Array(part.bytes)], { type: part.type ?? 'application/octet-stream' }), part.name);
  const response = await fetch(`${server.apiBase}${path}`, { method: 'POST', headers: { 'x-access-token': tokens[who] }, body: form });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- arbitrary JSON, checked by the assertions
  return { status: response.status, body: (await response.json()) as any };
}

/** Another member of the demo tenant (the demo member's password) in `groupId` only. */
async function addMember(email: string, groupId: number): Promise<string> {
  const [{ id: _id, createdAt: _created, updatedAt: _updated, ...demo }] = (await server.db
    .select()
    .from(members)
    .where(eq(members.email, DEMO_MEMBER.email))) as [MemberRow];
  const [row] = await server.db
    .insert(members)
    .values({ ...demo, email, name: email.split('@')[0]!, defaultMemberGroupId: groupId })
    .returning();
  await server.db.insert(memberGroupLinks).values({ tenantId, memberId: row!.id, memberGroupId: groupId });
  return (await api.signIn({ email, password: DEMO_MEMBER.password })).access_token;
}

beforeAll(async () => {
  server = await startTestServer({ extraTenants: ['acme'], config: fastJobSettings });
  api = apiClient(server);
  const [tenant] = await server.db.select().from(tenants).where(eq(tenants.subdomain, 'demo'));
  tenantId = tenant!.id;
  const [group] = await server.db.select().from(memberGroups).where(eq(memberGroups.tenantId, tenantId));
  defaultGroupId = group!.id;
  const [sales] = await server.db.insert(memberGroups).values({ tenantId, koName: '영업', enName: 'Sales' }).returning();
  salesGroupId = sales!.id;
  const modelRows = await server.db.select().from(llmModels).where(eq(llmModels.tenantId, tenantId));
  const modelId = (name: string) => modelRows.find((row) => row.name === name)!.id;
  models = { lite: modelId('swift-lite'), pro: modelId('balanced-pro'), deep: modelId('deep-reasoner') };
  tokens.author = (await api.signIn(DEMO_MEMBER)).access_token;
  tokens.admin = (await api.signIn(DEMO_ADMIN)).access_token;
  tokens.acme = (await api.signIn(DEMO_MEMBER, 'acme')).access_token;
  tokens.colleague = await addMember('colleague@demo.test', defaultGroupId);
  tokens.outsider = await addMember('outsider@demo.test', salesGroupId);
});
afterAll(() => server?.close());

describe('POST /chatbots/', () => {
  it('makes a nameless draft of the member on the first full-size model their groups may use', async () => {
    const draft = await create();
    expect(draft).toMatchObject({
      en_name: '',
      ko_name: '',
      status: 'draft',
      is_public: false,
      is_default: false,
      waiting_publish: false,
      publish_status: 'none',
      public_hash_id: null,
      member_group_ids: [],
      documents: [],
      categories: [],
      profile_image_url: null,
      llm_model: { id: models.pro, is_available: true },
      creator: { name: 'Demo Member' },
    });
    expect(draft.hash_id).toMatch(/^[\w-]{16}$/);
    // Only the unlimited model for a group without permissions: the low-tier one is the only choice.
    expect((await create('outsider')).llm_model).toMatchObject({ id: models.lite });
    expect((await call(undefined, '/chatbots/', 'POST')).status).toBe(401);
    expect((await call('author', '/chatbots/', 'POST', { description: 'x' })).status).toBe(400);
  });

  it('makes the chatbot with the name the member gave first, trimmed: private, not a draft', async () => {
    const english = await call('author', '/chatbots/', 'POST', { en_name: '  Library guide ' });
    expect(english.status).toBe(200);
    expect(english.body).toMatchObject({ en_name: 'Library guide', ko_name: '', status: 'private', is_public: false, member_group_ids: [] });
    expect((await call('author', '/chatbots/', 'POST', { ko_name: '도서관 안내' })).body).toMatchObject({ ko_name: '도서관 안내', en_name: '' });
    expect((await call('author', '/chatbots/', 'POST', { en_name: 'x'.repeat(101) })).status).toBe(400);
    expect((await call('author', '/chatbots/', 'POST', { en_name: 42 })).status).toBe(400);
  });
});

describe('PATCH /chatbots/{id}/', () => {
  it('saves every editor field and only those sent', async () => {
    const { id } = await create();
    const [writing, research] = (await call('author', '/categories/')).body.items as { id: number }[];
    const saved = await call('author', `/chatbots/${id}/`, 'PATCH', {
      ko_name: '세금 도우미',
      en_name: '  Tax helper  ',
      ko_key_features: '세금 질문',
      en_key_features: 'Answers tax questions',
      system_instructions: 'Be precise.',
      temperature: 1.5,
      top_p: 0.45,
      llm_model_id: models.deep,
      category_ids: [writing!.id, research!.id, writing!.id],
      public_hash_id: 'tax-helper',
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body).toMatchObject({
      ko_name: '세금 도우미',
      en_name: 'Tax helper',
      ko_key_features: '세금 질문',
      en_key_features: 'Answers tax questions',
      system_instructions: 'Be precise.',
      temperature: 1.5,
      top_p: 0.45,
      llm_model: { id: models.deep },
      public_hash_id: 'tax-helper',
      status: 'private',
    });
    expect(saved.body.categories.map((c: { id: number }) => c.id).sort()).toEqual([writing!.id, research!.id].sort());

    const again = await call('author', `/chatbots/${id}/`, 'PATCH', { temperature: 0, category_ids: [], public_hash_id: null });
    expect(again.body).toMatchObject({ temperature: 0, top_p: 0.45, en_name: 'Tax helper', categories: [], public_hash_id: null });
    expect((await call('author', `/chatbots/${id}/`)).body).toMatchObject({ temperature: 0, system_instructions: 'Be precise.' });
  });

  it('refuses values out of range (400), unknown categories (422), models the groups may not use (403) and a taken public link (409)', async () => {
    const { id } = await create();
    for (const body of [
      { temperature: 2.1 },
      { top_p: -0.1 },
      { en_name: 'x'.repeat(101) },
      { public_hash_id: 'No Spaces' },
      { is_public: true },
      { llm_model_id: 'abc' },
    ]) {
      expect((await call('author', `/chatbots/${id}/`, 'PATCH', body)).status, JSON.stringify(body)).toBe(400);
    }
    const [acmeCategory] = (await call('acme', '/categories/')).body.items as { id: number }[];
    expect(await call('author', `/chatbots/${id}/`, 'PATCH', { category_ids: [acmeCategory!.id] })).toMatchObject({ status: 422 });
    expect(await call('author', `/chatbots/${id}/`, 'PATCH', { category_ids: [999_999] })).toMatchObject({ status: 422 });

    await server.db.update(modelGroupPermissions).set({ isAvailable: false }).where(eq(modelGroupPermissions.llmModelId, models.deep));
    try {
      expect(await call('author', `/chatbots/${id}/`, 'PATCH', { llm_model_id: models.deep })).toMatchObject({
        status: 403,
        body: { code: 'model_not_allowed' },
      });
      const otherTenantModel = (await server.db.select().from(llmModels)).find((row) => row.tenantId !== tenantId)!;
      expect(await call('author', `/chatbots/${id}/`, 'PATCH', { llm_model_id: otherTenantModel.id })).toMatchObject({ status: 403 });
      // The unlimited model is always allowed.
      expect((await call('author', `/chatbots/${id}/`, 'PATCH', { llm_model_id: models.lite })).body.llm_model.id).toBe(models.lite);
    } finally {
      await server.db.update(modelGroupPermissions).set({ isAvailable: true }).where(eq(modelGroupPermissions.llmModelId, models.deep));
    }

    const other = await create();
    expect((await call('author', `/chatbots/${other.id}/`, 'PATCH', { public_hash_id: 'first-link' })).status).toBe(200);
    expect(await call('author', `/chatbots/${id}/`, 'PATCH', { public_hash_id: 'first-link' })).toMatchObject({ status: 409, body: { code: 'conflict' } });
    // Saving its own link again is no conflict.
    expect((await call('author', `/chatbots/${other.id}/`, 'PATCH', { public_hash_id: 'first-link' })).status).toBe(200);
  });

  it('takes an uploaded image as the picture, served without a token, and removes the picture it replaces', async () => {
    const { id, hash_id } = await create();
    const picture = await upload('author', '/files/', [{ name: 'face.png', bytes: samplePng(), type: 'image/png' }], { chatbot_id: String(id) });
    const saved = await call('author', `/chatbots/${id}/`, 'PATCH', { profile_image_file_id: picture.body.items[0].id });
    expect(saved.status).toBe(200);
    const url = saved.body.profile_image_url as string;
    expect(url).toBe(`/api/v1/public/chatbots/${hash_id}/files/${picture.body.items[0].id}/`);
    const image = await fetch(`${server.url}${url}`);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await image.arrayBuffer()).equals(samplePng())).toBe(true);
    const [row] = await server.db.select().from(files).where(eq(files.id, picture.body.items[0].id));
    expect(row).toMatchObject({ chatbotId: id, accessLevel: 'public', shouldExpire: false, expiresAt: null });

    const text = await upload('author', '/files/', [{ name: 'notes.txt', bytes: Buffer.from('notes') }]);
    expect(await call('author', `/chatbots/${id}/`, 'PATCH', { profile_image_file_id: text.body.items[0].id })).toMatchObject({ status: 422 });
    const adminPicture = await upload('admin', '/files/', [{ name: 'admin.png', bytes: samplePng(), type: 'image/png' }]);
    expect(await call('author', `/chatbots/${id}/`, 'PATCH', { profile_image_file_id: adminPicture.body.items[0].id })).toMatchObject({ status: 422 });

    const next = await upload('author', '/files/', [{ name: 'face2.png', bytes: samplePng(), type: 'image/png' }]);
    expect((await call('author', `/chatbots/${id}/`, 'PATCH', { profile_image_file_id: next.body.items[0].id })).status).toBe(200);
    expect((await fetch(`${server.url}${url}`)).status).toBe(404);
    expect(await server.db.select().from(files).where(eq(files.id, picture.body.items[0].id))).toEqual([]);
    const removed = await call('author', `/chatbots/${id}/`, 'PATCH', { profile_image_file_id: null });
    expect(removed.body.profile_image_url).toBeNull();
  });
});

describe('who may change a chatbot', () => {
  it('lets only the author or an admin change or delete it: 403 for one who sees it, 404 for one who does not, or of another tenant', async () => {
    const mine = await named();
    const paths: [string, string, unknown?][] = [
      [`/chatbots/${mine.id}/`, 'PATCH', { en_name: 'Mine now' }],
      [`/chatbots/${mine.id}/access/`, 'PATCH', { is_public: false, member_group_ids: [] }],
      [`/chatbots/${mine.id}/check-public-hash/`, 'POST', { public_hash_id: 'some-link' }],
      [`/chatbots/${mine.id}/documents/1/`, 'DELETE'],
      [`/chatbots/${mine.id}/`, 'DELETE'],
    ];
    // Private: nobody else sees it.
    for (const [path, method, body] of paths) {
      expect((await call('colleague', path, method, body)).status, `${method} ${path}`).toBe(404);
      expect((await call('acme', path, method, body)).status, `${method} ${path}`).toBe(404);
    }
    // Shared with the colleague's group: they see it, but may not change it.
    expect((await call('author', `/chatbots/${mine.id}/access/`, 'PATCH', { is_public: false, member_group_ids: [defaultGroupId] })).status).toBe(200);
    for (const [path, method, body] of paths) expect((await call('colleague', path, method, body)).status, `${method} ${path}`).toBe(403);
    expect((await call('outsider', `/chatbots/${mine.id}/`, 'PATCH', { en_name: 'x' })).status).toBe(404);
    expect(await upload('colleague', `/chatbots/${mine.id}/documents/`, [{ name: 'a.txt', bytes: Buffer.from('a') }])).toMatchObject({ status: 403 });
    expect((await call('author', `/chatbots/${mine.id}/`)).body.en_name).toBe('Tax helper');

    // An admin changes anyone's, even one they do not see in lists.
    const colleagues = await named('colleague', 'Colleague bot');
    expect((await call('admin', `/chatbots/${colleagues.id}/`)).status).toBe(404);
    expect((await call('admin', `/chatbots/${colleagues.id}/`, 'PATCH', { en_name: 'Renamed by admin' })).body.en_name).toBe('Renamed by admin');
    expect((await call('admin', `/chatbots/${colleagues.id}/`, 'DELETE')).body).toEqual({ ok: true });
    expect((await call('colleague', `/chatbots/${colleagues.id}/`)).status).toBe(404);
  });

  it('keeps default chatbots for admins', async () => {
    const list = await call('author', '/chatbots/?include_default=true');
    const general = list.body.items.find((bot: { en_name: string }) => bot.en_name === 'General Assistant');
    expect((await call('author', `/chatbots/${general.id}/`, 'PATCH', { en_name: 'Mine' })).status).toBe(403);
    expect((await call('author', `/chatbots/${general.id}/`, 'DELETE')).status).toBe(403);
    expect((await call('admin', `/chatbots/${general.id}/`, 'PATCH', { ko_key_features: '무엇이든' })).status).toBe(200);
  });
});

describe('DELETE /chatbots/{id}/ and POST /chatbots/{id}/check-public-hash/', () => {
  it('deletes the chatbot with its picture; it is gone for everyone', async () => {
    const { id } = await named();
    const picture = await upload('author', '/files/', [{ name: 'face.png', bytes: samplePng(), type: 'image/png' }]);
    await call('author', `/chatbots/${id}/`, 'PATCH', { profile_image_file_id: picture.body.items[0].id });
    expect((await call('author', `/chatbots/${id}/`, 'DELETE')).body).toEqual({ ok: true });
    expect((await call('author', `/chatbots/${id}/`)).status).toBe(404);
    expect((await call('author', `/chatbots/${id}/`, 'DELETE')).status).toBe(404);
    expect(await server.db.select().from(chatbots).where(eq(chatbots.id, id))).toEqual([]);
    expect(await server.db.select().from(files).where(eq(files.id, picture.body.items[0].id))).toEqual([]);
  });

  it('says whether a public link is free: taken by another chatbot’s link or hash id, free for its own', async () => {
    const { id } = await named();
    const other = await named();
    await call('author', `/chatbots/${other.id}/`, 'PATCH', { public_hash_id: 'taken-link' });
    const check = (hash: string, chatbotId = id) => call('author', `/chatbots/${chatbotId}/check-public-hash/`, 'POST', { public_hash_id: hash });
    expect((await check('free-link')).body).toEqual({ is_available: true });
    expect((await check('taken-link')).body).toEqual({ is_available: false });
    expect((await check('taken-link', other.id)).body).toEqual({ is_available: true });
    expect((await check('demo-default-1')).body).toEqual({ is_available: false });
    expect((await check('Bad Link')).status).toBe(400);
    expect((await check('free-link', 999_999)).status).toBe(404);
  });
});

/** A chat send; the frames of its stream, or the error body. */
async function send(who: Token, chatbotId: number, body: Record<string, unknown>) {
  const response = await fetch(`${server.apiBase}/chatbots/${chatbotId}/chat/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-access-token': tokens[who] },
    body: JSON.stringify(body),
  });
  if (response.status !== 200) return { status: response.status, body: await response.json(), frames: [] as Json[], meta: null };
  const meta = JSON.parse(response.headers.get('x-chat-meta') ?? 'null') as { session_hash_id: string } | null;
  return { status: 200, body: null, frames: await readFrames(response), meta };
}

const listedIds = async (who: Token, query = '') =>
  ((await call(who, `/chatbots/?size=100&include_default=true${query}`)).body.items as { id: number }[]).map((bot) => bot.id);

describe('PATCH /chatbots/{id}/access/ and who sees a chatbot', () => {
  it('shares with groups at once, asks an admin to publish, and makes it private again', async () => {
    const { id } = await named('author', 'Shared bot');
    const access = (body: unknown) => call('author', `/chatbots/${id}/access/`, 'PATCH', body);
    const sees = async (who: Token) => (await listedIds(who)).includes(id) && (await call(who, `/chatbots/${id}/`)).status === 200;
    const [writing, research] = (await call('author', '/categories/')).body.items as { id: number }[];

    expect([await sees('author'), await sees('colleague'), await sees('outsider'), await sees('admin')]).toEqual([true, false, false, false]);

    const shared = await access({ is_public: false, member_group_ids: [salesGroupId], category_id: writing!.id });
    expect(shared.body).toMatchObject({
      status: 'shared',
      member_group_ids: [salesGroupId],
      is_public: false,
      waiting_publish: false,
      categories: [{ id: writing!.id }],
    });
    expect([await sees('colleague'), await sees('outsider')]).toEqual([false, true]);
    expect((await call('outsider', `/chatbots/${id}/`)).body.en_name).toBe('Shared bot');

    const asked = await access({ is_public: true, member_group_ids: [], category_id: research!.id });
    expect(asked.body).toMatchObject({
      status: 'pending',
      is_public: false,
      waiting_publish: true,
      publish_status: 'pending',
      member_group_ids: [],
      categories: [{ id: research!.id }],
    });
    // Pending is not public yet: nobody else sees it until an admin approves.
    expect([await sees('colleague'), await sees('outsider')]).toEqual([false, false]);

    // An admin approves (the publish helper's endpoint does this): the whole tenant sees it.
    await server.db.update(chatbots).set({ isPublic: true, waitingPublish: false, publishStatus: 'approved' }).where(eq(chatbots.id, id));
    expect([await sees('colleague'), await sees('outsider'), await sees('admin')]).toEqual([true, true, true]);
    expect((await call('acme', `/chatbots/${id}/`)).status).toBe(404);
    // Asking again leaves a public chatbot public.
    expect((await access({ is_public: true, member_group_ids: [] })).body).toMatchObject({
      status: 'public',
      is_public: true,
      categories: [{ id: research!.id }],
    });

    const private_ = await access({ is_public: false, member_group_ids: [], category_id: null });
    expect(private_.body).toMatchObject({
      status: 'private',
      is_public: false,
      waiting_publish: false,
      publish_status: 'none',
      publish_feedback: null,
      categories: [],
    });
    expect([await sees('author'), await sees('colleague'), await sees('outsider'), await sees('admin')]).toEqual([true, false, false, false]);
  });

  it('refuses groups and categories that are not the tenant’s (422), and a nameless draft (422)', async () => {
    const { id } = await named();
    const otherTenantGroup = (await server.db.select().from(memberGroups)).find((group) => group.tenantId !== tenantId)!;
    expect((await call('author', `/chatbots/${id}/access/`, 'PATCH', { is_public: false, member_group_ids: [otherTenantGroup.id] })).status).toBe(422);
    expect((await call('author', `/chatbots/${id}/access/`, 'PATCH', { is_public: false, member_group_ids: [999_999] })).status).toBe(422);
    const [acmeCategory] = (await call('acme', '/categories/')).body.items as { id: number }[];
    expect((await call('author', `/chatbots/${id}/access/`, 'PATCH', { is_public: false, member_group_ids: [], category_id: acmeCategory!.id })).status).toBe(
      422,
    );
    expect((await call('author', `/chatbots/${id}/access/`, 'PATCH', { is_public: false })).status).toBe(400);
    expect((await call('author', `/chatbots/${id}/`)).body.member_group_ids).toEqual([]);

    const draft = await create();
    expect((await call('author', `/chatbots/${draft.id}/access/`, 'PATCH', { is_public: true, member_group_ids: [] })).status).toBe(422);
    expect((await call('author', `/chatbots/${draft.id}/access/`, 'PATCH', { is_public: false, member_group_ids: [defaultGroupId] })).status).toBe(422);
    expect((await call('author', `/chatbots/${draft.id}/access/`, 'PATCH', { is_public: false, member_group_ids: [] })).body.status).toBe('draft');
  });

  it('shows default chatbots to everyone, or only to their groups when they have group rows', async () => {
    const defaults = (await call('author', '/chatbots/?include_default=true')).body.items.filter((bot: { is_default: boolean }) => bot.is_default);
    const general = defaults[0].id as number;
    expect(await listedIds('outsider')).toContain(general);
    await server.db.insert(chatbotMemberGroups).values({ tenantId, chatbotId: general, memberGroupId: defaultGroupId, isDefaultForGroup: true });
    try {
      expect(await listedIds('author')).toContain(general);
      expect(await listedIds('outsider')).not.toContain(general);
      expect((await call('outsider', `/chatbots/${general}/`)).status).toBe(404);
      expect((await send('outsider', general, { text: 'hello' })).status).toBe(404);
    } finally {
      await server.db.delete(chatbotMemberGroups).where(eq(chatbotMemberGroups.chatbotId, general));
    }
    // Other members' private chatbots never show, not even with a filter naming their creator.
    const hidden = await named('colleague', 'Hidden');
    expect(await listedIds('author', `&creator_id=${hidden.creator && (hidden.creator as { id: number }).id}`)).toEqual([]);
    expect((await send('author', hidden.id, { text: 'hello' })).status).toBe(404);
  });

  it('makes a chatbot unavailable to those who lose access: their sessions stay but the chatbot answers 404', async () => {
    const { id } = await named('author', 'Team bot');
    await call('author', `/chatbots/${id}/access/`, 'PATCH', { is_public: false, member_group_ids: [defaultGroupId] });
    const first = await send('colleague', id, { text: 'hello' });
    expect(first.status).toBe(200);
    const hash = first.meta!.session_hash_id;

    // The group is removed: the colleague's session is still theirs, the chatbot is not (the unavailable page).
    await call('author', `/chatbots/${id}/access/`, 'PATCH', { is_public: false, member_group_ids: [salesGroupId] });
    expect((await call('colleague', `/chatbots/${id}/`)).status).toBe(404);
    expect((await call('colleague', `/sessions/${hash}/`)).status).toBe(200);
    expect((await send('colleague', id, { text: 'again', session_hash_id: hash })).status).toBe(404);
    expect(await listedIds('colleague')).not.toContain(id);

    // Shared again, then deleted: gone with its sessions.
    await call('author', `/chatbots/${id}/access/`, 'PATCH', { is_public: false, member_group_ids: [defaultGroupId] });
    expect((await send('colleague', id, { text: 'back', session_hash_id: hash })).status).toBe(200);
    expect((await call('author', `/chatbots/${id}/`, 'DELETE')).status).toBe(200);
    expect((await call('colleague', `/chatbots/${id}/`)).status).toBe(404);
    expect((await call('colleague', `/sessions/${hash}/`)).status).toBe(404);
    expect((await send('colleague', id, { text: 'hello' })).status).toBe(404);
  });
});

const REFUND_POLICY = 'Enterprise invoices may be refunded within 45 days of purchase. Refunds after that window need a director approval.';

/** Waits for the file jobs to parse (and index) a document. */
async function parsedDocument(who: Token, chatbotId: number, documentId: number) {
  for (let attempt = 0; attempt < 200; attempt++) {
    const document = ((await call(who, `/chatbots/${chatbotId}/`)).body.documents as { id: number; status: string }[]).find((row) => row.id === documentId);
    if (document?.status !== 'parsing') return document;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`document ${documentId} was not parsed`);
}

describe('POST and DELETE /chatbots/{id}/documents/', () => {
  it('adds documents through the upload checks, parses and indexes them, and chats cite them', async () => {
    const { id } = await named('author', 'Refund helper');
    // A chat before the upload: the next one must not reuse the empty document list.
    expect((await send('author', id, { text: 'hello' })).frames.filter((frame) => frame.type === 'citation')).toEqual([]);
    const added = await upload('author', `/chatbots/${id}/documents/`, [
      { name: 'refunds.txt', bytes: Buffer.from(REFUND_POLICY), type: 'text/plain' },
      { name: 'contacts.csv', bytes: Buffer.from('team,email\nbilling,billing@example.test\n'), type: 'text/csv' },
    ]);
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    expect(added.body.items).toHaveLength(2);
    const [refunds] = added.body.items;
    expect(refunds).toMatchObject({ name: 'refunds.txt', size: REFUND_POLICY.length, status: 'parsing', parsed_percentage: 0 });
    expect(await parsedDocument('author', id, refunds.id)).toMatchObject({ status: 'parsed', parsed_percentage: 100, file_id: refunds.file_id });
    const [file] = await server.db.select().from(files).where(eq(files.id, refunds.file_id));
    expect(file).toMatchObject({ chatbotId: id, shouldExpire: false, expiresAt: null });
    expect(await server.db.select().from(documentChunks).where(eq(documentChunks.fileId, refunds.file_id))).not.toEqual([]);

    const answer = await send('author', id, { text: 'How many days is the refund window for enterprise invoices?' });
    expect(answer.status).toBe(200);
    const citations = answer.frames.filter((frame) => frame.type === 'citation').map((frame) => frame.citation);
    expect(citations[0]).toMatchObject({ kind: 'document', file_id: refunds.file_id, name: 'refunds.txt' });

    // The upload refusals of POST /files/: pictures are no knowledge (415), nor is a non-multipart body (400).
    expect(await upload('author', `/chatbots/${id}/documents/`, [{ name: 'face.png', bytes: samplePng(), type: 'image/png' }])).toMatchObject({ status: 415 });
    expect(await upload('author', `/chatbots/${id}/documents/`, [{ name: 'broken.pdf', bytes: Buffer.from('%PDF-1.7\nnot a pdf') }])).toMatchObject({
      status: 400,
    });
    expect(await upload('author', `/chatbots/${id}/documents/`, [])).toMatchObject({ status: 422 });
    expect((await call('author', `/chatbots/${id}/documents/`, 'POST', { files: [] })).status).toBe(400);
    expect(await upload('author', '/chatbots/999999/documents/', [{ name: 'a.txt', bytes: Buffer.from('a') }])).toMatchObject({ status: 404 });
    expect(await upload('acme', `/chatbots/${id}/documents/`, [{ name: 'a.txt', bytes: Buffer.from('a') }])).toMatchObject({ status: 401 });
    expect((await call('author', `/chatbots/${id}/`)).body.documents).toHaveLength(2);
  });

  it('removes a document with its file and passages; the chat no longer cites it', async () => {
    const { id } = await named('author', 'Forgetful helper');
    const added = await upload('author', `/chatbots/${id}/documents/`, [{ name: 'refunds.txt', bytes: Buffer.from(REFUND_POLICY) }]);
    const [document] = added.body.items;
    await parsedDocument('author', id, document.id);
    const other = await named();

    expect((await call('author', `/chatbots/${other.id}/documents/${document.id}/`, 'DELETE')).status).toBe(404);
    expect((await call('author', `/chatbots/${id}/documents/${document.id}/`, 'DELETE')).body).toEqual({ ok: true });
    expect((await call('author', `/chatbots/${id}/documents/${document.id}/`, 'DELETE')).status).toBe(404);
    expect((await call('author', `/chatbots/${id}/`)).body.documents).toEqual([]);
    expect(await server.db.select().from(files).where(eq(files.id, document.file_id))).toEqual([]);
    expect(await server.db.select().from(documentChunks).where(eq(documentChunks.fileId, document.file_id))).toEqual([]);
    const answer = await send('author', id, { text: 'How many days is the refund window for enterprise invoices?' });
    expect(answer.frames.filter((frame) => frame.type === 'citation')).toEqual([]);
  });

  it('deletes the documents’ files with the chatbot', async () => {
    const { id } = await named();
    const added = await upload('author', `/chatbots/${id}/documents/`, [{ name: 'refunds.txt', bytes: Buffer.from(REFUND_POLICY) }]);
    await parsedDocument('author', id, added.body.items[0].id);
    expect((await call('author', `/chatbots/${id}/`, 'DELETE')).status).toBe(200);
    expect(await server.db.select().from(files).where(eq(files.id, added.body.items[0].file_id))).toEqual([]);
  });
});

describe('test chats (is_test)', () => {
  it('lets the author test a draft with its documents, outside My chats, counters and recents, paid by the author like any send', async () => {
    const draft = await create();
    const added = await upload('author', `/chatbots/${draft.id}/documents/`, [{ name: 'refunds.txt', bytes: Buffer.from(REFUND_POLICY) }]);
    await parsedDocument('author', draft.id, added.body.items[0].id);
    const [author] = await server.db.select().from(members).where(eq(members.email, DEMO_MEMBER.email));
    const creditsBefore = (await call('author', `/members/${author!.id}/credit-check/`)).body;

    const answer = await send('author', draft.id, { text: 'What is the refund window for enterprise invoices?', is_test: true });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.frames.find((frame) => frame.type === 'citation')?.citation).toMatchObject({ kind: 'document', file_id: added.body.items[0].file_id });
    const usage = answer.frames.find((frame) => frame.type === 'usage');
    expect(usage.credits).toBeGreaterThan(0);
    const hash = answer.meta!.session_hash_id;
    expect((await send('author', draft.id, { text: 'And after that?', is_test: true, session_hash_id: hash })).status).toBe(200);

    // Not in My chats, but readable by its author in the test panel.
    const mine = (await call('author', '/sessions/?size=100')).body.items.map((session: { hash_id: string }) => session.hash_id);
    expect(mine).not.toContain(hash);
    expect((await call('author', `/sessions/?chatbot_id=${draft.id}`)).body.items).toEqual([]);
    expect((await call('author', `/sessions/${hash}/history/`)).body.items).toHaveLength(4);
    // A test session takes no real sends, and a real session no test ones.
    expect((await send('author', draft.id, { text: 'Real now', session_hash_id: hash })).status).toBe(404);

    const chatbot = (await call('author', `/chatbots/${draft.id}/`)).body;
    expect(chatbot).toMatchObject({ message_count: 0, token_count: 0, last_chat_at: null, status: 'draft' });
    expect(await server.db.select().from(recentChatbots).where(eq(recentChatbots.chatbotId, draft.id))).toEqual([]);

    const rows = await server.db.select().from(usageRecords).where(eq(usageRecords.chatbotId, draft.id));
    expect(rows.map((row) => row.isTest)).toEqual([true, true]);
    const charged = rows.reduce((sum, row) => sum + row.credits, 0);
    // The author's own quota pays, and their usage page shows it.
    const creditsAfter = (await call('author', `/members/${author!.id}/credit-check/`)).body;
    expect(creditsAfter.remaining_credit).toBeCloseTo(creditsBefore.remaining_credit - charged, 4);
    expect(creditsAfter.tenant.remaining_credit).toBeCloseTo(creditsBefore.tenant.remaining_credit - charged, 4);
    const usagePage = (await call('author', `/members/${author!.id}/usage/`)).body;
    const testedModel = rows[0]!.modelName;
    expect(usagePage.models.find((model: { model_name: string }) => model.model_name === testedModel)?.credits).toBeGreaterThanOrEqual(charged - 1e-6);
  });

  it('holds a test chat to the member’s own credit limit: a member whose quota is spent is refused there too (402)', async () => {
    const draft = await create();
    const [author] = await server.db.select().from(members).where(eq(members.email, DEMO_MEMBER.email));
    const { creditQuota } = author!;
    await server.db.update(members).set({ creditQuota: 0 }).where(eq(members.id, author!.id));
    try {
      const real = await send('author', draft.id, { text: 'Hello' });
      const test = await send('author', draft.id, { text: 'Hello', is_test: true });
      expect([real.status, (real.body as Json).code]).toEqual([402, 'credits_depleted']);
      expect([test.status, (test.body as Json).code]).toEqual([402, 'credits_depleted']);
    } finally {
      await server.db.update(members).set({ creditQuota }).where(eq(members.id, author!.id));
    }
  });

  it('answers 403 to a member who sees the chatbot but is not its author, 404 to one who does not; an admin may test any', async () => {
    const { id } = await named('author', 'Tested bot');
    expect((await send('colleague', id, { text: 'hello', is_test: true })).status).toBe(404);
    await call('author', `/chatbots/${id}/access/`, 'PATCH', { is_public: false, member_group_ids: [defaultGroupId] });
    expect(await send('colleague', id, { text: 'hello', is_test: true })).toMatchObject({ status: 403, body: { code: 'forbidden' } });
    expect((await send('colleague', id, { text: 'hello' })).status).toBe(200);
    const defaults = (await call('colleague', '/chatbots/?include_default=true')).body.items.filter((bot: { is_default: boolean }) => bot.is_default);
    expect((await send('colleague', defaults[0].id, { text: 'hello', is_test: true })).status).toBe(403);

    const draft = await create('colleague');
    expect((await send('admin', draft.id, { text: 'hello', is_test: true })).status).toBe(200);
    expect((await send('admin', draft.id, { text: 'hello' })).status).toBe(404);
    expect((await send('acme', draft.id, { text: 'hello', is_test: true })).status).toBe(401);
  });
});
