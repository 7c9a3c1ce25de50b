import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatbotDocuments, chatbots, fileSections, files, llmModels, sessions, tenants } from '../../src/server/db/schema';
import { PARSE_LIMITS } from '../../src/server/domains/files/service';
import { type FakeLlmUpstream, startFakeLlmUpstream } from '../fixtures/fakeLlmUpstream';
import { sampleDocx, samplePdf, samplePng, sampleXlsx } from '../fixtures/sampleFiles';
import { DEMO_ADMIN, DEMO_MEMBER, type TestServer, startTestServer } from '../fixtures/testServer';
import { type Upload, apiClient, readFrames } from './helpers/client';
import { fastJobSettings } from './helpers/crashJobs';

const UPLOAD_LIMIT = 40;

let upstream: FakeLlmUpstream;
let server: TestServer;
let api: ReturnType<typeof apiClient>;
let member: string;
let admin: string;
let adminId: number;
let generalId: number;

const upload: typeof api.upload = (...args) => api.upload(...args);

async function uploadOne(token: string, file: Upload, fields?: Record<string, string>) {
  const result = await upload(token, [file], fields);
  expect(result.status, JSON.stringify(result.body)).toBe(200);
  return result.body.items[0] as { id: number; status: string; parsed_percentage: number; url: string; name: string; size: number; type: string };
}

async function parsed(token: string, id: number) {
  for (let attempt = 0; attempt < 200; attempt++) {
    const { body } = await api.call(`/files/progress?file_ids=${id}`, { token });
    const item = body.items[0];
    if (item.status !== 'parsing') return item as { id: number; status: string; parsed_percentage: number };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`file ${id} was not parsed`);
}

/** A download read to the end (an unread body would hold its connection open). */
async function download(path: string, token?: string) {
  const response = await fetch(`${server.url}${path}`, { headers: token ? { 'x-access-token': token } : {} });
  return { status: response.status, headers: response.headers, body: Buffer.from(await response.arrayBuffer()) };
}

beforeAll(async () => {
  upstream = await startFakeLlmUpstream();
  server = await startTestServer({
    llm: { baseUrl: upstream.baseUrl },
    extraTenants: ['acme', 'burst'],
    config: { ...fastJobSettings, FILE_UPLOAD_LIMIT: UPLOAD_LIMIT, FILE_UPLOAD_WINDOW_MINUTES: 10 },
  });
  api = apiClient(server);
  member = (await api.signIn(DEMO_MEMBER)).access_token;
  const adminSignIn = await api.signIn(DEMO_ADMIN);
  admin = adminSignIn.access_token;
  adminId = adminSignIn.member.id;
  const list = await api.call('/chatbots/?include_default=true', { token: member });
  generalId = list.body.items.find((bot: { en_name: string }) => bot.en_name === 'General Assistant').id;
  await server.db
    .update(tenants)
    .set({ fileLimits: { max_bytes: 2000, max_pages: 2, allowed_kinds: ['pdf', 'text'] } })
    .where(eq(tenants.subdomain, 'acme'));
});
afterAll(async () => {
  await server?.close();
  await upstream?.close();
});

