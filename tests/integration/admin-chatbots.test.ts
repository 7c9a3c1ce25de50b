import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { members } from '../../src/server/db/schema';
import { type SmtpSink, startSmtpSink } from '../fixtures/smtpSink';
import { DEMO_ADMIN, DEMO_MEMBER, type TestServer, startTestServer } from '../fixtures/testServer';
import { apiClient } from './helpers/client';

describe('admin chatbot publishing', () => {
  let sink: SmtpSink;
  let server: TestServer;
  let client: ReturnType<typeof apiClient>;
  let admin: string;
  let member: string;
  let acmeAdmin: string;

  beforeAll(async () => {
    sink = await startSmtpSink();
    server = await startTestServer({ extraTenants: ['acme'], config: { SMTP_URL: sink.url } });
    client = apiClient(server);
    admin = (await client.signIn(DEMO_ADMIN)).access_token;
    member = (await client.signIn(DEMO_MEMBER)).access_token;
    acmeAdmin = (await client.signIn(DEMO_ADMIN, 'acme')).access_token;
    await server.db.update(members).set({ language: 'ko' }).where(eq(members.email, DEMO_MEMBER.email));
  });
  afterAll(async () => {
    await server?.close();
    await sink?.close();
  });

  /** A chatbot of the member, named, asking to be published unless `publish` is false. */
  async function requested(name: string, publish = true): Promise<number> {
    const { id } = (await client.call('/chatbots/', { method: 'POST', token: member })).body;
    await client.call(`/chatbots/${id}/`, { method: 'PATCH', token: member, body: { en_name: name, ko_name: `${name} 한국어` } });
    if (publish)
      expect((await client.call(`/chatbots/${id}/access/`, { method: 'PATCH', token: member, body: { is_public: true, member_group_ids: [] } })).status).toBe(
        200,
      );
    return id;
  }
  const list = async (query = '') => (await client.call(`/admin/chatbots/${query}`, { token: admin })).body;
  const decide = (id: number, body: unknown, token = admin) => client.call(`/admin/chatbots/${id}/process-publish-request/`, { method: 'POST', token, body });
  const storeNames = async () =>
    (await client.call('/chatbots/?is_public=true&size=100', { token: member })).body.items.map((row: { en_name: string }) => row.en_name);

  it('lists every member chatbot with its author and groups, with the waiting, public and rejected filters', async () => {
    const waiting = await requested('Tax Helper');
    const privateOne = await requested('Private Notes', false);
    const all = await list();
    expect(all.items.map((row: { id: number }) => row.id)).toEqual(expect.arrayContaining([waiting, privateOne]));
    expect(all.items.find((row: { id: number }) => row.id === waiting)).toMatchObject({
      status: 'pending',
      waiting_publish: true,
      creator: { name: 'Demo Member' },
      creator_email: DEMO_MEMBER.email,
      member_groups: [],
    });
    // Default chatbots are the tenant's own: not in the review.
    expect(all.items.every((row: { is_default: boolean }) => !row.is_default)).toBe(true);
    expect((await list('?waiting_publish=true')).items.map((row: { id: number }) => row.id)).toEqual([waiting]);
    expect((await list('?search_term=notes')).items.map((row: { id: number }) => row.id)).toEqual([privateOne]);
    const memberId = all.items[0].creator.id;
    expect((await list(`?member_id=${memberId}&size=100`)).total_items).toBeGreaterThanOrEqual(2);
  });

  it('default chatbots: listed for admins with is_default=true, edited by admins (instructions, model, groups), never by members', async () => {
    const defaults = await list('?is_default=true');
    expect(defaults.items.length).toBe(3);
    expect(defaults.items.every((row: { is_default: boolean }) => row.is_default)).toBe(true);
    const id = defaults.items[0].id as number;
    const patched = await client.call(`/chatbots/${id}/`, { method: 'PATCH', token: admin, body: { system_instructions: 'Answer in haiku.' } });
    expect([patched.status, patched.body.system_instructions]).toEqual([200, 'Answer in haiku.']);
    const [group] = (await client.call('/member-groups/', { token: admin })).body.items;
    const shared = await client.call(`/chatbots/${id}/access/`, { method: 'PATCH', token: admin, body: { is_public: false, member_group_ids: [group.id] } });
    expect([shared.status, shared.body.member_group_ids, shared.body.is_default]).toEqual([200, [group.id], true]);
    expect((await list('?is_default=true')).items[0].member_groups.map((g: { id: number }) => g.id)).toEqual([group.id]);
    // A member never changes one: not its instructions, its access, nor its documents.
    for (const [path, method, body] of [
      [`/chatbots/${id}/`, 'PATCH', { system_instructions: 'Mine now' }],
      [`/chatbots/${id}/access/`, 'PATCH', { is_public: false, member_group_ids: [] }],
      [`/chatbots/${id}/`, 'DELETE', undefined],
    ] as const) {
      expect((await client.call(path, { method, token: member, body })).status, `${method} ${path}`).toBe(403);
    }
    await client.call(`/chatbots/${id}/access/`, { method: 'PATCH', token: admin, body: { is_public: false, member_group_ids: [] } });
    // Not for members, nor another tenant's admin.
    expect((await client.call('/admin/chatbots/?is_default=true', { token: member })).status).toBe(403);
    expect(
      (await client.call('/admin/chatbots/?is_default=true', { token: acmeAdmin, tenant: 'acme' })).body.items.map((row: { id: number }) => row.id),
    ).not.toContain(id);
  });

  it('public_queue: a publish request carries when it was made, the queue lists oldest first, a decision takes it out', async () => {
    const first = await requested('Queue First');
    const second = await requested('Queue Second');
    const queued = (await list('?waiting_publish=true&size=100')).items.filter((row: { id: number }) => [first, second].includes(row.id));
    expect(queued.map((row: { id: number }) => row.id)).toEqual([first, second]);
    const [a, b] = queued.map((row: { public_queue: { requested_at: string } }) => Date.parse(row.public_queue.requested_at));
    expect(a).toBeLessThanOrEqual(b!);
    // Asking again while waiting keeps its place.
    await client.call(`/chatbots/${first}/access/`, { method: 'PATCH', token: member, body: { is_public: true, member_group_ids: [] } });
    expect((await client.call(`/chatbots/${first}/`, { token: member })).body.public_queue.requested_at).toBe(queued[0].public_queue.requested_at);
    expect((await decide(first, { approve: true })).body.public_queue).toBeNull();
    expect(
      (await client.call(`/chatbots/${second}/access/`, { method: 'PATCH', token: member, body: { is_public: false, member_group_ids: [] } })).body
        .public_queue,
    ).toBeNull();
  });

  it('default_member_groups: a group starts with the default chatbot chosen for it; only default chatbots have them', async () => {
    const defaults = (await list('?is_default=true')).items as { id: number }[];
    const last = defaults.at(-1)!.id;
    const [group] = (await client.call('/member-groups/?is_default=true', { token: admin })).body.items;
    const startList = async () =>
      (await client.call('/chatbots/?include_default=true&size=30', { token: member })).body.items.map((row: { id: number }) => row.id);
    expect((await startList())[0]).toBe(defaults[0]!.id);
    const set = await client.call(`/chatbots/${last}/access/`, {
      method: 'PATCH',
      token: admin,
      body: { is_public: false, member_group_ids: [], default_member_group_ids: [group.id] },
    });
    expect([set.status, set.body.default_member_groups]).toEqual([200, [group.id]]);
    expect((await startList())[0]).toBe(last);
    expect((await client.call(`/chatbots/${last}/`, { token: member })).body.default_member_groups).toEqual([group.id]);
    // A member's chatbot has none; a group that does not see the chatbot cannot start with it.
    const own = await requested('Not Default', false);
    expect(
      (
        await client.call(`/chatbots/${own}/access/`, {
          method: 'PATCH',
          token: member,
          body: { is_public: false, member_group_ids: [], default_member_group_ids: [group.id] },
        })
      ).status,
    ).toBe(422);
    const other = (await client.call('/admin/member-groups/', { method: 'POST', token: admin, body: { ko_name: '시작 그룹', en_name: 'Start Group' } })).body;
    const refused = await client.call(`/chatbots/${last}/access/`, {
      method: 'PATCH',
      token: admin,
      body: { is_public: false, member_group_ids: [other.id], default_member_group_ids: [group.id] },
    });
    expect(refused.status).toBe(422);
    await client.call(`/chatbots/${last}/access/`, {
      method: 'PATCH',
      token: admin,
      body: { is_public: false, member_group_ids: [], default_member_group_ids: [] },
    });
    expect((await startList())[0]).toBe(defaults[0]!.id);
  });

  it('rejecting needs a reason (422); the author is mailed it in their language and sees it on the chatbot', async () => {
    const id = await requested('Essay Grader');
    expect(await decide(id, { approve: false })).toMatchObject({
      status: 422,
      body: { code: 'reason_required', message: 'Please provide a reason for the requester.' },
    });
    expect(await decide(id, { approve: false, reason: '   ' })).toMatchObject({ status: 422 });

    const before = sink.received.length;
    const rejected = await decide(id, { approve: false, reason: 'Add sources for the grading rules.' });
    expect(rejected).toMatchObject({
      status: 200,
      body: { status: 'rejected', publish_status: 'rejected', publish_feedback: 'Add sources for the grading rules.', is_public: false },
    });
    const [mail] = await sink.mailsAfter(before);
    expect(mail!.envelopeTo).toEqual([DEMO_MEMBER.email]);
    expect(mail!.parsed.subject).toContain('Essay Grader 한국어');
    expect(mail!.parsed.text).toContain('Add sources for the grading rules.');
    expect((await client.call(`/chatbots/${id}/`, { token: member })).body).toMatchObject({
      status: 'rejected',
      publish_feedback: 'Add sources for the grading rules.',
    });
    expect((await list('?publish_rejected=true')).items.map((row: { id: number }) => row.id)).toContain(id);
    // Not waiting any more: a second decision finds nothing to decide.
    expect((await decide(id, { approve: true })).status).toBe(404);
  });

  it('approving makes it public in the Store; the author can ask again after a rejection', async () => {
    const id = await requested('Travel Planner');
    expect(await storeNames()).not.toContain('Travel Planner');
    expect(await decide(id, { approve: true })).toMatchObject({
      status: 200,
      body: { status: 'public', is_public: true, publish_status: 'approved', waiting_publish: false },
    });
    expect(await storeNames()).toContain('Travel Planner');
    expect((await list('?is_public=true')).items.map((row: { id: number }) => row.id)).toContain(id);
  });

  it('decides several at once, all or none', async () => {
    const first = await requested('Bulk One');
    const second = await requested('Bulk Two');
    const notWaiting = await requested('Bulk Three', false);
    const bulk = (body: unknown) => client.call('/admin/chatbots/bulk-process-publish-request/', { method: 'POST', token: admin, body });
    expect((await bulk({ chatbot_ids: [first, second, notWaiting], approve: true })).status).toBe(404);
    expect((await list('?waiting_publish=true')).items.map((row: { id: number }) => row.id)).toEqual(expect.arrayContaining([first, second]));
    expect((await bulk({ chatbot_ids: [first, second], approve: false })).body.code).toBe('reason_required');
    const before = sink.received.length;
    expect(await bulk({ chatbot_ids: [first, second], approve: false, reason: 'Please describe the data you use.' })).toMatchObject({
      status: 200,
      body: { processed: 2 },
    });
    expect((await sink.mailsAfter(before, 2)).flatMap((mail) => mail.envelopeTo)).toEqual([DEMO_MEMBER.email, DEMO_MEMBER.email]);
  });

  it('refuses members (403) and other tenants (404)', async () => {
    const id = await requested('Guarded');
    expect((await client.call('/admin/chatbots/', { token: member })).status).toBe(403);
    expect((await decide(id, { approve: true }, member)).status).toBe(403);
    expect(
      (await client.call(`/admin/chatbots/${id}/process-publish-request/`, { method: 'POST', token: acmeAdmin, tenant: 'acme', body: { approve: true } }))
        .status,
    ).toBe(404);
    expect((await client.call('/admin/chatbots/?member_id=999999', { token: admin })).status).toBe(404);
  });
});
