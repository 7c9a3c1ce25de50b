import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creditLedger, sessionMessages, sessions } from '../../src/server/db/schema';
import type { SessionExport } from '../../src/shared/api/sessionTransfer';
import { samplePng } from '../fixtures/sampleFiles';
import { DEMO_ADMIN, DEMO_MEMBER, type TestServer, startTestServer } from '../fixtures/testServer';
import { apiClient, readFrames } from './helpers/client';

/** Chat export (Markdown, JSON) and the JSON's import: issue 23, docs/decisions/0079-chat-export-import.md. */

let server: TestServer;
let api: ReturnType<typeof apiClient>;
let token: string;
let adminToken: string;
let chatbotId: number;
let memberId: number;

const CITATIONS = [
  { kind: 'web' as const, url: 'https://example.test/guide?a=1', title: 'Setup guide', snippet: 'Step one' },
  { kind: 'document' as const, file_id: 1, name: 'Handbook.pdf', page: 4, snippet: 'Holidays' },
];

/** A chat of two turns: the first with an attached image, the second's answer citing two sources; titled `title`. */
async function chatWithEverything(title: string): Promise<string> {
  const uploaded = await api.upload(token, [{ name: 'diagram.png', bytes: samplePng(), type: 'image/png' }], { chatbot_id: String(chatbotId) });
  expect(uploaded.status).toBe(200);
  const send = async (text: string, extra: Record<string, unknown>) => {
    const response = await fetch(`${server.apiBase}/chatbots/${chatbotId}/chat/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-access-token': token },
      body: JSON.stringify({ text, ...extra }),
    });
    expect(response.status).toBe(200);
    const meta = JSON.parse(response.headers.get('x-chat-meta')!);
    await readFrames(response);
    return meta as { session_hash_id: string; chatbot_message_id: number };
  };
  const first = await send('Look at this diagram', { file_ids: [uploaded.body.items[0].id] });
  const second = await send('Where is the guide?', { session_hash_id: first.session_hash_id });
  // Sources come from retrieval or web search in a real chat; here they are put on the answer directly.
  await server.db.update(sessionMessages).set({ citations: CITATIONS }).where(eq(sessionMessages.id, second.chatbot_message_id));
  expect((await api.call(`/sessions/${first.session_hash_id}/`, { method: 'PATCH', token, body: { title } })).status).toBe(200);
  return first.session_hash_id;
}

const exportOf = (hash: string, format: 'json' | 'markdown', who = token) => api.call(`/sessions/${hash}/export/?format=${format}`, { token: who });
const importOf = (body: unknown, who = token) => api.call('/sessions/import/', { method: 'POST', token: who, body });

/** What an export says, less what a new copy may change: the time of the export and of the import. */
const comparable = (document: SessionExport) => ({
  ...document,
  exported_at: undefined,
  messages: document.messages.map((message) => ({ ...message, imported_at: undefined })),
});

beforeAll(async () => {
  server = await startTestServer();
  api = apiClient(server);
  const signedIn = await api.signIn(DEMO_MEMBER);
  token = signedIn.access_token;
  memberId = signedIn.member.id;
  adminToken = (await api.signIn(DEMO_ADMIN)).access_token;
  chatbotId = (await api.call('/chatbots/?include_default=true', { token })).body.items[0].id;
});
afterAll(() => server?.close());

describe('GET /sessions/{hash}/export/', () => {
  it('writes the chat as JSON: speakers, times, attachments by name and citations, as a download named after the title', async () => {
    const hash = await chatWithEverything('Trip plans');
    const result = await exportOf(hash, 'json');
    expect(result.status).toBe(200);
    expect(result.headers.get('content-type')).toContain('application/json');
    expect(result.headers.get('content-disposition')).toBe(`attachment; filename="Trip plans.json"; filename*=UTF-8''Trip%20plans.json`);
    expect(result.headers.get('cache-control')).toContain('no-store');
    const document = result.body as SessionExport;
    expect(document).toMatchObject({ version: 1, title: 'Trip plans', chatbot: { id: chatbotId } });
    expect(document.chatbot.name).not.toBe('');
    expect(document.messages.map((m) => [m.speaker, m.speaker_name === 'Demo Member'])).toEqual([
      ['member', true],
      ['chatbot', false],
      ['member', true],
      ['chatbot', false],
    ]);
    expect(document.messages[0]).toMatchObject({ text: 'Look at this diagram', attachments: [{ name: 'diagram.png', type: 'image/png' }], imported_at: null });
    expect(document.messages[3]!.citations).toEqual(CITATIONS);
    expect(Date.parse(document.messages[0]!.created_at)).not.toBeNaN();
  });

  it('writes the chat as Markdown with its sources as footnotes, and names a Korean title in filename*', async () => {
    const hash = await chatWithEverything('여행 계획: 부산/제주');
    const result = await exportOf(hash, 'markdown');
    expect(result.status).toBe(200);
    expect(result.headers.get('content-type')).toContain('text/markdown');
    // The slash is not a file name's; the Korean stays, encoded per RFC 5987.
    const disposition = result.headers.get('content-disposition')!;
    expect(disposition).toContain(`filename*=UTF-8''${encodeURIComponent('여행 계획 부산 제주.md')}`);
    expect(disposition).toMatch(/^attachment; filename="[\x20-\x7e]+\.md";/);
    const markdown = result.body as string;
    expect(markdown).toMatch(/^# 여행 계획: 부산\/제주\n/);
    expect(markdown).toMatch(/### Demo Member · \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC\n\nLook at this diagram/);
    expect(markdown).toContain('Attachments: diagram.png');
    expect(markdown).toContain('[^1] [^2]');
    expect(markdown).toContain('[^1]: [Setup guide](<https://example.test/guide?a=1>)');
    expect(markdown).toContain('[^2]: Handbook.pdf, p. 4');
  });

  it('answers 404 for another member’s chat, and for an unknown one', async () => {
    const hash = await chatWithEverything('Mine');
    expect((await exportOf(hash, 'json', adminToken)).status).toBe(404);
    expect((await exportOf('no-such-chat', 'markdown')).status).toBe(404);
    expect((await exportOf(hash, 'pdf' as 'json')).status).toBe(400);
  });
});

describe('POST /sessions/import/', () => {
  it('round-trips: export, import and export again give the same chat, marked imported and charged nothing', async () => {
    const hash = await chatWithEverything('Round trip');
    const original = (await exportOf(hash, 'json')).body as SessionExport;
    const ledgerRows = async () => (await server.db.select({ value: count() }).from(creditLedger).where(eq(creditLedger.memberId, memberId)))[0]!.value;
    const ledgerBefore = await ledgerRows();

    const imported = await importOf(original);
    expect(imported.status).toBe(200);
    expect(imported.body).toMatchObject({ title: 'Round trip', chatbot_id: chatbotId, is_public: false });
    expect(imported.body.hash_id).not.toBe(hash);
    expect(await ledgerRows()).toBe(ledgerBefore);
    const listed = await api.call('/sessions/', { token });
    expect(listed.body.items[0].hash_id).toBe(imported.body.hash_id);

    const again = (await exportOf(imported.body.hash_id, 'json')).body as SessionExport;
    expect(comparable(again)).toEqual(comparable(original));
    expect(again.messages.every((message) => message.imported_at !== null)).toBe(true);

    const history = await api.call(`/sessions/${imported.body.hash_id}/history/`, { token });
    expect(history.body.items[0].imported).toMatchObject({ files: [{ name: 'diagram.png', type: 'image/png' }] });
    // What the next send would carry is the same as the original's: the whole imported branch.
    expect(history.body.context_tokens).toBe((await api.call(`/sessions/${hash}/history/`, { token })).body.context_tokens);
    const [stored] = await server.db
      .select({ tokens: sessionMessages.outputTokens, model: sessionMessages.llmModelId })
      .from(sessionMessages)
      .innerJoin(sessions, eq(sessions.id, sessionMessages.sessionId))
      .where(and(eq(sessions.hashId, imported.body.hash_id), eq(sessionMessages.speakerType, 'chatbot')));
    expect(stored).toEqual({ tokens: null, model: null });
  });

  it('refuses a chatbot the member may not chat with (403 chatbot_not_usable): another member’s draft, an unknown id', async () => {
    const original = (await exportOf(await chatWithEverything('Elsewhere'), 'json')).body as SessionExport;
    const adminDraft = (await api.call('/chatbots/', { method: 'POST', token: adminToken })).body.id as number;
    const sessionsBefore = (await api.call('/sessions/', { token })).body.total_items;
    for (const id of [adminDraft, 2_000_000_000]) {
      const refused = await importOf({ ...original, chatbot: { ...original.chatbot, id } });
      expect(refused.status).toBe(403);
      expect(refused.body.code).toBe('chatbot_not_usable');
    }
    expect((await api.call('/sessions/', { token })).body.total_items).toBe(sessionsBefore);
    // The admin may import into their own draft.
    expect((await importOf({ ...original, chatbot: { ...original.chatbot, id: adminDraft } }, adminToken)).status).toBe(200);
  });

  it('puts the member’s messages through the input guard like a send (422 restricted_term)', async () => {
    const original = (await exportOf(await chatWithEverything('Guarded'), 'json')).body as SessionExport;
    expect((await api.call('/admin/restricted-words/', { method: 'POST', token: adminToken, body: { word: 'forbiddenword' } })).status).toBe(200);
    const messages = original.messages.map((m, i) => (i === 0 ? { ...m, text: 'say forbiddenword' } : m));
    const refused = await importOf({ ...original, messages });
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe('restricted_term');
  });

  it('refuses a document of another version (400), so a later shape is never half read', async () => {
    const original = (await exportOf(await chatWithEverything('Versioned'), 'json')).body as SessionExport;
    const refused = await importOf({ ...original, version: 2 });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('validation_error');
  });
});
