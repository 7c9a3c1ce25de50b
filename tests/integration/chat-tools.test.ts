import { and, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, chatbotTools, chatbots, creditLedger, mcpTools, members, sessionMessages, tenants, usageRecords } from '../../src/server/db/schema';
import { checkSend, openTurn } from '../../src/server/domains/chat/service';
import { checkPublicSend } from '../../src/server/domains/publicSessions/service';
import { chatBodySchema } from '../../src/shared/api/chat';
import { publicChatBodySchema } from '../../src/shared/api/publicSessions';
import { startDemoMcpServer } from '../../src/server/mcp/demoServer';
import type { ServedMcp } from '../../src/server/mcp/httpServer';
import { TOOL_RESULT_PREVIEW_MAX } from '../../src/shared/domain/mcp';
import { DEFAULT_FAKE_CHUNKS, type FakeLlmUpstream, startFakeLlmUpstream } from '../fixtures/fakeLlmUpstream';
import { FIXTURE_HOSTILE_RESULT, type FixtureMcpServer, startFixtureMcpServer } from '../fixtures/mcpServer';
import { DEMO_ADMIN, DEMO_MEMBER, type TestServer, startTestServer } from '../fixtures/testServer';
import { apiClient, readFrames } from './helpers/client';
import { sendDeps } from './helpers/sendDeps';

/** Frames and bodies are arbitrary JSON checked by the assertions themselves. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

/** Tools of the fixture server: `slow` outlasts the per-call limit, `fail` says it failed, `hostile` answers markup. */
const FIXTURE_TOOLS = ['echo', 'slow', 'fail', 'hostile', 'secret', 'forbidden'];
/** Seconds a tool call has: short, so the timeout test is quick. */
const TOOL_TIMEOUT_SECONDS = 2;
/** The fake reports this usage for every step. */
const STEP_USAGE = { prompt_tokens: 42, completion_tokens: 6 };

