import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { files, members, sessionMessageFiles, sessionMessages, usageRecords } from '../../src/server/db/schema';
import { type FileStore, createLocalFileStore } from '../../src/server/storage/fileStore';
import { type FakeLlmUpstream, startFakeLlmUpstream } from '../fixtures/fakeLlmUpstream';
import { samplePng } from '../fixtures/sampleFiles';
import { DEMO_MEMBER, type TestServer, startTestServer } from '../fixtures/testServer';
import { apiClient, jsonBody, readFrames } from './helpers/client';

const IMAGE_CREDITS = 40;

interface Setup {
  server: TestServer;
  store: FileStore;
  token: string;
  memberId: number;
  chatbots: Record<'general' | 'quick', number>;
  filesDir: string;
}

async function setUp(options: Parameters<typeof startTestServer>[0] = {}): Promise<Setup> {
  const filesDir = await mkdtemp(join(tmpdir(), 'images-test-'));
  const server = await startTestServer({ ...options, config: { FILES_DIR: filesDir, IMAGE_CREDITS, ...options.config } });
  const api = apiClient(server);
  const session = await api.signIn(DEMO_MEMBER);
  const list = await api.call('/chatbots/?include_default=true', { token: session.access_token });
  const byName = (name: string) => list.body.items.find((bot: { en_name: string }) => bot.en_name === name).id as number;
  return {
    server,
    store: createLocalFileStore(filesDir),
    token: session.access_token,
    memberId: session.member.id,
    chatbots: { general: byName('General Assistant'), quick: byName('Quick Helper') },
    filesDir,
  };
}

async function tearDown(setup: Setup | undefined) {
  await setup?.server.close();
  if (setup) await rm(setup.filesDir, { recursive: true, force: true });
}