describe('POST /files/ and parsing', () => {
  it('stores documents and images, parses the document in the background and serves both back to the owner', async () => {
    const pdf = samplePdf(['Quarterly revenue grew', 'Costs fell']);
    const result = await upload(member, [
      { name: 'report.pdf', bytes: pdf, type: 'application/pdf' },
      { name: 'dot.png', bytes: samplePng(), type: 'image/png' },
    ]);
    expect(result.status).toBe(200);
    const [doc, image] = result.body.items;
    expect(doc).toMatchObject({ name: 'report.pdf', size: pdf.length, type: 'application/pdf', access_level: 'public', should_expire: true });
    expect(image).toMatchObject({ name: 'dot.png', type: 'image/png', status: 'parsed', parsed_percentage: 100 });

    expect(await parsed(member, doc.id)).toEqual({ id: doc.id, status: 'parsed', parsed_percentage: 100 });
    const sections = await server.db.select().from(fileSections).where(eq(fileSections.fileId, doc.id)).orderBy(fileSections.ordinal);
    expect(sections.map((s) => [s.page, s.text])).toEqual([
      [1, 'Quarterly revenue grew'],
      [2, 'Costs fell'],
    ]);

    const bytes = await download(doc.url, member);
    expect(bytes.status).toBe(200);
    expect(bytes.headers.get('content-type')).toBe('application/pdf');
    expect(bytes.headers.get('content-disposition')).toBe(`attachment; filename="report.pdf"; filename*=UTF-8''report.pdf`);
    expect(bytes.body.equals(pdf)).toBe(true);
    const picture = await download(image.url, member);
    expect(picture.headers.get('content-disposition')).toMatch(/^inline;/);
  });

  it('reads Word, Excel, CSV and Korean names; options are kept', async () => {
    const docx = await uploadOne(
      member,
      { name: '보고서.docx', bytes: sampleDocx(['첫 문단', 'Second']) },
      { access_level: 'private', should_expire: 'false' },
    );
    expect(docx).toMatchObject({ name: '보고서.docx', access_level: 'private', should_expire: false });
    const xlsx = await uploadOne(member, {
      name: 'sales.xlsx',
      bytes: sampleXlsx({
        Q1: [
          ['Region', 'Total'],
          ['Seoul', 7],
        ],
      }),
    });
    const csv = await uploadOne(member, { name: 'scores.csv', bytes: Buffer.from('name,score\nKim,3\n'), type: 'text/csv' });
    for (const file of [docx, xlsx, csv]) expect((await parsed(member, file.id)).status).toBe('parsed');
    const text = async (id: number) => (await server.db.select().from(fileSections).where(eq(fileSections.fileId, id))).map((s) => s.text).join('\n');
    expect(await text(docx.id)).toContain('첫 문단');
    expect(await text(xlsx.id)).toBe('Region\tTotal\nSeoul\t7');
    expect(await text(csv.id)).toBe('name,score\nKim,3');
    const response = await download(docx.url, member);
    expect(response.headers.get('content-disposition')).toContain(`filename*=UTF-8''${encodeURIComponent('보고서.docx')}`);
  });

  it('parses a large document in part and shows the percentage parsed', async () => {
    const total = PARSE_LIMITS.maxPages + 20;
    const pdf = samplePdf(Array.from({ length: total }, (_, i) => `Page ${i + 1}`));
    const file = await uploadOne(member, { name: 'long.pdf', bytes: pdf });
    const done = await parsed(member, file.id);
    expect(done).toEqual({ id: file.id, status: 'parsed', parsed_percentage: Math.floor((PARSE_LIMITS.maxPages / total) * 100) });
    const sections = await server.db.select().from(fileSections).where(eq(fileSections.fileId, file.id));
    expect(sections).toHaveLength(PARSE_LIMITS.maxPages);
  });

  it('answers the errors of spec §8: 400 corrupted, 413 size or pages, 415 format, 422 options, 401 signed out', async () => {
    const corrupted = await upload(member, [{ name: 'broken.pdf', bytes: Buffer.from('%PDF-1.7\nthis is not a pdf at all') }]);
    expect(corrupted).toMatchObject({ status: 400, body: { code: 'file_corrupted' } });

    const disguised = await upload(member, [{ name: 'photo.pdf', bytes: samplePng() }]);
    expect(disguised).toMatchObject({ status: 415, body: { code: 'unsupported_file_type' } });
    const binary = await upload(member, [{ name: 'tool.txt', bytes: Buffer.from([0x4d, 0x5a, 0x90, 0x00, 0x03]) }]);
    expect(binary.status).toBe(415);
    const claimed = await upload(member, [{ name: 'notes.txt', bytes: Buffer.from('hello'), type: 'image/png' }]);
    expect(claimed.status).toBe(415);

    // The acme tenant allows only PDF and text, 2000 bytes and 2 pages.
    const acme = (await api.signIn(DEMO_MEMBER, 'acme')).access_token;
    const png = await upload(acme, [{ name: 'dot.png', bytes: samplePng() }], {}, 'acme');
    expect(png).toMatchObject({ status: 415, body: { details: { allowed_kinds: ['pdf', 'text'] } } });
    const big = await upload(acme, [{ name: 'big.txt', bytes: Buffer.from('x'.repeat(2001)) }], {}, 'acme');
    expect(big).toMatchObject({ status: 413, body: { code: 'file_too_large' } });
    const pages = await upload(acme, [{ name: 'three.pdf', bytes: samplePdf(['a', 'b', 'c']) }], {}, 'acme');
    expect(pages).toMatchObject({ status: 413, body: { code: 'too_many_pages', details: { pages: 3, max_pages: 2 } } });
    expect((await upload(acme, [{ name: 'two.pdf', bytes: samplePdf(['a', 'b']) }], {}, 'acme')).status).toBe(200);

    expect(await upload(member, [{ name: 'a.txt', bytes: Buffer.from('a') }], { access_level: 'secret' })).toMatchObject({ status: 422 });
    expect(await upload(member, [{ name: 'a.txt', bytes: Buffer.from('a') }], { session_id: 'abc' })).toMatchObject({ status: 422 });
    expect(await upload(member, [], { access_level: 'public' })).toMatchObject({ status: 422 });
    expect(await upload(member, [{ name: `${'n'.repeat(101)}.txt`, bytes: Buffer.from('a') }])).toMatchObject({ status: 422 });
    const eleven = Array.from({ length: 11 }, (_, i) => ({ name: `f${i}.txt`, bytes: Buffer.from('a') }));
    expect((await upload(member, eleven)).status).toBe(422);
    const json = await api.call('/files/', { method: 'POST', token: member, body: { files: [] } });
    expect(json.status).toBe(400);
    expect((await upload(undefined, [{ name: 'a.txt', bytes: Buffer.from('a') }])).status).toBe(401);
  });

  it('answers 403 for a session, chatbot or attached file that is not the member’s', async () => {
    const adminFile = await uploadOne(admin, { name: 'admin.txt', bytes: Buffer.from('admin notes') });
    const [bot] = await server.db.select().from(chatbots).where(eq(chatbots.id, generalId));
    const [adminSession] = await server.db
      .insert(sessions)
      .values({ tenantId: bot!.tenantId, hashId: 'adminsession1', chatbotId: generalId, memberId: adminId })
      .returning();
    const file = { name: 'a.txt', bytes: Buffer.from('a') };
    expect((await upload(member, [file], { session_id: String(adminSession!.id) })).status).toBe(403);
    expect((await upload(member, [file], { attached_file_ids: String(adminFile.id) })).status).toBe(403);
    expect((await upload(member, [file], { chatbot_id: '999999' })).status).toBe(403);
    expect((await upload(member, [file], { chatbot_id: String(generalId) })).status).toBe(200);
  });

  it('answers 429 past the upload limit with the limit, window, current count and reset time', async () => {
    const burst = (await api.signIn(DEMO_MEMBER, 'burst')).access_token;
    const batch = Array.from({ length: 10 }, (_, i) => ({ name: `n${i}.txt`, bytes: Buffer.from(`note ${i}`) }));
    for (let sent = 0; sent < UPLOAD_LIMIT; sent += batch.length) expect((await upload(burst, batch, {}, 'burst')).status).toBe(200);
    const refused = await upload(burst, [batch[0]!], {}, 'burst');
    expect(refused.status).toBe(429);
    expect(refused.body.details).toMatchObject({ limit_count: UPLOAD_LIMIT, window_minutes: 10, current_count: UPLOAD_LIMIT + 1 });
    const resetAt = Date.parse(refused.body.details.reset_at);
    expect(resetAt).toBeGreaterThan(Date.now());
    expect(resetAt).toBeLessThanOrEqual(Date.now() + 10 * 60_000 + 5000);
  });
});