describe('tools in the chat (issue 24), against a real MCP server and a fake model', () => {
  let upstream: FakeLlmUpstream;
  let fixture: FixtureMcpServer;
  let server: TestServer;
  let api: ReturnType<typeof apiClient>;
  let admin: string;
  let member: string;
  let chatbotId: number;
  let serverId: number;
  const toolIds: Record<string, number> = {};

  beforeAll(async () => {
    [upstream, fixture] = await Promise.all([startFakeLlmUpstream({ usage: STEP_USAGE }), startFixtureMcpServer({ tools: FIXTURE_TOOLS })]);
    server = await startTestServer({
      llm: { baseUrl: upstream.baseUrl },
      config: { TOOL_CALL_TIMEOUT_SECONDS: TOOL_TIMEOUT_SECONDS, STREAM_FLUSH_SECONDS: 0.2 },
    });
    api = apiClient(server);
    admin = (await api.signIn(DEMO_ADMIN)).access_token;
    const signedIn = await api.signIn(DEMO_MEMBER);
    member = signedIn.access_token;
    const created = await api.call('/admin/mcp-servers/', { method: 'POST', token: admin, body: { name: 'Fixture tools', url: fixture.url } });
    expect(created.status).toBe(200);
    serverId = created.body.id;
    const listed = await api.call(`/admin/mcp-servers/${serverId}/tools/`, { token: admin });
    const defaultGroup = listed.body.groups.find((group: Json) => group.is_default).id;
    for (const tool of listed.body.items as Json[]) {
      toolIds[tool.name] = tool.id;
      // Every tool switched on; `forbidden` for no group, `secret` sensitive.
      const body = { is_enabled: true, is_sensitive: tool.name === 'secret', member_group_ids: tool.name === 'forbidden' ? [] : [defaultGroup] };
      expect((await api.call(`/admin/mcp-servers/${serverId}/tools/${tool.id}/`, { method: 'PATCH', token: admin, body })).status).toBe(200);
    }
    const visible = await api.call('/chatbots/?include_default=true', { token: member });
    chatbotId = visible.body.items.find((bot: Json) => bot.en_name === 'General Assistant').id;
    const [bot] = await server.db.select().from(chatbots).where(eq(chatbots.id, chatbotId));
    await server.db.insert(chatbotTools).values(Object.values(toolIds).map((mcpToolId) => ({ tenantId: bot!.tenantId, chatbotId, mcpToolId })));
  });
  afterAll(async () => {
    await server?.close();
    await Promise.all([upstream?.close(), fixture?.close()]);
  });
  afterEach(async () => {
    upstream.setBehaviour({ chunks: DEFAULT_FAKE_CHUNKS, delayMs: 0, usage: STEP_USAGE, toolCalls: undefined });
    await server.db.update(chatbots).set({ toolStepLimit: 5 }).where(eq(chatbots.id, chatbotId));
  });

  const send = (text: string, signal?: AbortSignal) =>
    fetch(`${server.apiBase}/chatbots/${chatbotId}/chat/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-access-token': member },
      body: JSON.stringify({ text }),
      signal,
    });
  /** Sends and reads the whole answer: its frames, its meta and its saved row. */
  async function ask(text: string) {
    const before = upstream.requests.length;
    const response = await send(text);
    expect(response.status).toBe(200);
    const meta = JSON.parse(response.headers.get('x-chat-meta')!);
    const frames = await readFrames(response);
    const [answer] = await server.db.select().from(sessionMessages).where(eq(sessionMessages.id, meta.chatbot_message_id));
    return { meta, frames, answer: answer!, requests: upstream.requests.slice(before) };
  }
  const toolFrames = (frames: Json[]) => frames.filter((frame) => frame.type === 'tool').map((frame) => frame.call);
  const text = (frames: Json[]) =>
    frames
      .filter((frame) => frame.type === 'text')
      .map((frame) => frame.delta)
      .join('');
  /** The tool message the model got back for a call, in the request after it. */
  const toolMessage = (request: { body: Json }) => request.body.messages.find((message: Json) => message.role === 'tool');
  const auditOf = async (messageSession: number) =>
    (await server.db.select().from(auditLog).where(eq(auditLog.action, 'mcp_tool.call')).orderBy(auditLog.id)).filter(
      (row) => (row.changes as Json).session_id === messageSession,
    );

  it('offers only the tools the member may use, runs a call, tells the model, streams, keeps, meters and audits it', async () => {
    upstream.queueBehaviours([{ chunks: ['Let me look.'], toolCalls: [{ name: 'echo', arguments: { text: 'ping <b>' } }] }, { chunks: ['It said ping.'] }]);
    const { frames, answer, requests, meta } = await ask('Echo ping please');
    // `forbidden` is on the chatbot but no group of the member's may use it: never offered.
    expect(requests[0]!.body.tools!.map((tool) => tool.function.name).sort()).toEqual(['echo', 'fail', 'hostile', 'secret', 'slow']);
    expect(requests).toHaveLength(2);
    expect(toolMessage(requests[1]!).content).toBe('ping <b>');
    expect(fixture.calls.at(-1)).toEqual({ name: 'echo', text: 'ping <b>' });

    const calls = toolFrames(frames);
    expect(calls.map((call) => call.status)).toEqual(['running', 'ok']);
    expect(calls[0]).toMatchObject({
      tool_id: toolIds.echo,
      name: 'echo',
      server_name: 'Fixture tools',
      arguments: { text: 'ping <b>' },
      result: '',
      text_offset: 12,
    });
    expect(calls[1]).toMatchObject({ id: calls[0].id, result: 'ping <b>', duration_ms: expect.any(Number) });
    // The second step's words start a paragraph of their own after the first step's.
    expect(text(frames)).toBe('Let me look.\n\nIt said ping.');
    expect(frames.at(-1)).toEqual({ type: 'end', finish_reason: 'stop' });

    expect(answer).toMatchObject({ text: 'Let me look.\n\nIt said ping.', interrupted: null, streaming: false });
    expect(answer.toolCalls).toEqual([calls[1]]);
    const history = await api.call(`/sessions/${meta.session_hash_id}/history/`, { token: member });
    expect(history.body.items.at(-1).tool_calls).toEqual([calls[1]]);

    // Both steps metered: the finish's total usage sums them.
    const [usage] = await server.db.select().from(usageRecords).where(eq(usageRecords.messageId, meta.chatbot_message_id));
    expect(usage).toMatchObject({ inputTokens: 2 * STEP_USAGE.prompt_tokens, outputTokens: 2 * STEP_USAGE.completion_tokens });
    expect(frames.find((frame) => frame.type === 'usage')).toMatchObject({ input_tokens: 84, output_tokens: 12 });

    const [audit] = await auditOf(answer.sessionId);
    expect(audit).toMatchObject({ actorEmail: DEMO_MEMBER.email, targetType: 'mcp_tool', targetId: String(toolIds.echo) });
    expect(audit!.changes).toMatchObject({
      name: 'echo',
      server: 'Fixture tools',
      chatbot: 'General Assistant',
      chatbot_id: chatbotId,
      status: 'ok',
      arguments: { text: 'ping <b>' },
    });
  });

  it('refuses a call to a tool the member may not use (never reaching its server) and tells the model', async () => {
    const callsBefore = fixture.calls.length;
    upstream.queueBehaviours([{ chunks: [], toolCalls: [{ name: 'forbidden', arguments: { text: 'x' } }] }, { chunks: ['Sorry.'] }]);
    const { frames, answer, requests } = await ask('Use the forbidden tool');
    const ended = toolFrames(frames).at(-1);
    expect(ended).toMatchObject({ tool_id: null, name: 'forbidden', server_name: '', status: 'refused' });
    expect(String(toolMessage(requests[1]!).content)).toMatch(/unavailable|not available/);
    expect(fixture.calls.length).toBe(callsBefore);
    expect(answer).toMatchObject({ text: 'Sorry.', interrupted: null });
    expect((await auditOf(answer.sessionId)).map((row) => (row.changes as Json).status)).toEqual(['refused']);
  });

  it('checks again at the call: a tool switched off while the answer streams is refused, the model told', async () => {
    const callsBefore = fixture.calls.length;
    upstream.queueBehaviours([{ chunks: ['One', ' moment.'], delayMs: 150, toolCalls: [{ name: 'echo', arguments: { text: 'late' } }] }, { chunks: ['OK.'] }]);
    const asked = ask('Echo late');
    await upstream.waitForRequest(upstream.requests.length + 1);
    await server.db.update(mcpTools).set({ isEnabled: false }).where(eq(mcpTools.id, toolIds.echo!));
    try {
      const { frames, requests } = await asked;
      expect(toolFrames(frames).at(-1)).toMatchObject({ tool_id: toolIds.echo, name: 'echo', status: 'refused' });
      expect(toolMessage(requests[1]!).content).toMatch(/not available/);
      expect(fixture.calls.length).toBe(callsBefore);
    } finally {
      await server.db.update(mcpTools).set({ isEnabled: true }).where(eq(mcpTools.id, toolIds.echo!));
    }
  });

  it('gives up a call past the time limit, reports a tool error, and keeps a hostile result as plain text', async () => {
    upstream.queueBehaviours([
      {
        chunks: [],
        toolCalls: [
          { name: 'slow', arguments: { text: 'a' } },
          { name: 'fail', arguments: { text: 'b' } },
          { name: 'hostile', arguments: { text: 'c' } },
          { name: 'secret', arguments: { text: 'hunter2' } },
        ],
      },
      { chunks: ['Done.'] },
    ]);
    const { frames, answer, requests, meta } = await ask('Try them all');
    const ended = Object.fromEntries(
      toolFrames(frames)
        .filter((call) => call.status !== 'running')
        .map((call) => [call.name, call]),
    );
    expect(ended.slow).toMatchObject({ status: 'timeout', result: `The tool did not answer within ${TOOL_TIMEOUT_SECONDS} s.` });
    expect(ended.slow.duration_ms).toBeGreaterThanOrEqual(TOOL_TIMEOUT_SECONDS * 1000 - 50);
    expect(ended.fail).toMatchObject({ status: 'error', result: 'fail: b' });
    expect(ended.hostile).toMatchObject({ status: 'ok', result: `${FIXTURE_HOSTILE_RESULT}\n[image]` });
    expect(ended.secret).toMatchObject({ status: 'ok', arguments: { text: 'hunter2' } });
    const told = requests[1]!.body.messages!.filter((message: Json) => message.role === 'tool').map((message: Json) => String(message.content));
    expect(told).toEqual(expect.arrayContaining([expect.stringMatching(/did not answer/), 'fail: b']));
    expect(answer.toolCalls.map((call) => call.status).sort()).toEqual(['error', 'ok', 'ok', 'timeout']);

    // The sensitive tool's audit row never holds its arguments; the others do.
    const audits = await auditOf(answer.sessionId);
    const secret = audits.find((row) => (row.changes as Json).name === 'secret')!;
    expect(secret.changes).not.toHaveProperty('arguments');
    expect(JSON.stringify(audits)).not.toContain('hunter2');
    expect(audits.find((row) => (row.changes as Json).name === 'fail')!.changes).toMatchObject({ status: 'error', arguments: { text: 'b' } });

    // Shared publicly: its readers see the sensitive call without its arguments or result, the others whole.
    expect((await api.call(`/sessions/${meta.session_hash_id}/`, { method: 'PATCH', token: member, body: { is_public: true } })).status).toBe(200);
    const shared = await api.call(`/public/sessions/${meta.session_hash_id}/history/`);
    expect(shared.status).toBe(200);
    const sharedCalls = Object.fromEntries((shared.body.items.at(-1).tool_calls as Json[]).map((call) => [call.name, call]));
    expect(sharedCalls.secret).toMatchObject({ status: 'ok', arguments: {}, result: '', withheld: true });
    expect(JSON.stringify(shared.body)).not.toContain('hunter2');
    expect(sharedCalls.fail).toMatchObject({ status: 'error', arguments: { text: 'b' }, result: 'fail: b' });
    expect(sharedCalls.fail).not.toHaveProperty('withheld');

    // Exported: the JSON keeps the calls, the Markdown shows them as text (a fence the content cannot close).
    const exported = await api.call(`/sessions/${meta.session_hash_id}/export/?format=json`, { token: member });
    const exportedAnswer = exported.body.messages.at(-1);
    expect(exportedAnswer.tool_calls).toEqual(answer.toolCalls);
    const markdown = await api.call(`/sessions/${meta.session_hash_id}/export/?format=markdown`, { token: member });
    const hostileBlock = String(markdown.body).split('**hostile**')[1]!;
    expect(hostileBlock).toMatch(/^ \(Fixture tools\) · OK · \d+ ms\n\n {2}````text\n {2}\{"text":"c"\}\n {2}# Heading\n {2}<script>alert\(1\)<\/script>/);
    expect(markdown.body).not.toContain('\u0007');

    // Imported: shown as they were, never run again.
    const callsBefore = fixture.calls.length;
    const imported = await api.call('/sessions/import/', { method: 'POST', token: member, body: exported.body });
    expect(imported.status).toBe(200);
    const importedHistory = await api.call(`/sessions/${imported.body.hash_id}/history/`, { token: member });
    expect(importedHistory.body.items.at(-1).tool_calls).toEqual(answer.toolCalls);
    expect(fixture.calls.length).toBe(callsBefore);
  });

  it('stops a running call with the answer: the call reads stopped, the answer is saved and its credits settled', async () => {
    upstream.queueBehaviours([{ chunks: ['Working.'], toolCalls: [{ name: 'slow', arguments: { text: 'stop me' } }] }]);
    const controller = new AbortController();
    const response = await send('Run the slow tool', controller.signal);
    const meta = JSON.parse(response.headers.get('x-chat-meta')!);
    const callsBefore = fixture.calls.length;
    await expect.poll(() => fixture.calls.slice(callsBefore - 1).some((call) => call.text === 'stop me'), { timeout: 5000 }).toBe(true);
    // The live answer's flush writes the running call too (a crash now would keep it).
    await expect
      .poll(async () => (await server.db.select().from(sessionMessages).where(eq(sessionMessages.id, meta.chatbot_message_id)))[0]!.toolCalls, {
        timeout: 1500,
      })
      .toEqual([expect.objectContaining({ name: 'slow', status: 'running' })]);
    controller.abort();
    await expect
      .poll(async () => (await server.db.select().from(sessionMessages).where(eq(sessionMessages.id, meta.chatbot_message_id)))[0]!.streaming, {
        timeout: 5000,
      })
      .toBe(false);
    const [answer] = await server.db.select().from(sessionMessages).where(eq(sessionMessages.id, meta.chatbot_message_id));
    expect(answer).toMatchObject({ text: 'Working.', interrupted: 'stopped' });
    expect(answer!.toolCalls).toEqual([expect.objectContaining({ name: 'slow', status: 'stopped' })]);
    expect(answer!.toolCalls[0]!.duration_ms).toBeLessThan(TOOL_TIMEOUT_SECONDS * 1000);
    // The reservation is settled (a settlement row refers to it).
    const [reservation] = await server.db
      .select()
      .from(creditLedger)
      .where(and(eq(creditLedger.messageId, meta.chatbot_message_id), eq(creditLedger.kind, 'reservation')));
    expect(await server.db.select().from(creditLedger).where(eq(creditLedger.reservationId, reservation!.id))).toHaveLength(1);
    expect((await auditOf(answer!.sessionId)).map((row) => (row.changes as Json).status)).toEqual(['stopped']);
  });

  it('a sweep saves a call still running when its process died as stopped', async () => {
    const [tenant] = await server.db.select().from(tenants).where(eq(tenants.subdomain, 'demo'));
    const [memberRow] = await server.db.select().from(members).where(eq(members.email, DEMO_MEMBER.email));
    const turn = await openTurn(server.db, await checkSend(sendDeps(server), tenant!, memberRow!, chatbotId, chatBodySchema.parse({ text: 'Crash' })), {
      owner: 'dead-process',
      seconds: 0,
    });
    const running = {
      id: 'call_x',
      tool_id: toolIds.echo!,
      name: 'echo',
      server_name: 'Fixture tools',
      arguments: {},
      status: 'running' as const,
      result: '',
      duration_ms: null,
      text_offset: 0,
    };
    await server.db
      .update(sessionMessages)
      .set({ toolCalls: [running] })
      .where(eq(sessionMessages.id, turn.meta.chatbot_message_id));
    expect(await server.app.sweepAbandonedAnswers()).toBe(1);
    const [swept] = await server.db.select().from(sessionMessages).where(eq(sessionMessages.id, turn.meta.chatbot_message_id));
    expect(swept).toMatchObject({ streaming: false, interrupted: 'interrupted', toolCalls: [{ ...running, status: 'stopped' }] });
  });

  it('offers no tools to a signed-out visitor of a public chatbot, though the send runs as its creator', async () => {
    const [tenant] = await server.db.select().from(tenants).where(eq(tenants.subdomain, 'demo'));
    const [adminRow] = await server.db.select().from(members).where(eq(members.email, DEMO_ADMIN.email));
    await server.db.update(chatbots).set({ isPublic: true, creatorId: adminRow!.id }).where(eq(chatbots.id, chatbotId));
    try {
      const asMember = await checkSend(sendDeps(server), tenant!, adminRow!, chatbotId, chatBodySchema.parse({ text: 'Hi' }));
      expect(asMember.tools.map((tool) => tool.name)).toContain('echo');
      const asVisitor = await checkPublicSend(sendDeps(server), tenant!, chatbotId, publicChatBodySchema.parse({ text: 'Hi' }));
      expect(asVisitor.tools).toEqual([]);
    } finally {
      await server.db.update(chatbots).set({ isPublic: false, creatorId: null }).where(eq(chatbots.id, chatbotId));
    }
  });

  it('ends the loop before a step the reservation cannot pay for, charging no more than it held', async () => {
    // balanced-pro: 3 credits per 10K input tokens. A first step this large leaves nothing for a second.
    upstream.queueBehaviours([
      { chunks: [], usage: { prompt_tokens: 40_000, completion_tokens: 10 }, toolCalls: [{ name: 'echo', arguments: { text: 'x' } }] },
    ]);
    const { frames, requests, meta } = await ask('Expensive');
    expect(requests).toHaveLength(1);
    expect(toolFrames(frames).at(-1)).toMatchObject({ status: 'ok' });
    expect(frames.at(-1)).toEqual({ type: 'end', finish_reason: 'length' });
    const ledger = await server.db.select().from(creditLedger).where(eq(creditLedger.messageId, meta.chatbot_message_id));
    const held = -Number(ledger.find((row) => row.kind === 'reservation')!.amount);
    const charged = frames.find((frame) => frame.type === 'usage').credits;
    expect(charged).toBeGreaterThan(0);
    expect(charged).toBeLessThanOrEqual(held + 1e-6);
  });

  it('keeps to the chatbot’s step limit: its last step may only answer in words', async () => {
    await server.db.update(chatbots).set({ toolStepLimit: 2 }).where(eq(chatbots.id, chatbotId));
    upstream.queueBehaviours([{ chunks: [], toolCalls: [{ name: 'echo', arguments: { text: 'one' } }] }, { chunks: ['Answer.'] }]);
    const { requests, frames } = await ask('Two steps at most');
    expect(requests).toHaveLength(2);
    expect(requests[0]!.body.tool_choice).not.toBe('none');
    expect(requests[1]!.body.tool_choice).toBe('none');
    expect(text(frames)).toBe('Answer.');
  });

  it('runs the chatbot’s tools for an OpenAI-compatible call, which still refuses tools of its own', async () => {
    const key = (await api.call('/apikeys/', { method: 'POST', token: member, body: { name: 'tools', chatbot_ids: [chatbotId] } })).body.key;
    const [bot] = await server.db.select({ hashId: chatbots.hashId }).from(chatbots).where(eq(chatbots.id, chatbotId));
    const call = (body: object) =>
      fetch(`${server.apiBase}/openai/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: bot!.hashId, messages: [{ role: 'user', content: 'Echo hi' }], ...body }),
      });
    const refused = await call({ tools: [{ type: 'function', function: { name: 'mine', parameters: {} } }] });
    expect(refused.status).toBe(400);

    upstream.queueBehaviours([{ chunks: [], toolCalls: [{ name: 'echo', arguments: { text: 'hi' } }] }, { chunks: ['Echoed', ' hi.'] }]);
    const whole = await call({});
    expect(whole.status).toBe(200);
    const completion = (await whole.json()) as Json;
    expect(completion.choices[0]).toMatchObject({ message: { role: 'assistant', content: 'Echoed hi.' }, finish_reason: 'stop' });

    upstream.queueBehaviours([{ chunks: [], toolCalls: [{ name: 'echo', arguments: { text: 'hi' } }] }, { chunks: ['Streamed', ' hi.'] }]);
    const streamed = await call({ stream: true });
    const chunks = (await streamed.text())
      .split('\n\n')
      .filter((block) => block.startsWith('data: {'))
      .map((block) => JSON.parse(block.slice(6)) as Json);
    expect(chunks.map((chunk) => chunk.choices[0]?.delta?.content ?? '').join('')).toBe('Streamed hi.');
    expect(chunks.every((chunk) => !chunk.choices[0]?.delta?.tool_calls)).toBe(true);
  });

  it('names two servers’ tools of the same name apart for the model, and reports a server that cannot be reached as an error', async () => {
    const other = await startFixtureMcpServer({ tools: ['echo'] });
    const created = await api.call('/admin/mcp-servers/', { method: 'POST', token: admin, body: { name: 'Other tools', url: other.url } });
    const otherServerId = created.body.id;
    try {
      const [otherEcho] = (await api.call(`/admin/mcp-servers/${otherServerId}/tools/`, { token: admin })).body.items;
      const [own] = await server.db.select().from(mcpTools).where(eq(mcpTools.id, toolIds.echo!));
      const groups = (await api.call(`/admin/mcp-servers/${serverId}/tools/`, { token: admin })).body.groups.map((group: Json) => group.id);
      await api.call(`/admin/mcp-servers/${otherServerId}/tools/${otherEcho.id}/`, {
        method: 'PATCH',
        token: admin,
        body: { is_enabled: true, member_group_ids: groups },
      });
      await server.db.insert(chatbotTools).values({ tenantId: own!.tenantId, chatbotId, mcpToolId: otherEcho.id });
      await other.close();

      const otherName = `echo_${otherEcho.id}`;
      upstream.queueBehaviours([{ chunks: [], toolCalls: [{ name: otherName, arguments: { text: 'anyone?' } }] }, { chunks: ['Nobody.'] }]);
      const { frames, requests } = await ask('Echo on the other server');
      const names = requests[0]!.body.tools!.map((tool) => tool.function.name);
      expect(names).toEqual(expect.arrayContaining([`echo_${toolIds.echo}`, otherName]));
      expect(names).not.toContain('echo');
      expect(toolFrames(frames).at(-1)).toMatchObject({ tool_id: otherEcho.id, name: 'echo', server_name: 'Other tools', status: 'error' });
      expect(toolFrames(frames).at(-1).result).toMatch(/cannot be reached/);
      expect(String(toolMessage(requests[1]!).content)).toMatch(/cannot be reached/);
    } finally {
      await api.call(`/admin/mcp-servers/${otherServerId}/`, { method: 'DELETE', token: admin });
    }
  });

  it('cuts a long result to the preview in the answer and the history', async () => {
    const long = 'y'.repeat(TOOL_RESULT_PREVIEW_MAX + 500);
    upstream.queueBehaviours([{ chunks: [], toolCalls: [{ name: 'echo', arguments: { text: long } }] }, { chunks: ['Long.'] }]);
    const { answer, requests } = await ask('Long echo');
    expect(answer.toolCalls[0]!.result).toHaveLength(TOOL_RESULT_PREVIEW_MAX);
    // The model reads all of it.
    expect(toolMessage(requests[1]!).content).toBe(long);
  });
});