function send({ server, token }: Setup, chatbotId: number, body: Record<string, unknown>) {
  return fetch(`${server.apiBase}/chatbots/${chatbotId}/chat/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-access-token': token },
    body: JSON.stringify(body),
  });
}

async function storedBytes(setup: Setup, fileId: number): Promise<Buffer> {
  const [file] = await setup.server.db.select().from(files).where(eq(files.id, fileId));
  const stored = await setup.store.get(file!.storageKey);
  expect(stored).not.toBeNull();
  const chunks: Buffer[] = [];
  for await (const chunk of stored!.body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function remainingCredit(setup: Setup): Promise<number> {
  const check = await apiClient(setup.server).call(`/members/${setup.memberId}/credit-check/`, { token: setup.token });
  return check.body.remaining_credit;
}

const fileIdOf = (url: string) => Number(/\/api\/v1\/files\/(\d+)\/$/.exec(url)?.[1]);

describe('image mode through the OpenAI-compatible image API', () => {
  let upstream: FakeLlmUpstream;
  let setup: Setup;
  beforeAll(async () => {
    upstream = await startFakeLlmUpstream();
    setup = await setUp({ llm: { baseUrl: upstream.baseUrl }, config: { IMAGE_MODEL: 'fake-image' } });
  });
  afterAll(async () => {
    await tearDown(setup);
    await upstream?.close();
  });
  beforeEach(() => upstream.setBehaviour({ image: undefined, imageFailStatus: undefined }));

  it('generates the image, stores it as a file of the answer, shows it in the history and meters one image', async () => {
    const before = await remainingCredit(setup);
    const response = await send(setup, setup.chatbots.general, { text: 'A lighthouse at dawn', image_generation: true, image_size: '1536x1024' });
    expect(response.status).toBe(200);
    const meta = JSON.parse(response.headers.get('x-chat-meta')!);
    const frames = await readFrames(response);

    const request = upstream.requests.at(-1)!;
    expect(request.path).toBe('/v1/images/generations');
    expect(request.body).toMatchObject({ model: 'fake-image', prompt: 'A lighthouse at dawn', n: 1, size: '1536x1024' });

    expect(frames.map((f) => f.type)).toEqual(['image', 'usage', 'end']);
    const fileId = fileIdOf(frames[0].url);
    expect(fileId).toBeGreaterThan(0);
    expect(frames[1]).toEqual({ type: 'usage', input_tokens: 0, output_tokens: 0, credits: IMAGE_CREDITS });
    expect(await storedBytes(setup, fileId)).toEqual(samplePng());

    const [file] = await setup.server.db.select().from(files).where(eq(files.id, fileId));
    expect(file).toMatchObject({ memberId: setup.memberId, name: 'A-lighthouse-at-dawn.png', mimeType: 'image/png', sizeBytes: samplePng().length });
    const history = await apiClient(setup.server).call(`/sessions/${meta.session_hash_id}/history/`, { token: setup.token });
    const [question, answer] = history.body.items;
    expect(question).toMatchObject({ speaker_type: 'member', text: 'A lighthouse at dawn' });
    expect(answer).toMatchObject({ speaker_type: 'chatbot', interrupted: null });
    expect(answer.files).toEqual([{ id: fileId, url: frames[0].url, type: 'image/png', name: 'A-lighthouse-at-dawn.png' }]);

    const [usage] = await setup.server.db.select().from(usageRecords).where(eq(usageRecords.messageId, meta.chatbot_message_id));
    expect(usage).toMatchObject({ modelName: 'fake-image', imageCount: 1, credits: IMAGE_CREDITS, llmModelId: null });
    expect(await remainingCredit(setup)).toBe(before - IMAGE_CREDITS);
  });

  it('answers an image generation failure with its own error frame, stores nothing and charges nothing', async () => {
    upstream.setBehaviour({ imageFailStatus: 500 });
    const before = await remainingCredit(setup);
    const response = await send(setup, setup.chatbots.general, { text: 'A storm', image_generation: true });
    const meta = JSON.parse(response.headers.get('x-chat-meta')!);
    const frames = await readFrames(response);
    expect(frames).toEqual([
      { type: 'usage', input_tokens: 0, output_tokens: 0, credits: 0 },
      { type: 'error', code: 'image_generation_failed', message: expect.any(String) },
      { type: 'end', finish_reason: 'error' },
    ]);
    const [answer] = await setup.server.db.select().from(sessionMessages).where(eq(sessionMessages.id, meta.chatbot_message_id));
    expect(answer).toMatchObject({ interrupted: 'failed', streaming: false });
    expect(await setup.server.db.select().from(sessionMessageFiles).where(eq(sessionMessageFiles.messageId, meta.chatbot_message_id))).toEqual([]);
    expect(await remainingCredit(setup)).toBe(before);
  });

  it('refuses an answer that is not an image', async () => {
    upstream.setBehaviour({ image: Buffer.from('<html>not an image</html>') });
    const frames = await readFrames(await send(setup, setup.chatbots.general, { text: 'A cat', image_generation: true }));
    expect(frames.find((f) => f.type === 'error')).toMatchObject({ code: 'image_generation_failed' });
    expect(frames.some((f) => f.type === 'image')).toBe(false);
  });

  it('keeps the checks of any send: empty prompt 422, unknown size 400, depleted credits 402 even on the unlimited model', async () => {
    expect((await send(setup, setup.chatbots.general, { text: '  ', image_generation: true })).status).toBe(422);
    expect((await send(setup, setup.chatbots.general, { text: 'x', image_generation: true, image_size: '5x5' })).status).toBe(400);

    await setup.server.db.update(members).set({ creditQuota: 0 }).where(eq(members.id, setup.memberId));
    const refused = await send(setup, setup.chatbots.quick, { text: 'A cat', image_generation: true });
    expect(refused.status).toBe(402);
    expect((await jsonBody(refused)).code).toBe('credits_depleted');
    await setup.server.db.update(members).set({ creditQuota: null }).where(eq(members.id, setup.memberId));
  });
});

describe('image mode on the offline demo provider', () => {
  let setup: Setup;
  beforeAll(async () => {
    setup = await setUp();
  });
  afterAll(() => tearDown(setup));

  it('draws a real PNG at the requested size from the prompt, linked to the answer', async () => {
    const response = await send(setup, setup.chatbots.general, { text: '바다 위의 등대', image_generation: true, image_size: '1024x1536' });
    const meta = JSON.parse(response.headers.get('x-chat-meta')!);
    const frames = await readFrames(response);
    const image = frames.find((f) => f.type === 'image');
    const png = await storedBytes(setup, fileIdOf(image.url));
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(png.toString('latin1', 12, 16)).toBe('IHDR');
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1024, 1536]);

    const links = await setup.server.db
      .select({ name: files.name })
      .from(sessionMessageFiles)
      .innerJoin(files, eq(files.id, sessionMessageFiles.fileId))
      .where(eq(sessionMessageFiles.messageId, meta.chatbot_message_id));
    expect(links).toEqual([{ name: '바다-위의-등대.png' }]);
    const [usage] = await setup.server.db.select().from(usageRecords).where(eq(usageRecords.messageId, meta.chatbot_message_id));
    expect(usage).toMatchObject({ modelName: 'demo-image', imageCount: 1, credits: IMAGE_CREDITS });
  });

  it('a prompt gives the same picture every time and another prompt a different one', async () => {
    const draw = async (prompt: string) => {
      const frames = await readFrames(await send(setup, setup.chatbots.quick, { text: prompt, image_generation: true }));
      return storedBytes(setup, fileIdOf(frames.find((f) => f.type === 'image').url));
    };
    const [first, again, other] = [await draw('a red fox'), await draw('a red fox'), await draw('a blue whale')];
    expect(first.equals(again)).toBe(true);
    expect(first.equals(other)).toBe(false);
  });
});