describe('GET, DELETE and progress of /files/', () => {
  it('shows a file and its progress only to its owner', async () => {
    const file = await uploadOne(member, { name: 'mine.txt', bytes: Buffer.from('my notes') });
    expect((await download(file.url, admin)).status).toBe(404);
    expect((await download(file.url)).status).toBe(401);
    expect((await download('/api/v1/files/2147483647/', member)).status).toBe(404);
    const { body } = await api.call(`/files/progress?file_ids=${file.id},2147483647`, { token: admin });
    expect(body.items).toEqual([]);
    expect((await api.call('/files/progress?file_ids=1,x', { token: member })).status).toBe(400);
  });

  it('deletes an unsent file of the owner; 403 someone else’s, 404 unknown', async () => {
    const file = await uploadOne(member, { name: 'draft.txt', bytes: Buffer.from('draft') });
    expect((await api.call(`/files/${file.id}/`, { method: 'DELETE', token: admin })).status).toBe(403);
    expect((await api.call(`/files/${file.id}/`, { method: 'DELETE', token: member })).body).toEqual({ ok: true });
    expect((await download(file.url, member)).status).toBe(404);
    expect(await server.db.select().from(files).where(eq(files.id, file.id))).toEqual([]);
    expect((await api.call(`/files/${file.id}/`, { method: 'DELETE', token: member })).status).toBe(404);
  });
});