describe('the demo model with the demo MCP server (a newcomer without a key)', () => {
  let demo: ServedMcp;
  let server: TestServer;
  let api: ReturnType<typeof apiClient>;
  let member: string;
  let chatbotId: number;

  beforeAll(async () => {
    demo = await startDemoMcpServer();
    server = await startTestServer({ demoMcpUrl: demo.url });
    api = apiClient(server);
    member = (await api.signIn(DEMO_MEMBER)).access_token;
    const visible = await api.call('/chatbots/?include_default=true', { token: member });
    chatbotId = visible.body.items.find((bot: Json) => bot.en_name === 'General Assistant').id;
  });
  afterAll(async () => {
    await server?.close();
    await demo?.close();
  });

  const ask = async (text: string) => {
    const response = await fetch(`${server.apiBase}/chatbots/${chatbotId}/chat/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-access-token': member },
      body: JSON.stringify({ text }),
    });
    expect(response.status).toBe(200);
    const frames = await readFrames(response);
    return {
      calls: frames.filter((frame) => frame.type === 'tool' && frame.call.status !== 'running').map((frame) => frame.call),
      text: frames
        .filter((frame) => frame.type === 'text')
        .map((frame) => frame.delta)
        .join(''),
    };
  };

  it('gives the General Assistant the demo tools, and asks current_time for the time in the city named', async () => {
    expect(await server.db.select().from(chatbotTools).where(eq(chatbotTools.chatbotId, chatbotId))).toHaveLength(2);
    const { calls, text } = await ask('What time is it in Seoul?');
    expect(calls).toEqual([expect.objectContaining({ name: 'current_time', server_name: 'Demo tools', arguments: { time_zone: 'Asia/Seoul' }, status: 'ok' })]);
    expect(calls[0].result).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} \(Asia\/Seoul, GMT\+9\)$/);
    expect(text).toContain('`current_time`');
    expect(text).toContain('Asia/Seoul');
  });

  it('converts units through convert_units, and answers a plain question without a tool', async () => {
    const converted = await ask('convert 10 km to miles');
    expect(converted.calls).toEqual([expect.objectContaining({ name: 'convert_units', arguments: { value: 10, from: 'km', to: 'mi' }, status: 'ok' })]);
    expect(converted.calls[0].result).toBe('10 km = 6.213711922 mi');
    expect(converted.text).toContain('6.213711922 mi');
    const plain = await ask('Tell me a story');
    expect(plain.calls).toEqual([]);
    expect(plain.text).toContain('Demo model');
  });
});
