import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { piiSettings, sessionMessages, sessions } from '../../src/server/db/schema';
import { chatMetaSchema } from '../../src/shared/api/chat';
import { type FakeLlmUpstream, startFakeLlmUpstream } from '../fixtures/fakeLlmUpstream';
import { DEMO_ADMIN, DEMO_MEMBER, type TestServer, startTestServer } from '../fixtures/testServer';
import { apiClient } from './helpers/client';

let upstream: FakeLlmUpstream;
let server: TestServer;
let api: ReturnType<typeof apiClient>;
let adminToken: string;
let memberToken: string;
let chatbotId: number;

const send = (body: Record<string, unknown>) =>
  fetch(`${server.apiBase}/chatbots/${chatbotId}/chat/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-access-token': memberToken },
    body: JSON.stringify(body),
  });

const setPii = (body: Record<string, string>) => api.call('/admin/pii-settings/', { method: 'PATCH', token: adminToken, body });
const messageCount = async () => (await server.db.select({ id: sessionMessages.id }).from(sessionMessages)).length;

beforeAll(async () => {
  upstream = await startFakeLlmUpstream();
  server = await startTestServer({ llm: { baseUrl: upstream.baseUrl } });
  api = apiClient(server);
  adminToken = (await api.signIn(DEMO_ADMIN)).access_token;
  memberToken = (await api.signIn(DEMO_MEMBER)).access_token;
  const list = await api.call('/chatbots/?include_default=true', { token: memberToken });
  chatbotId = list.body.items.find((bot: { en_name: string }) => bot.en_name === 'General Assistant').id;
});
afterAll(async () => {
  await server?.close();
  await upstream?.close();
});
beforeEach(() => server.db.delete(piiSettings));

describe('PII settings endpoints', () => {
  it('start all off, change only the kinds named, and are readable by members', async () => {
    expect((await api.call('/admin/pii-settings/', { token: adminToken })).body).toEqual({
      phone: 'off',
      email: 'off',
      resident_number: 'off',
      credit_card: 'off',
      international_phone: 'off',
    });
    const patched = await setPii({ phone: 'block', credit_card: 'mask' });
    expect(patched.status).toBe(200);
    expect(patched.body).toEqual({ phone: 'block', email: 'off', resident_number: 'off', credit_card: 'mask', international_phone: 'off' });
    expect((await setPii({ email: 'mask', international_phone: 'block' })).body).toEqual({
      phone: 'block',
      email: 'mask',
      resident_number: 'off',
      credit_card: 'mask',
      international_phone: 'block',
    });
    expect((await api.call('/pii-settings/', { token: memberToken })).body).toEqual({
      phone: 'block',
      email: 'mask',
      resident_number: 'off',
      credit_card: 'mask',
      international_phone: 'block',
    });
  });

  it('refuse unknown actions and kinds (400), members (403) and anonymous callers (401)', async () => {
    expect((await setPii({ phone: 'hide' })).status).toBe(400);
    expect((await setPii({ passport: 'block' })).status).toBe(400);
    expect((await api.call('/admin/pii-settings/', { token: memberToken })).status).toBe(403);
    expect((await api.call('/admin/pii-settings/', { method: 'PATCH', token: memberToken, body: { phone: 'off' } })).status).toBe(403);
    expect((await api.call('/pii-settings/')).status).toBe(401);
  });
});

describe('chat input with personal data', () => {
  it('block: 428 pii_blocked naming the kinds but not the values; nothing saved, the model never asked', async () => {
    await setPii({ phone: 'block', resident_number: 'block', email: 'mask' });
    const [messagesBefore, sessionsBefore, requestsBefore] = [await messageCount(), (await server.db.select().from(sessions)).length, upstream.requests.length];
    const response = await send({ text: 'I am 900101-1234567, call 010-1234-5678 or mail kim@example.com' });
    expect(response.status).toBe(428);
    const raw = await response.text();
    expect(JSON.parse(raw)).toMatchObject({ code: 'pii_blocked', details: { kinds: ['phone', 'resident_number'] } });
    expect(raw).not.toContain('5678');
    expect(raw).not.toContain('kim@');
    expect(await messageCount()).toBe(messagesBefore);
    expect((await server.db.select().from(sessions)).length).toBe(sessionsBefore);
    expect(upstream.requests.length).toBe(requestsBefore);
  });

  it('mask: the stored message, the history and what the model receives are masked; the meta names the kinds', async () => {
    await setPii({ email: 'mask', credit_card: 'mask', phone: 'block' });
    const response = await send({ text: 'Card 1234-5678-9012-3456, mail kim@example.com', session_title: 'kim@example.com asks' });
    expect(response.status).toBe(200);
    const meta = chatMetaSchema.parse(JSON.parse(response.headers.get('x-chat-meta')!));
    expect(meta.masked_pii).toEqual(['email', 'credit_card']);
    await response.text();

    const masked = 'Card ****-****-****-****, mail ***@example.com';
    const [stored] = await server.db.select().from(sessionMessages).where(eq(sessionMessages.id, meta.member_message_id));
    expect(stored!.text).toBe(masked);
    expect(upstream.requests.at(-1)!.body.messages!.at(-1)).toEqual({ role: 'user', content: masked });
    const history = await api.call(`/sessions/${meta.session_hash_id}/history/`, { token: memberToken });
    expect(JSON.stringify(history.body)).not.toContain('kim@');
    expect(JSON.stringify(history.body)).toContain(masked);
    const session = await api.call(`/sessions/${meta.session_hash_id}/`, { token: memberToken });
    expect(session.body.title).toBe('***@example.com asks');
  });

  it('off: personal data passes unchanged and the meta names nothing', async () => {
    const response = await send({ text: 'My number is 010-1234-5678' });
    expect(response.status).toBe(200);
    expect(JSON.parse(response.headers.get('x-chat-meta')!).masked_pii).toBeUndefined();
    await response.text();
    expect(upstream.requests.at(-1)!.body.messages!.at(-1)).toEqual({ role: 'user', content: 'My number is 010-1234-5678' });
  });

  it('international numbers with a country code have their own setting, apart from the 11-digit phone', async () => {
    // Only the Korean mobile is blocked: a London number passes unchanged.
    await setPii({ phone: 'block' });
    const passes = await send({ text: 'Ring +44 20 7946 0958' });
    expect(passes.status).toBe(200);
    await passes.text();
    expect(upstream.requests.at(-1)!.body.messages!.at(-1)).toEqual({ role: 'user', content: 'Ring +44 20 7946 0958' });

    await setPii({ phone: 'off', international_phone: 'mask' });
    const masked = await send({ text: 'Ring +44 20 7946 0958 or +1 (415) 555-0132, not 010-1234-5678' });
    expect(masked.status).toBe(200);
    expect(JSON.parse(masked.headers.get('x-chat-meta')!).masked_pii).toEqual(['international_phone']);
    await masked.text();
    expect(upstream.requests.at(-1)!.body.messages!.at(-1)).toEqual({ role: 'user', content: 'Ring +** ** **** **** or +* (***) ***-****, not 010-1234-5678' });

    await setPii({ international_phone: 'block' });
    const blocked = await send({ text: 'US office +1 415 555 0132' });
    expect(blocked.status).toBe(428);
    expect(await blocked.json()).toMatchObject({ code: 'pii_blocked', details: { kinds: ['international_phone'] } });
  });

  it('does not mistake a 12-digit order number for a phone number', async () => {
    await setPii({ phone: 'block' });
    const response = await send({ text: 'Where is order 010123456789?' });
    expect(response.status).toBe(200);
    await response.text();
  });
});