describe('expiry', () => {
  it('deletes expired uploads never sent in a message; sent files and should_expire=false stay', async () => {
    const abandoned = await uploadOne(member, { name: 'abandoned.txt', bytes: Buffer.from('left behind') });
    const kept = await uploadOne(member, { name: 'kept.txt', bytes: Buffer.from('keep me') }, { should_expire: 'false' });
    const sent = await uploadOne(member, { name: 'sent.txt', bytes: Buffer.from('in the chat') });
    await parsed(member, sent.id);
    const chat = await fetch(`${server.apiBase}/chatbots/${generalId}/chat/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-access-token': member },
      body: JSON.stringify({ text: 'see file', file_ids: [sent.id] }),
    });
    await chat.text();
    const [row] = await server.db.select().from(files).where(eq(files.id, kept.id));
    expect(row!.expiresAt).toBeNull();
    const past = new Date(Date.now() - 60_000);
    await server.db
      .update(files)
      .set({ expiresAt: past })
      .where(inArray(files.id, [abandoned.id, sent.id]));

    await uploadOne(member, { name: 'next.txt', bytes: Buffer.from('next upload sweeps') });
    expect((await download(abandoned.url, member)).status).toBe(404);
    expect((await download(sent.url, member)).status).toBe(200);
    expect((await download(kept.url, member)).status).toBe(200);
  });
});

describe('files in chat', () => {
  it('gives the model the parsed text and the image, links the files to the message, and keeps them (422 on delete)', async () => {
    const doc = await uploadOne(member, { name: 'plan.txt', bytes: Buffer.from('The launch date is 3 March.') });
    const image = await uploadOne(member, { name: 'chart.png', bytes: samplePng() });
    await parsed(member, doc.id);
    const before = upstream.requests.length;
    const response = await fetch(`${server.apiBase}/chatbots/${generalId}/chat/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-access-token': member },
      body: JSON.stringify({ text: 'When is the launch?', file_ids: [doc.id, image.id] }),
    });
    expect(response.status).toBe(200);
    const frames = await readFrames(response);
    expect(frames.at(-1)).toMatchObject({ type: 'end', finish_reason: 'stop' });

    const sent = upstream.requests[before]!.body.messages!.at(-1)!;
    expect(sent.role).toBe('user');
    const parts = sent.content as { type: string; text?: string; image_url?: { url: string } }[];
    expect(parts[0]!.text).toContain('<file name="plan.txt" type="text/plain; charset=utf-8">');
    expect(parts[0]!.text).toContain('The launch date is 3 March.');
    expect(parts[0]!.text).toContain('When is the launch?');
    expect(parts[1]!.image_url!.url).toBe(`data:image/png;base64,${samplePng().toString('base64')}`);
    // The whole text is in the message, so retrieval cites the file without sending its passage again.
    const system = upstream.requests[before]!.body.messages!.find((m) => m.role === 'system')!.content as string;
    expect(system).toContain('plan.txt');
    expect(system).toContain('(in the attached file above)');
    expect(system).not.toContain('The launch date is 3 March.');
    expect(frames.filter((f) => f.type === 'citation').map((f) => (f as { citation: { name: string } }).citation.name)).toContain('plan.txt');

    const meta = JSON.parse(response.headers.get('x-chat-meta') ?? '{}');
    const history = await api.call(`/sessions/${meta.session_hash_id}/history/`, { token: member });
    const memberMessage = history.body.items.find((m: { speaker_type: string }) => m.speaker_type === 'member');
    expect(memberMessage.files.map((f: { name: string }) => f.name).sort()).toEqual(['chart.png', 'plan.txt']);
    for (const linked of memberMessage.files) expect((await download(linked.url, member)).status).toBe(200);

    const kept = await api.call(`/files/${doc.id}/`, { method: 'DELETE', token: member });
    expect(kept).toMatchObject({ status: 422, body: { code: 'file_in_use' } });
  });

  it('cuts the files’ text to half the model’s context and says so', async () => {
    // 12 sections of about 4,000 characters (about 1,000 tokens each).
    const paragraphs = Array.from({ length: 12 }, (_, i) => `Section ${i + 1} ${'lorem ipsum '.repeat(320)}`);
    const doc = await uploadOne(member, { name: 'big.txt', bytes: Buffer.from(paragraphs.join('\n\n')) });
    await parsed(member, doc.id);
    const [bot] = await server.db.select().from(chatbots).where(eq(chatbots.id, generalId));
    const [model] = await server.db.select().from(llmModels).where(eq(llmModels.id, bot!.llmModelId!));
    await server.db.update(llmModels).set({ contextLimit: 8000 }).where(eq(llmModels.id, model!.id));
    try {
      const before = upstream.requests.length;
      const response = await fetch(`${server.apiBase}/chatbots/${generalId}/chat/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-access-token': member },
        body: JSON.stringify({ text: 'Summarize', file_ids: [doc.id] }),
      });
      expect(response.status).toBe(200);
      await response.text();
      // A user message of one text part reaches an OpenAI-compatible API as a plain string.
      const content = upstream.requests[before]!.body.messages!.at(-1)!.content;
      const sent = typeof content === 'string' ? content : (content as { text: string }[])[0]!.text;
      expect(sent).toContain('note="cut to fit: the rest did not fit"');
      expect(sent).toContain('Section 1 ');
      expect(sent).not.toContain('Section 12 ');
      expect(sent.length).toBeLessThan(4000 * 4 * 1.1);
      // What did not fit reaches the model as retrieved passages.
      const system = upstream.requests[before]!.body.messages!.find((m) => m.role === 'system')!.content as string;
      expect(system).not.toContain('(in the attached file above)');
    } finally {
      await server.db.update(llmModels).set({ contextLimit: model!.contextLimit }).where(eq(llmModels.id, model!.id));
    }
  });

  it('needs text or an image: a document alone is 422, an image alone is sent', async () => {
    const doc = await uploadOne(member, { name: 'only.txt', bytes: Buffer.from('content') });
    const image = await uploadOne(member, { name: 'only.png', bytes: samplePng() });
    const send = (fileIds: number[]) =>
      fetch(`${server.apiBase}/chatbots/${generalId}/chat/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-access-token': member },
        body: JSON.stringify({ text: '', file_ids: fileIds }),
      });
    const refused = await send([doc.id]);
    expect(refused.status).toBe(422);
    expect(((await refused.json()) as { code: string }).code).toBe('message_empty');
    const accepted = await send([image.id]);
    expect(accepted.status).toBe(200);
    await accepted.text();
  });
});

