import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { files, members, sessionMessageFiles, sessionMessages, sessions } from '../../src/server/db/schema';
import { chatMetaSchema } from '../../src/shared/api/chat';
import { type FakeLlmUpstream, startFakeLlmUpstream } from '../fixtures/fakeLlmUpstream';
import { DEMO_MEMBER, type TestServer, startTestServer } from '../fixtures/testServer';
import { apiClient, readFrames } from './helpers/client';

/**
 * What a send saves before the answer streams (domains/chat/turnStart: one statement on the server):
 * the session on the first message, the member's message, the answer's placeholder and the
 * attached files' links, for a new session and for a follow-up in it.
 */
let upstream: FakeLlmUpstream;
let server: TestServer;
let token: string;
let chatbotId: number;

async function send(body: Record<string, unknown>) {
  const response = await fetch(`${server.apiBase}/chatbots/${chatbotId}/chat/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-access-token': token },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(200);
  const meta = chatMetaSchema.parse(JSON.parse(response.headers.get('x-chat-meta')!));
  await readFrames(response);
  return meta;
}

async function addFile(name: string): Promise<number> {
  const [member] = await server.db.select().from(members).where(eq(members.email, DEMO_MEMBER.email));
  const [file] = await server.db
    .insert(files)
    .values({ tenantId: member!.tenantId, memberId: member!.id, name, mimeType: 'text/plain', sizeBytes: 5, storageKey: `test/${name}` })
    .returning();
  return file!.id;
}

const linkedFiles = async (messageId: number) =>
  (await server.db.select().from(sessionMessageFiles).where(eq(sessionMessageFiles.messageId, messageId))).map((row) => row.fileId).sort();

beforeAll(async () => {
  upstream = await startFakeLlmUpstream();
  server = await startTestServer({ llm: { baseUrl: upstream.baseUrl, apiKey: 'fake-key', model: 'fake-model' } });
  const api = apiClient(server);
  token = (await api.signIn(DEMO_MEMBER)).access_token;
  const list = await api.call('/chatbots/?include_default=true', { token });
  chatbotId = list.body.items.find((bot: { en_name: string }) => bot.en_name === 'General Assistant').id;
});
afterAll(async () => {
  await server?.close();
  await upstream?.close();
});

describe('the start of a chat turn', () => {
  it('creates the session with its title and links the attached files to the member’s message, then adds follow-ups to it', async () => {
    const [first, second, third] = [await addFile('a.txt'), await addFile('b.txt'), await addFile('c.txt')];
    const meta = await send({ text: 'Read these', session_title: 'Two files', file_ids: [second, first, second] });
    expect(meta.session_created).toBe(true);

    const [session] = await server.db.select().from(sessions).where(eq(sessions.hashId, meta.session_hash_id));
    expect(session).toMatchObject({ title: 'Two files', chatbotId });
    const saved = await server.db.select().from(sessionMessages).where(eq(sessionMessages.sessionId, session!.id)).orderBy(sessionMessages.id);
    expect(saved.map((message) => [message.id, message.speakerType, message.streaming])).toEqual([
      [meta.member_message_id, 'member', false],
      [meta.chatbot_message_id, 'chatbot', false],
    ]);
    expect(saved[0]!.text).toBe('Read these');
    expect(await linkedFiles(meta.member_message_id)).toEqual([first, second].sort());

    const followUp = await send({ text: 'And this one', session_hash_id: meta.session_hash_id, file_ids: [third] });
    expect(followUp).toMatchObject({ session_created: false, session_hash_id: meta.session_hash_id });
    expect(await linkedFiles(followUp.member_message_id)).toEqual([third]);
    expect(await linkedFiles(meta.member_message_id)).toEqual([first, second].sort());

    const noFiles = await send({ text: 'No attachment', session_hash_id: meta.session_hash_id });
    expect(await linkedFiles(noFiles.member_message_id)).toEqual([]);
    const all = await server.db.select().from(sessionMessages).where(eq(sessionMessages.sessionId, session!.id));
    expect(all).toHaveLength(6);
  });
});