describe('GET /public/chatbots/{hash}/files/{id}/', () => {
  it('serves a public chatbot’s public documents, never the files of its sessions, shared or not', async () => {
    const file = await uploadOne(member, { name: 'shared.txt', bytes: Buffer.from('shared text') });
    const response = await fetch(`${server.apiBase}/chatbots/${generalId}/chat/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-access-token': member },
      body: JSON.stringify({ text: 'look', file_ids: [file.id] }),
    });
    await response.text();
    const meta = JSON.parse(response.headers.get('x-chat-meta') ?? '{}');
    const [bot] = await server.db.select().from(chatbots).where(eq(chatbots.id, generalId));
    const publicUrl = (id: number, hash = bot!.hashId) => `/api/v1/public/chatbots/${hash}/files/${id}/`;

    // A shared session's files are read at the session's own path (public-sessions.test.ts): the
    // chatbot's hash would open every shared session of the chatbot to whoever counts file ids.
    await server.db.update(sessions).set({ isPublic: true }).where(eq(sessions.hashId, meta.session_hash_id));
    expect((await download(`/api/v1/public/sessions/${meta.session_hash_id}/files/${file.id}/`)).status).toBe(200);
    expect((await download(publicUrl(file.id))).status).toBe(404);
    await server.db.update(chatbots).set({ isPublic: true }).where(eq(chatbots.id, generalId));
    expect((await download(publicUrl(file.id))).status).toBe(404);

    const document = await uploadOne(admin, { name: 'manual.txt', bytes: Buffer.from('manual') });
    await server.db.insert(chatbotDocuments).values({ tenantId: bot!.tenantId, chatbotId: generalId, fileId: document.id, name: 'manual.txt' });
    await server.db.update(chatbots).set({ isPublic: false }).where(eq(chatbots.id, generalId));
    expect((await download(publicUrl(document.id))).status).toBe(404);
    await server.db
      .update(chatbots)
      .set({ isPublic: true })
      .where(and(eq(chatbots.id, generalId)));
    expect((await download(publicUrl(document.id))).status).toBe(200);
    expect((await download(publicUrl(document.id, 'no-such-bot'))).status).toBe(404);
  });
});
